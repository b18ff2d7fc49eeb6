import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { z } from 'zod';
import { appRouter } from './root';
import type { Meta } from './trpc';

/** A procedure's REST binding: its documented method and path (from its trpc-to-openapi meta). */
export interface RestBinding {
  method: string;
  /** As documented, e.g. `/post/{id}/like`. */
  template: string;
  successStatus: 200 | 201 | 202 | 204;
  /** False for procedures declared with `z.void()` input: they receive `undefined`. */
  takesInput: boolean;
  segments: ReadonlyArray<{ literal: string } | { param: string }>;
  /**
   * A valid input, the first of its input schema's `.meta({ examples })`, path parameters left
   * out: the OpenAPI document's request body example (what Swagger UI's "Try it out" sends).
   */
  example: Record<string, unknown> | undefined;
}

/** One procedure and everything the host needs to know to serve it. */
export interface Route {
  /** The tRPC path, e.g. `feed.like`. */
  path: string;
  type: 'query' | 'mutation' | 'subscription';
  procedure: AnyProcedure;
  /** Its meta: the route policy (`RoutePolicy`) and the OpenAPI binding. */
  meta: Meta;
  /** Its input schema (the last `.input()`), e.g. for a request body the generator leaves out. */
  input: z.ZodType | undefined;
  rest: RestBinding | undefined;
}

/** A step of a procedure's run-time chain; `_type: 'output'` is the one that checks the answer. */
export type ProcedureMiddleware = ((opts: { next: () => Promise<unknown> }) => Promise<unknown>) & {
  _type?: string;
};

/**
 * A procedure's middleware chain and output schema as tRPC keeps them, for the output check
 * (`output-check.ts`), which swaps the `output` step. The chain is tRPC's own array: changes to
 * it change how the procedure runs.
 */
export const pipelineOf = (procedure: AnyProcedure) =>
  procedure._def as unknown as { middlewares: ProcedureMiddleware[]; output?: OutputSchema };

/** An output schema, as the output check parses with it. */
export interface OutputSchema {
  safeParseAsync(value: unknown): Promise<{ success: boolean; data?: unknown; error?: unknown }>;
}

/** A route served over REST. */
export type RestRoute = Route & { rest: RestBinding };

function restBindingOf(procedure: AnyProcedure, meta: Meta): RestBinding | undefined {
  if (!meta.openapi || meta.openapi.enabled === false) return undefined;
  const template = meta.openapi.path.replace(/\/+$/, '') || '/';
  const inputs = procedure._def.inputs as Array<{
    _zod?: { def?: { type?: string } };
    meta?: () => { examples?: unknown[] } | undefined;
  }>;
  const example = inputs.at(-1)?.meta?.()?.examples?.[0] as Record<string, unknown> | undefined;
  return {
    method: meta.openapi.method,
    template,
    successStatus: meta.successStatus ?? 200,
    takesInput: !inputs.every((schema) => schema._zod?.def?.type === 'void'),
    segments: template
      .split('/')
      .filter(Boolean)
      .map((part) => (/^\{.+\}$/.test(part) ? { param: part.slice(1, -1) } : { literal: part })),
    example:
      example &&
      Object.fromEntries(Object.entries(example).filter(([key]) => !template.includes(`{${key}}`))),
  };
}

/**
 * Every procedure of a router, read once from tRPC's flat record of procedures (the only place
 * outside tRPC that reads its `_def`). The REST adapter, the limiter, the static lists, the
 * metrics labels and the OpenAPI document all read the app router's list, `routes`.
 */
export function routesOf(router: AnyRouter): Route[] {
  return Object.entries(router._def.procedures as unknown as Record<string, AnyProcedure>).map(
    ([path, procedure]) => {
      const meta = (procedure._def.meta ?? {}) as Meta;
      const rest = restBindingOf(procedure, meta);
      const input = (procedure._def.inputs as z.ZodType[]).at(-1);
      return { path, type: procedure._def.type, procedure, meta, input, rest };
    },
  );
}

export const routes: readonly Route[] = routesOf(appRouter);

export const restRoutes: readonly RestRoute[] = routes.filter(
  (route): route is RestRoute => route.rest !== undefined,
);

/** tRPC paths of every procedure, e.g. for metrics labels. */
export const procedurePaths: ReadonlySet<string> = new Set(routes.map((route) => route.path));

/** The path's segments, or undefined when it has an empty one (`/admin//usuarios`); one trailing slash is optional. */
function segmentsOf(pathname: string): string[] | undefined {
  const parts = (pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname).split('/').slice(1);
  return parts.some((part) => part === '') ? undefined : parts;
}

/** The decoded path parameters when `route` matches `parts`, else undefined. */
function paramsOf(route: RestRoute, parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  const matches = route.rest.segments.every((segment, i) => {
    const part = parts[i]!;
    if ('literal' in segment) return segment.literal === part;
    try {
      params[segment.param] = decodeURIComponent(part);
      return true;
    } catch {
      return false;
    }
  });
  return matches ? params : undefined;
}

/** Whether every segment of a URL path decodes (no `%ZZ`, no `%C0%AF`): if not, no route fits it. */
export function isDecodablePath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** A REST route with its decoded path parameters. */
export type RestMatch = { route: RestRoute; params: Record<string, string> };

/**
 * A matcher over a list of REST routes: the route for a method and URL path (trailing slash
 * optional), with its decoded path parameters. A literal segment always wins over a parameter,
 * whatever the declaration order: routes are grouped by method and number of segments and,
 * within a group, tried with more literals first and, with as many, leftmost literal first.
 */
export function restRouteMatcher(
  list: readonly RestRoute[],
): (method: string, pathname: string) => RestMatch | undefined {
  const table = new Map<string, RestRoute[]>();
  for (const route of list) {
    const key = `${route.rest.method} ${route.rest.segments.length}`;
    table.set(key, [...(table.get(key) ?? []), route]);
  }
  // More literals first; with as many, the one whose first differing segment is the literal.
  const shape = (r: RestRoute) => r.rest.segments.map((s) => ('literal' in s ? 'L' : 'P')).join('');
  const literals = (r: RestRoute) => shape(r).replace(/P/g, '').length;
  for (const group of table.values())
    group.sort((a, b) => literals(b) - literals(a) || shape(a).localeCompare(shape(b)));
  return (method, pathname) => {
    const parts = segmentsOf(pathname);
    const candidates = parts && table.get(`${method === 'HEAD' ? 'GET' : method} ${parts.length}`);
    if (!parts || !candidates) return undefined;
    for (const route of candidates) {
      const params = paramsOf(route, parts);
      if (params) return { route, params };
    }
    return undefined;
  };
}

/** The app's route for a method and URL path (see `restRouteMatcher`). */
export const matchRestRoute = restRouteMatcher(restRoutes);

/** The methods served at a URL path (HEAD with GET), for a 405's `Allow`; empty for an unknown path. */
export function allowedMethods(pathname: string): string[] {
  const parts = segmentsOf(pathname);
  if (!parts) return [];
  const methods = new Set<string>();
  for (const route of restRoutes) {
    if (route.rest.segments.length === parts.length && paramsOf(route, parts))
      methods.add(route.rest.method);
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/** A `location` template (`/post/{output.id}`) filled from a call's input and answer; undefined if a value is missing. */
export function resolveLocation(
  template: string,
  input: unknown,
  output: unknown,
): string | undefined {
  let missing = false;
  const path = template.replace(
    /\{(input|output)((?:\.\w+)+)\}/g,
    (_match, source: string, keys: string) => {
      let value: unknown = source === 'input' ? input : output;
      for (const key of keys.slice(1).split('.')) {
        value =
          typeof value === 'object' && value !== null
            ? (value as Record<string, unknown>)[key]
            : undefined;
      }
      if (typeof value !== 'string' && typeof value !== 'number') missing = true;
      return encodeURIComponent(String(value));
    },
  );
  return missing ? undefined : path;
}
