import fc from 'fast-check';
import type { documentedOperations } from './support';
import type { RestInput } from './valid-requests';
import { baseOf, breakValue, pathBreak, queryBreak, unicode, type Schema } from './fuzz-values';

/**
 * fast-check arbitraries of invalid requests, read off the OpenAPI document: each case starts from
 * a valid request and breaks at least one part of it (a path parameter, a query parameter, a body
 * field, or the body itself), so that any 2xx answer is a finding. Noise is added on top (unknown
 * fields, unicode in other fields), which can never make a broken request valid.
 */

type Operation = (typeof documentedOperations)[number];
/** A request under construction; `rawBody` replaces the JSON body when set (malformed or not an object). */
export interface Case extends RestInput {
  rawBody?: string;
  rawQuery?: string;
  auth: 'admin' | 'none' | 'garbage';
  broken: string[];
}
type Mutation = { label: string; apply(c: Case): void };

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
            // `senha` may itself be broken (any JSON, even {"toString": 1}): no String() of it.
            apply: (c) => {
              const senha = c.body!.senha;
              c.body![name] = `${typeof senha === 'string' ? senha : 'senha'}x`;
            },
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
