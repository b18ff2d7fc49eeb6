import { portugueseIssue, type FieldIssue } from '@campus/core/schemas';
import { config, type z } from 'zod';
import { pt } from 'zod/locales';

// Any issue a schema gives no words of its own reads in zod's Portuguese.
config(pt());

/**
 * Portuguese for the custom rules of the English schemas (feed, matches), by the field they
 * concern: the forms send no event fields for a plain post, so an event field's rule is "required
 * for an EVENT", and the only rule of a match's date is "in the future".
 */
const CUSTOM_RULES: Record<string, string> = {
  eventDate: 'obrigatório para eventos',
  location: 'obrigatório para eventos',
  eventFinishDate: 'não pode ser antes do início',
  MatchDate: 'deve ser uma data futura',
};

/** A request the API would refuse, caught before sending; read like the API's 400. */
export class InvalidInput extends Error {
  override readonly name = 'InvalidInput';
  readonly data: { appCode: 'BAD_REQUEST'; issues: FieldIssue[] };
  constructor(issues: FieldIssue[]) {
    super('Dados inválidos');
    this.data = { appCode: 'BAD_REQUEST', issues };
  }
}

function message(issue: z.core.$ZodIssue, language: 'pt' | 'en'): string {
  if (language === 'pt') return issue.message;
  const field = String(issue.path[0] ?? '');
  if (issue.code === 'custom') return CUSTOM_RULES[field] ?? portugueseIssue(issue);
  return portugueseIssue(issue);
}

/** The problems of `input` by the API's own schema, in Portuguese, with dotted paths. */
export function inputIssues(
  schema: z.ZodType,
  input: unknown,
  language: 'pt' | 'en',
): FieldIssue[] {
  const result = schema.safeParse(input);
  if (result.success) return [];
  return result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: message(issue, language),
  }));
}

/**
 * `input` unchanged when the API's schema accepts it; otherwise throws `InvalidInput`, which
 * `fieldErrors`/`formMessage` read like the API's own answer. `language` is the schema's: the
 * feed and match schemas speak English, so their issues are rendered in Portuguese from their
 * structure (lib: core's `portugueseIssue`) instead of their words.
 */
export function checked<T>(
  schema: z.ZodType,
  input: T,
  language: 'pt' | 'en',
  /**
   * The issues of a rule across fields (e.g. core's `eventFieldIssues`), which the schema checks
   * only once every field is valid on its own: given here, they are reported in the same round.
   */
  crossField: FieldIssue[] = [],
): T {
  const issues = inputIssues(schema, input, language);
  for (const issue of crossField) {
    if (!issues.some((found) => found.path === issue.path))
      issues.push({ path: issue.path, message: CUSTOM_RULES[issue.path] ?? issue.message });
  }
  if (issues.length > 0) throw new InvalidInput(issues);
  return input;
}
