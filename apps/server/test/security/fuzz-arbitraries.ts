import { isUf } from '@campus/core';
import fc from 'fast-check';
import type { documentedOperations } from './support';
import type { RestInput } from './valid-requests';

/**
 * fast-check arbitraries of invalid requests, read off the OpenAPI document: each case starts from
 * a valid request and breaks at least one part of it (a path parameter, a query parameter, a body
 * field, or the body itself), so that any 2xx answer is a finding. Noise is added on top (unknown
 * fields, unicode in other fields), which can never make a broken request valid.
 */

interface Schema {
  type?: string;
  anyOf?: Schema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: string[];
  format?: string;
  pattern?: string;
  properties?: Record<string, Schema>;
  required?: string[];
}

type Operation = (typeof documentedOperations)[number];
/** A request under construction; `rawBody` replaces the JSON body when set (malformed or not an object). */
export interface Case extends RestInput {
  rawBody?: string;
  rawQuery?: string;
  auth: 'admin' | 'none' | 'garbage';
  broken: string[];
}
type Mutation = { label: string; apply(c: Case): void };

const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
/** "." and ".." are dot-segments: the URL parser removes them and another route answers. */
const DOT_SEGMENT = /^\.{1,2}$/;
const VALID_UUID = '3f1b7f9e-0000-4000-8000-000000000000';

const unicode = fc.string({ unit: 'grapheme', maxLength: 40 });
const anyText = fc.oneof(fc.string({ maxLength: 40 }), unicode);
/** Letters only (no whitespace, one UTF-16 unit each), so lengths survive `.trim()` exactly. */
const letters = (min: number, max: number) =>
  fc
    .array(fc.constantFrom('a', 'z', 'é', 'Ж', '字', 'ß', '0', '_', '-'), {
      minLength: min,
      maxLength: max,
    })
    .map((a) => a.join(''));
const hugeNumbers = fc.constantFrom(
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  -(2 ** 63),
  2 ** 64,
  1e-300,
  -0.5,
);
const nested = fc.oneof(
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

const isNullable = (schema: Schema) => Boolean(schema.anyOf?.some((s) => s.type === 'null'));
const baseOf = (schema: Schema): Schema => schema.anyOf?.find((s) => s.type !== 'null') ?? schema;
const matches = (pattern: string | undefined, value: string) =>
  pattern ? new RegExp(pattern).test(value) : true;

/** JSON values of a type the field does not take. */
function wrongType(schema: Schema): fc.Arbitrary<unknown> {
  const base = baseOf(schema);
  const options: fc.Arbitrary<unknown>[] = [fc.boolean(), nested];
  if (!isNullable(schema)) options.push(fc.constant(null));
  // No NaN or ±Infinity: JSON sends them as null, which a nullable field takes.
  if (base.type === 'string')
    options.push(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), hugeNumbers);
  if (base.type === 'integer' || base.type === 'number') {
    // Strings and arrays that Number() would read as a valid integer ("10", [10]) included:
    // JSON numbers are never coerced (fuzz.test.ts, "number fields are numbers").
    options.push(anyText, fc.constantFrom('ten', '', '1,5', '10', '2'), fc.constant([10]));
  }
  return fc.oneof(...options);
}

/** Values of the right type that break a documented constraint (length, range, enum, format). */
function constraintBreaks(
  name: string,
  schema: Schema,
  allowBlank = true,
): fc.Arbitrary<unknown>[] {
  const s = baseOf(schema);
  const out: fc.Arbitrary<unknown>[] = [];
  if (s.type === 'integer' || s.type === 'number') {
    const { minimum = -Infinity, maximum = Infinity } = s;
    const outOfRange = (v: number) => !(Number.isInteger(v) && v >= minimum && v <= maximum);
    out.push(fc.double({ noNaN: true, noDefaultInfinity: true }).filter(outOfRange), hugeNumbers);
    if (Number.isFinite(minimum)) out.push(fc.integer({ min: minimum - 1000, max: minimum - 1 }));
    if (Number.isFinite(maximum)) out.push(fc.integer({ min: maximum + 1, max: maximum + 1000 }));
    return out;
  }
  if (s.type !== 'string') return out;
  if (s.maxLength !== undefined) out.push(letters(s.maxLength + 1, s.maxLength + 40));
  if (s.minLength !== undefined && s.minLength > 1) out.push(letters(0, s.minLength - 1));
  if (s.minLength === 1 && allowBlank) out.push(fc.constant(''));
  if (s.enum) {
    const values = s.enum;
    out.push(
      fc
        .oneof(
          anyText,
          fc.constantFrom(...values.map((v) => v.toLowerCase()), ...values.map((v) => ` ${v}x`)),
        )
        .filter((v) => !values.includes(v)),
    );
  }
  if (s.format === 'uuid') {
    out.push(
      fc
        .oneof(
          anyText,
          fc.constantFrom(
            `${VALID_UUID}x`,
            VALID_UUID.replace(/-/g, ''),
            `{${VALID_UUID}}`,
            VALID_UUID.replace('3', 'g'),
          ),
        )
        .filter((v) => !UUID.test(v)),
    );
  }
  if (s.format === 'date-time' || s.pattern) {
    const nearMisses = [
      '2030-13-01T00:00:00Z',
      '2030-02-30T00:00:00Z',
      '2030-01-01',
      '2030-01-01 10:00:00',
      '1900000000',
      'tomorrow',
      '+275760-09-13T00:00:00Z',
      '2030-01-01T25:00:00Z',
      '03/05/2003',
      '2003-5-7',
    ];
    out.push(
      fc
        .oneof(anyText, fc.constantFrom(...nearMisses))
        .filter(
          (v) =>
            !matches(s.pattern, v) || (s.format === 'date-time' && Number.isNaN(Date.parse(v))),
        ),
    );
  }
  // Rules the document states in words: e-mails, UFs, real past dates, a future MatchDate.
  if (name === 'email') out.push(anyText.filter((v) => !v.includes('@')));
  if (name === 'estado' || name === 'uf')
    out.push(anyText.filter((v) => !isUf(v.trim().toUpperCase())));
  if (name === 'dataNascimento')
    out.push(fc.constantFrom('2023-02-30', '1899-12-31', '2999-01-01', '2024-00-10'));
  if (name === 'MatchDate')
    out.push(fc.constantFrom('2000-01-01T00:00:00Z', '1970-01-01T00:00:00.000Z'));
  return out;
}

const breakValue = (name: string, schema: Schema) =>
  fc.oneof(wrongType(schema), ...constraintBreaks(name, schema));

/** Breaks of a path parameter: malformed for its kind (any non-empty text for free-form ids → 404). */
function pathBreak(name: string, schema: Schema): fc.Arbitrary<string> {
  const text = fc.oneof(
    fc.string({ minLength: 1, maxLength: 60 }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
    fc.constantFrom(
      '0',
      '-1',
      '1e9',
      'null',
      'undefined',
      "' or 1=1 --",
      '%00',
      '../admin',
      'a/b',
      `${VALID_UUID}x`,
      VALID_UUID.slice(0, 35),
      '😀',
      '\u202e',
    ),
  );
  return text.filter((v) => {
    if (DOT_SEGMENT.test(v) || v.trim() === '') return false;
    if (schema.format === 'uuid') return !UUID.test(v);
    if (name === 'uf') return !isUf(v.trim().toUpperCase());
    return v !== VALID_UUID; // a free-form id: any text that names no row → 404
  });
}

/** Query values that are not what the parameter takes; empty values count as absent, so none here. */
function queryBreak(name: string, schema: Schema): fc.Arbitrary<string> {
  const s = baseOf(schema);
  if (s.type === 'integer') {
    const { minimum = -Infinity, maximum = Infinity } = s;
    return fc
      .oneof(
        fc.string({ minLength: 1, maxLength: 12 }),
        unicode,
        fc.constantFrom('0', '-1', String(maximum + 1), '2.5', '1e400', 'NaN', '0x', '∞', '１０'),
      )
      .filter(
        (v) =>
          v.trim() !== '' &&
          !(Number.isInteger(Number(v)) && Number(v) >= minimum && Number(v) <= maximum),
      );
  }
  // A blank value may be read as an absent one, which is valid for an optional parameter.
  return fc.oneof(
    ...constraintBreaks(name, schema, false).map((a) =>
      a.filter((v): v is string => typeof v === 'string' && v.trim() !== ''),
    ),
  );
}

/** Every way to break the request of `op` (one per target: a parameter, a field, the body). */
export function mutationsOf(op: Operation): fc.Arbitrary<Mutation>[] {
  const targets: fc.Arbitrary<Mutation>[] = [];
  const parameters = (op.operation.parameters ?? []) as {
    in: string;
    name: string;
    required?: boolean;
    schema: Schema;
  }[];
  for (const p of parameters.filter((p) => p.in === 'path')) {
    targets.push(
      pathBreak(p.name, p.schema).map((v) => ({
        label: `path ${p.name}=${JSON.stringify(v)}`,
        apply: (c) => void (c.params[p.name] = v),
      })),
    );
  }
  for (const p of parameters.filter((p) => p.in === 'query')) {
    const options: fc.Arbitrary<Mutation>[] = [
      queryBreak(p.name, p.schema).map((v) => ({
        label: `query ${p.name}=${JSON.stringify(v)}`,
        apply: (c) => void (c.query[p.name] = v),
      })),
    ];
    if (p.required)
      options.push(
        fc.constant({
          label: `query ${p.name} missing`,
          apply: (c) => void delete c.query[p.name],
        }),
      );
    if (baseOf(p.schema).type === 'integer') {
      options.push(
        fc.constantFrom('%', '%E0%A4%A', '%ZZ').map((raw) => ({
          label: `raw query ${p.name}=${raw}`,
          apply: (c) => void (c.rawQuery = `${p.name}=${raw}`),
        })),
      );
    }
    targets.push(fc.oneof(...options));
  }
  const body = (
    op.operation.requestBody as { content?: Record<string, { schema: Schema }> } | undefined
  )?.content?.['application/json']?.schema;
  if (body?.properties) {
    const required = new Set(body.required ?? []);
    for (const [name, schema] of Object.entries(body.properties)) {
      const options: fc.Arbitrary<Mutation>[] = [
        breakValue(name, schema).map((v) => ({
          label: `body ${name}=${JSON.stringify(v)?.slice(0, 80)}`,
          apply: (c) => void (c.body![name] = v),
        })),
      ];
      if (required.has(name))
        options.push(
          fc.constant({ label: `body ${name} missing`, apply: (c) => void delete c.body![name] }),
        );
      if (name === 'confirmacaoSenha')
        options.push(
          fc.constant({
            label: 'confirmacaoSenha differs',
            apply: (c) => void (c.body![name] = `${String(c.body!.senha)}x`),
          }),
        );
      targets.push(fc.oneof(...options));
    }
    // No field to change at all: an empty body for the PATCHes.
    if (!required.size)
      targets.push(
        fc.constant({ label: 'body without any field', apply: (c) => void (c.body = {}) }),
      );
    const notAnObject = fc.oneof(
      fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
    );
    const malformed = fc.constantFrom(
      '{',
      '{"a":}',
      "{'nome':'x'}",
      '[1,',
      'undefined',
      '{"a":1}{"b":2}',
      '\u0000',
      '{"__proto__":',
    );
    targets.push(
      fc.oneof(
        notAnObject.map((v) => ({
          label: `body is ${JSON.stringify(v)?.slice(0, 60)}`,
          apply: (c: Case) => void (c.rawBody = JSON.stringify(v)),
        })),
        malformed.map((raw) => ({
          label: `malformed body ${JSON.stringify(raw)}`,
          apply: (c: Case) => void (c.rawBody = raw),
        })),
      ),
    );
  }
  return targets;
}

/** Names the operation documents (parameters and body fields): noise never uses them. */
function documentedNames(op: Operation): Set<string> {
  const parameters = (op.operation.parameters ?? []) as { name: string }[];
  const body = (
    op.operation.requestBody as { content?: Record<string, { schema: Schema }> } | undefined
  )?.content?.['application/json']?.schema;
  return new Set([
    'id',
    '__proto__',
    'constructor',
    ...parameters.map((p) => p.name),
    ...Object.keys(body?.properties ?? {}),
  ]);
}

/** Unknown fields and query parameters, and unicode in a field left intact: noise that must not matter. */
function noise(op: Operation): fc.Arbitrary<(c: Case) => void> {
  const reserved = documentedNames(op);
  const unknownName = fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !reserved.has(k));
  const extraFields = fc.dictionary(unknownName, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
  const extraQuery = fc.dictionary(unknownName, fc.string({ maxLength: 12 }), { maxKeys: 2 });
  return fc
    .tuple(fc.option(extraFields), fc.option(extraQuery), fc.option(unicode))
    .map(([fields, query, text]) => (c: Case) => {
      Object.assign(c.query, query ?? {});
      if (!c.body) return;
      const intact = Object.keys(c.body).find(
        (k) => typeof c.body![k] === 'string' && !c.broken.some((b) => b.startsWith(`body ${k}`)),
      );
      if (text !== null && intact && !['confirmacaoSenha', 'senha'].includes(intact))
        c.body[intact] = text;
      Object.assign(c.body, fields ?? {});
    });
}

/** Mostly an ADMIN's token (so that input validation is reached), sometimes none or a bad one. */
const credentials = fc.oneof(
  { arbitrary: fc.constant('admin' as const), weight: 8 },
  { arbitrary: fc.constantFrom('none' as const, 'garbage' as const), weight: 1 },
);

/** Invalid requests to `op`, built on `valid` (a function, so each case gets fresh values). */
export function invalidRequests(op: Operation, valid: () => RestInput): fc.Arbitrary<Case> {
  const targets = mutationsOf(op);
  const authed = (op.operation.security ?? []).length > 0;
  const breaks = targets.length
    ? fc.subarray(
        targets.map((_, i) => i),
        { minLength: 1, maxLength: Math.min(3, targets.length) },
      )
    : fc.constant([]);
  return breaks
    .chain((chosen) =>
      fc.tuple(
        fc.tuple(...chosen.map((i) => targets[i]!)),
        noise(op),
        authed ? credentials : fc.constant('admin'),
      ),
    )
    .map(([mutations, addNoise, auth]) => {
      const base = valid();
      const c: Case = {
        params: { ...base.params },
        query: { ...base.query },
        ...(base.body ? { body: structuredClone(base.body) } : {}),
        auth: auth as Case['auth'],
        broken: [],
      };
      // Without a breakable part (GET /autenticacao/usuario-atual), the credentials are what is wrong.
      if (!mutations.length) c.auth = 'garbage';
      for (const m of mutations) {
        m.apply(c);
        c.broken.push(m.label);
      }
      if (c.auth !== 'admin') c.broken.push(`auth ${c.auth}`);
      addNoise(c);
      return c;
    });
}
