import { initTRPC } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setOutputCheck } from './output-check';
import { routes, routesOf } from './routes';

const t = initTRPC.create();
let answer: unknown;
const testRouter = t.router({
  post: t.procedure
    .output(z.object({ id: z.string(), tags: z.array(z.string()) }))
    .query(() => answer as { id: string; tags: string[] }),
});
const testRoutes = routesOf(testRouter);
const call = () => t.createCallerFactory(testRouter)({}).post();

describe('output checks', () => {
  it('parse strips unknown keys; off sends the answer as it is', async () => {
    answer = { id: 'a', tags: [], secret: 'x' };
    setOutputCheck(testRoutes, { mode: 'parse' });
    expect(await call()).toEqual({ id: 'a', tags: [] });
    setOutputCheck(testRoutes, { mode: 'off' });
    expect(await call()).toEqual({ id: 'a', tags: [], secret: 'x' });
  });

  it('strict refuses an extra key, even nested, or an invalid answer, and says which procedure', async () => {
    const seen: string[] = [];
    setOutputCheck(testRoutes, { mode: 'strict', onMismatch: (path) => seen.push(path) });
    answer = { id: 'a', tags: ['x'] };
    expect(await call()).toEqual({ id: 'a', tags: ['x'] });
    for (const wrong of [
      { id: 'a', tags: [], secret: 'x' },
      { id: 1, tags: [] },
    ]) {
      answer = wrong;
      await expect(call()).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
    }
    expect(seen).toEqual(['post', 'post']);
  });

  it('every query and mutation of the app declares an output schema, so strict checks every one', () => {
    const unchecked = routes
      .filter((route) => route.type !== 'subscription')
      .filter((route) => !(route.procedure._def as { output?: unknown }).output)
      .map((route) => route.path);
    expect(unchecked).toEqual([]);
  });
});
