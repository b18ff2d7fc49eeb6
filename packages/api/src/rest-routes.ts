import type { AnyProcedure } from '@trpc/server';
import { appRouter } from './root';
import type { Meta } from './trpc';

/** A REST operation: a procedure with OpenAPI meta, at its documented method and path. */
export interface RestRoute {
  method: string;
  /** As documented, e.g. `/post/{id}/like`. */
  template: string;
  /** The tRPC path, e.g. `feed.like`. */
  procedurePath: string;
  procedure: AnyProcedure;
  successStatus: number;
  /** False for procedures declared with `z.void()` input: they receive `undefined`. */
  takesInput: boolean;
  segments: ReadonlyArray<{ literal: string } | { param: string }>;
}

const procedures = appRouter._def.procedures as unknown as Record<string, AnyProcedure>;

export const restRoutes: readonly RestRoute[] = Object.entries(procedures).flatMap(([procedurePath, procedure]) => {
  const meta = procedure._def.meta as Meta | undefined;
  if (!meta?.openapi || meta.openapi.enabled === false) return [];
  const template = meta.openapi.path.replace(/\/+$/, '') || '/';
  const inputs = procedure._def.inputs as Array<{ _zod?: { def?: { type?: string } } }>;
  return [
    {
      method: meta.openapi.method,
      template,
      procedurePath,
      procedure,
      successStatus: meta.successStatus ?? 200,
      takesInput: !inputs.every((schema) => schema._zod?.def?.type === 'void'),
      segments: template
        .split('/')
        .filter(Boolean)
        .map((part) => (/^\{.+\}$/.test(part) ? { param: part.slice(1, -1) } : { literal: part })),
    },
  ];
});

/** Routes grouped by method and number of segments; within a group, more literals first. */
const table = new Map<string, RestRoute[]>();
for (const route of restRoutes) {
  const key = `${route.method} ${route.segments.length}`;
  table.set(key, [...(table.get(key) ?? []), route]);
}
for (const routes of table.values()) {
  const literals = (r: RestRoute) => r.segments.filter((s) => 'literal' in s).length;
  routes.sort((a, b) => literals(b) - literals(a));
}

/**
 * The route for a method and URL path (trailing slash optional), with its decoded path
 * parameters. A literal segment always wins over a parameter, whatever the declaration order.
 */
export function matchRestRoute(
  method: string,
  pathname: string,
): { route: RestRoute; params: Record<string, string> } | undefined {
  // One trailing slash is optional; any other empty segment (`/admin//usuarios`) matches nothing.
  const parts = (pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname).split('/').slice(1);
  if (parts.some((part) => part === '')) return undefined;
  const candidates = table.get(`${method === 'HEAD' ? 'GET' : method} ${parts.length}`);
  if (!candidates) return undefined;
  for (const route of candidates) {
    const params: Record<string, string> = {};
    const matches = route.segments.every((segment, i) => {
      const part = parts[i]!;
      if ('literal' in segment) return segment.literal === part;
      try {
        params[segment.param] = decodeURIComponent(part);
        return true;
      } catch {
        return false;
      }
    });
    if (matches) return { route, params };
  }
  return undefined;
}
