import { isUf } from '@campus/core';
import fc from 'fast-check';

/**
 * fast-check arbitraries of values that a field or parameter, as the OpenAPI document describes it,
 * does not take: the wrong type, or the right type breaking a documented constraint (length, range,
 * enum, format, or a rule stated in words). fuzz-arbitraries.ts builds whole requests from them.
 */

export interface Schema {
  /** One type, or with `null` beside it (`["number", "null"]`: a nullable field). */
  type?: string | string[];
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
  maxItems?: number;
  items?: Schema;
}

const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
/** "." and ".." are dot-segments: the URL parser removes them and another route answers. */
const DOT_SEGMENT = /^\.{1,2}$/;
const VALID_UUID = '3f1b7f9e-0000-4000-8000-000000000000';

export const unicode = fc.string({ unit: 'grapheme', maxLength: 40 });
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

const isNullable = (schema: Schema) =>
  Boolean(
    schema.anyOf?.some((s) => s.type === 'null') ||
    (Array.isArray(schema.type) && schema.type.includes('null')),
  );
/** The schema of a field's non-null values (`anyOf` with null, or a `type` list with null). */
export const baseOf = (schema: Schema): Schema => {
  if (Array.isArray(schema.type))
    return { ...schema, type: schema.type.find((t) => t !== 'null') ?? 'null' };
  return schema.anyOf?.find((s) => s.type !== 'null') ?? schema;
};
const matches = (pattern: string | undefined, value: string) =>
  pattern ? new RegExp(pattern).test(value) : true;

/** JSON values of a type the field does not take. */
function wrongType(schema: Schema): fc.Arbitrary<unknown> {
  const base = baseOf(schema);
  const options: fc.Arbitrary<unknown>[] = [];
  // A boolean is no wrong type for a boolean, nor an array for an array.
  options.push(base.type === 'boolean' ? anyText : fc.boolean());
  // Nor an object for an object (a field of objects, e.g. the push preferences' `types`).
  options.push(
    base.type === 'array'
      ? fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), {
          minKeys: 1,
          maxKeys: 4,
        })
      : base.type === 'object'
        ? fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 })
        : nested,
  );
  if (base.type === 'boolean' || base.type === 'array') options.push(fc.integer(), anyText);
  if (!isNullable(schema)) options.push(fc.constant(null));
  // No NaN or ±Infinity: JSON sends them as null, which a nullable field takes.
  if (base.type === 'string')
    options.push(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), hugeNumbers);
  if (base.type === 'integer' || base.type === 'number') {
    // Strings and arrays that Number() would read as a valid integer ("10", [10]) included:
    // JSON numbers are never coerced (fuzz-findings.test.ts, "number fields are numbers").
    options.push(anyText, fc.constantFrom('ten', '', '1,5', '10', '2'), fc.constant([10]));
  }
  return fc.oneof(...options);
}

/** Values of the right type that break a documented constraint (length, range, enum, format). */
export function constraintBreaks(
  name: string,
  schema: Schema,
  allowBlank = true,
): fc.Arbitrary<unknown>[] {
  const s = baseOf(schema);
  const out: fc.Arbitrary<unknown>[] = [];
  if (s.type === 'integer' || s.type === 'number') {
    const { minimum = -Infinity, maximum = Infinity } = s;
    const whole = s.type === 'integer';
    const outOfRange = (v: number) =>
      !((!whole || Number.isInteger(v)) && v >= minimum && v <= maximum);
    // A fraction or a huge value breaks an integer, or a bounded number; an unbounded `number`
    // (push's `expirationTime`) takes any finite one: only its wrong types break it.
    const breaks = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), hugeNumbers);
    if (whole || Number.isFinite(minimum) || Number.isFinite(maximum))
      out.push(breaks.filter((v) => outOfRange(v as number)));
    if (Number.isFinite(minimum)) out.push(fc.integer({ min: minimum - 1000, max: minimum - 1 }));
    if (Number.isFinite(maximum)) out.push(fc.integer({ min: maximum + 1, max: maximum + 1000 }));
    return out;
  }
  if (s.type === 'array') {
    // Too many items, or an item that breaks the item rule.
    if (s.maxItems !== undefined)
      out.push(fc.array(letters(1, 5), { minLength: s.maxItems + 1, maxLength: s.maxItems + 3 }));
    if (s.items) {
      const item = s.items;
      out.push(fc.oneof(wrongType(item), ...constraintBreaks(name, item)).map((v) => [v]));
    }
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

export const breakValue = (name: string, schema: Schema) =>
  fc.oneof(wrongType(schema), ...constraintBreaks(name, schema));

/** Breaks of a path parameter: malformed for its kind (any non-empty text for free-form ids → 404). */
export function pathBreak(name: string, schema: Schema): fc.Arbitrary<string> {
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
export function queryBreak(name: string, schema: Schema): fc.Arbitrary<string> {
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
  if (s.type === 'boolean')
    return fc
      .oneof(
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.constantFrom('TRUE', 'False', '1', '0', 'yes'),
      )
      .filter((v) => v.trim() !== '' && v !== 'true' && v !== 'false');
  // A blank value may be read as an absent one, which is valid for an optional parameter.
  return fc.oneof(
    ...constraintBreaks(name, schema, false).map((a) =>
      a.filter((v): v is string => typeof v === 'string' && v.trim() !== ''),
    ),
  );
}
