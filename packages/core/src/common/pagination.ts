import { z } from 'zod';

/**
 * Query-string pagination. Values arrive as strings over REST and as numbers over tRPC; both are
 * accepted, anything that is not a whole number in range is a 400. Only a string is read as a
 * number: `true`, `[]` or `null` sent as JSON over /trpc are refused, as over REST (`z.coerce`
 * would have read `true` as 1).
 */
const wholeNumber = (min: number, max: number, fallback: number) =>
  // Typed by what a tRPC caller writes (a number, or nothing for the default); REST's text is read too.
  z.preprocess<unknown, z.ZodDefault<z.ZodNumber>, number | undefined>(
    (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value),
    z
      .number({ error: 'deve ser um número' })
      .int('deve ser um número inteiro')
      .min(min, `deve ser no mínimo ${min}`)
      .max(max, `deve ser no máximo ${max}`)
      .default(fallback),
  );

export const pageQuery = (maxLimit: number, defaultLimit = 10) =>
  z.object({
    page: wholeNumber(1, 1_000_000, 1),
    limit: wholeNumber(1, maxLimit, defaultLimit),
  });

/** `true`/`false` as JSON over /trpc, or as query-string text over REST (list filters). */
export const queryFlag = (field: string) =>
  z.preprocess<unknown, z.ZodBoolean, boolean>(
    (value: unknown) => (value === 'true' ? true : value === 'false' ? false : value),
    z.boolean({ error: `${field} must be true or false` }),
  );

export type PageQuery = z.infer<ReturnType<typeof pageQuery>>;

/**
 * `page` and `limit`, and `cursor`: the opaque `meta.nextCursor` of the previous answer
 * (docs/contract/cursors.md). With a cursor the page follows where that answer ended, whatever
 * was created or deleted since, and `page` is ignored (the cursor knows its page's number).
 * tRPC's `useInfiniteQuery` passes it as `cursor`.
 */
export const cursorPageQuery = (maxLimit: number, defaultLimit = 10) =>
  pageQuery(maxLimit, defaultLimit).extend({
    cursor: z
      .string()
      .min(1, 'cursor must not be empty')
      .max(512, 'cursor is too long')
      .optional()
      .describe("Where to continue: the previous answer's meta.nextCursor (opaque)"),
  });
export type CursorPageQuery = z.infer<ReturnType<typeof cursorPageQuery>>;

export function pageOffset({ page, limit }: PageQuery): number {
  return (page - 1) * limit;
}

/** `meta` of the feed and match lists. */
export const listMetaSchema = z
  .object({
    page: z.number().int(),
    limit: z.number().int(),
    totalCount: z.number().int(),
    totalPages: z.number().int(),
    hasNextPage: z.boolean(),
    hasPrevPage: z.boolean(),
  })
  .meta({ id: 'PageMeta' });

/** `meta` of the lists that take a cursor: the page's meta and where the next page starts. */
export const cursorListMetaSchema = listMetaSchema
  .extend({
    nextCursor: z
      .string()
      .nullable()
      .describe('Pass as `cursor` for the next page; null on the last page'),
  })
  .meta({ id: 'CursorPageMeta' });
export type CursorListMeta = z.infer<typeof cursorListMetaSchema>;

/** `{ data, meta }` of a page of `item`s, with `meta.nextCursor`. */
export const cursorListResponse = <Item extends z.ZodType>(item: Item) =>
  z.object({ data: z.array(item), meta: cursorListMetaSchema });

/** `{ data, meta }` of a page of `item`s. */
export const listResponse = <Item extends z.ZodType>(item: Item) =>
  z.object({ data: z.array(item), meta: listMetaSchema });

export function listMeta({ page, limit }: PageQuery, totalCount: number) {
  const totalPages = Math.ceil(totalCount / limit);
  return {
    page,
    limit,
    totalCount,
    totalPages,
    hasNextPage: page < totalPages,
    hasPrevPage: page > 1,
  };
}

/** `metadados` of the Portuguese lists (administration, examples). */
export const metadadosSchema = z
  .object({
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  })
  .meta({ id: 'Metadados' });

/** `{ dados, metadados }` of a page of `item`s, in the Portuguese lists. */
export const dadosListResponse = <Item extends z.ZodType>(item: Item) =>
  z.object({ dados: z.array(item), metadados: metadadosSchema });

export function metadados({ page, limit }: PageQuery, total: number) {
  return { page, limit, total, totalPages: Math.ceil(total / limit) };
}
