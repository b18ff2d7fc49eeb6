import { expect } from 'vitest';
import type { TestApp, TestUser } from './app';

/** A list answer as the cursor tests read it. */
export interface ListBody<Item> {
  data: Item[];
  meta: { page: number; nextCursor: string | null; hasNextPage: boolean };
}

/** GET `path` (with `query`) as `user` over REST: 200 asserted. */
export async function restPage<Item>(
  t: TestApp,
  user: TestUser,
  path: string,
  query: Record<string, string | number>,
): Promise<ListBody<Item>> {
  const res = await t.request.get(path).query(query).set(user.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ListBody<Item>;
}

/** The same over /trpc, `cursor` in the input as tRPC's useInfiniteQuery passes it. */
export async function trpcPage<Item>(
  t: TestApp,
  user: TestUser,
  procedure: string,
  input: Record<string, unknown>,
): Promise<ListBody<Item>> {
  const encoded = encodeURIComponent(JSON.stringify(input));
  const res = await t.request.get(`/trpc/${procedure}?input=${encoded}`).set(user.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { result: { data: ListBody<Item> } }).result.data;
}

/**
 * Follows `nextCursor` from the first page to the last, calling `between` after each page (to
 * create and delete items while the reader scrolls). Returns every item seen, in order.
 */
export async function followCursors<Item>(
  page: (cursor: string | undefined) => Promise<ListBody<Item>>,
  between: (pageNumber: number) => Promise<unknown> = async () => {},
): Promise<Item[]> {
  const seen: Item[] = [];
  let cursor: string | undefined;
  for (let n = 1; n < 100; n++) {
    const body = await page(cursor);
    expect(body.meta.page).toBe(n);
    seen.push(...body.data);
    if (body.meta.nextCursor === null) {
      expect(body.meta.hasNextPage).toBe(false);
      return seen;
    }
    cursor = body.meta.nextCursor;
    await between(n);
  }
  throw new Error('the cursors never reached a last page');
}

/** The cursor with one character of its signature changed (the last one: unused bits too). */
export const tampered = (cursor: string) =>
  cursor.slice(0, -1) + (cursor.endsWith('A') ? 'B' : 'A');
/** The cursor with its position changed and its signature kept. */
export const moved = (cursor: string) => {
  const [body, signature] = cursor.split('.');
  const [page, ...key] = JSON.parse(Buffer.from(body!, 'base64url').toString()) as unknown[];
  return `${Buffer.from(JSON.stringify([Number(page) + 1, ...key])).toString('base64url')}.${signature}`;
};
