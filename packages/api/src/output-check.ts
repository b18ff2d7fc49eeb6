import { isDeepStrictEqual } from 'node:util';
import { TRPCError } from '@trpc/server';
import {
  pipelineOf,
  type OutputSchema,
  type ProcedureMiddleware as Middleware,
  type Route,
} from './routes';

/**
 * What becomes of each procedure's output schema at run time (docs/decisions.md, "Output
 * validation"): the schema always gives the types and the OpenAPI document; the check is
 * - `parse`: tRPC's own (the answer is parsed, unknown keys stripped): what `.output()` does;
 * - `off`: none (production): the service's answer is sent as it is;
 * - `strict`: the test suites': the answer must already be exactly its schema, i.e. parsing it
 *   changes nothing that JSON would carry (no extra key, nothing transformed); otherwise
 *   `onMismatch` is told and the call fails with a 500.
 */
export type OutputCheck =
  | { mode: 'parse' | 'off' }
  | { mode: 'strict'; onMismatch: (path: string, problem: string) => void };

/** What JSON carries of a value (key order aside): undefined keys and methods gone. */
const wire = (value: unknown): unknown =>
  value === undefined ? undefined : JSON.parse(JSON.stringify(value));

function outputMiddleware(
  path: string,
  schema: OutputSchema,
  check: OutputCheck,
): Middleware | undefined {
  if (check.mode === 'off') return undefined;
  const fail = (problem: string, cause?: unknown) => {
    if (check.mode === 'strict') check.onMismatch(path, problem);
    return new TRPCError({
      code: 'INTERNAL_SERVER_ERROR',
      message: 'Output validation failed',
      cause,
    });
  };
  const middleware: Middleware = async ({ next }) => {
    const result = (await next()) as { ok: boolean; data?: unknown };
    if (!result.ok) return result;
    const parsed = await schema.safeParseAsync(result.data);
    if (!parsed.success)
      throw fail(`not valid against its output schema: ${String(parsed.error)}`, parsed.error);
    if (check.mode === 'parse') return { ...result, data: parsed.data };
    const sent = wire(result.data);
    if (!isDeepStrictEqual(wire(parsed.data), sent))
      throw fail(`answer is not exactly its schema (extra keys?): ${JSON.stringify(sent)}`);
    return result;
  };
  middleware._type = 'output';
  return middleware;
}

/**
 * Sets the output check of every query and mutation of `routes` (the app router's procedures,
 * shared by every app of the process), replacing tRPC's own output middleware. Idempotent: the
 * last call holds.
 *
 * Why tRPC's middleware list, not a public hook (checked on @trpc/server 11.25.2 and
 * trpc-to-openapi 3.3.0): `.output(schema)` always adds tRPC's parse of every answer, and there
 * is no public way to declare the schema without it; trpc-to-openapi reads the OpenAPI
 * document's response schema from that same declaration (`_def.output`). A `.use()` middleware
 * can add a check but cannot remove tRPC's parse, which production does without
 * (docs/decisions.md, "Output validation"). So the one reliance is this swap of the `output` step.
 */
export function setOutputCheck(routes: readonly Route[], check: OutputCheck): void {
  for (const { path, type, procedure } of routes) {
    if (type === 'subscription') continue;
    const def = pipelineOf(procedure);
    const at = def.middlewares.findIndex((m) => m._type === 'output');
    const replacement = def.output && outputMiddleware(path, def.output, check);
    if (at >= 0) def.middlewares.splice(at, 1, ...(replacement ? [replacement] : []));
    else if (replacement) def.middlewares.splice(def.middlewares.length - 1, 0, replacement);
  }
}
