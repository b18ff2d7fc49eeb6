import { createHmac, timingSafeEqual } from 'node:crypto';
import { SQL, sql, type Placeholder } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { AppError } from '../errors';
import { qualified } from './qualified';
import { listMeta, type CursorListMeta, type CursorPageQuery } from '../common/pagination';

/*
 * Cursors of the lists (docs/contract/cursors.md): `<position>.<mac>`, both base64url. The
 * position is the next page's number and the sort key of the last item shown (keyset, not
 * OFFSET: the 1,000th page costs what the first does, and an item created or deleted between
 * two requests moves nothing). The MAC (HMAC-SHA256 with a key derived from the server's secret,
 * 128 bits kept) covers the position and the cursor's scope: the list, its filters and the
 * reader. A cursor altered, made by another server, or sent with another list, other filters or
 * by another user is a 400 INVALID_CURSOR, and the key values of an accepted one are our own.
 */

/** Where a page starts: its number, and after which sort key (none: by OFFSET, the first pages). */
export interface ListPosition {
  page: number;
  after: string[] | undefined;
  offset: number;
}

const invalidCursor = () =>
  new AppError(
    'BAD_REQUEST',
    'cursor is malformed, altered, or was made for another list, other filters or another user',
    { reason: 'INVALID_CURSOR', issues: [{ path: 'cursor', message: 'invalid cursor' }] },
  );

const MAC_BYTES = 16;

export function createCursors(secret: string) {
  const key = createHmac('sha256', secret).update('campus list cursors v1').digest();
  const mac = (scope: string, body: string) =>
    createHmac('sha256', key)
      .update(scope)
      .update('\n')
      .update(body)
      .digest()
      .subarray(0, MAC_BYTES);

  function decode(scope: string, cursor: string): { page: number; after: string[] } {
    const [body, signature, extra] = cursor.split('.');
    if (!body || !signature || extra !== undefined) throw invalidCursor();
    // Compared as text: base64url's last character carries unused bits that decoding ignores.
    const given = Buffer.from(signature);
    const expected = Buffer.from(mac(scope, body).toString('base64url'));
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw invalidCursor();
    // Signed by us: the shape is ours.
    const [page, ...after] = JSON.parse(Buffer.from(body, 'base64url').toString()) as [
      number,
      ...string[],
    ];
    return { page, after };
  }

  return {
    encode(scope: string, page: number, after: readonly string[]): string {
      const body = Buffer.from(JSON.stringify([page, ...after])).toString('base64url');
      return `${body}.${mac(scope, body).toString('base64url')}`;
    },

    /** The page a query asks for: from its cursor when it has one, else `page` by OFFSET. */
    positionOf(scope: string, query: CursorPageQuery): ListPosition {
      if (query.cursor === undefined)
        return { page: query.page, after: undefined, offset: (query.page - 1) * query.limit };
      const { page, after } = decode(scope, query.cursor);
      return { page, after, offset: 0 };
    },

    /**
     * A page's answer from `limit + 1` rows (the extra one says whether a next page exists) and
     * the total. `meta.nextCursor` continues after the page's last row, whether the page was
     * asked by number or by cursor; with a cursor `hasNextPage` says whether rows follow.
     */
    page<Row, Item>(
      scope: string,
      position: ListPosition,
      limit: number,
      rows: Row[],
      total: number,
      keyOf: (row: Row) => readonly string[],
      toItem: (row: Row) => Item,
    ): { data: Item[]; meta: CursorListMeta } {
      const more = rows.length > limit;
      const shown = more ? rows.slice(0, limit) : rows;
      const meta = listMeta({ page: position.page, limit }, total);
      return {
        data: shown.map(toItem),
        meta: {
          ...meta,
          ...(position.after ? { hasNextPage: more, hasPrevPage: true } : {}),
          nextCursor: more ? this.encode(scope, position.page + 1, keyOf(shown.at(-1)!)) : null,
        },
      };
    },
  };
}
export type Cursors = ReturnType<typeof createCursors>;

/** A list's scope: what its cursors are only valid for (list name, filters, reader). */
export const cursorScope = (list: string, readerId: string, ...filters: unknown[]) =>
  JSON.stringify([list, readerId, ...filters]);

/**
 * A timestamp as a sort key: whole microseconds since 1970 (the column's precision; a JS Date
 * keeps milliseconds only), and back as a statement value.
 */
export const microsOf = (column: AnyPgColumn | SQL) =>
  sql<string>`(extract(epoch from ${column instanceof SQL ? column : qualified(column)}) * 1000000)::bigint::text`;
export const timestampOf = (micros: SQL | Placeholder) =>
  sql`('epoch'::timestamptz + ${micros}::bigint * interval '1 microsecond')`;
