import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { listMeta, pageOffset, pageQuery, queryFlag } from './pagination';

describe('pagination', () => {
  const schema = pageQuery(50);

  it('coerces query strings and applies defaults', () => {
    expect(schema.parse({})).toEqual({ page: 1, limit: 10 });
    expect(schema.parse({ page: '3', limit: '50' })).toEqual({ page: 3, limit: 50 });
  });

  it("is typed as a tRPC caller writes it (numbers, booleans), the output's types unchanged", () => {
    expectTypeOf<z.input<typeof schema>>().toEqualTypeOf<{ page?: number; limit?: number }>();
    expectTypeOf<z.output<typeof schema>>().toEqualTypeOf<{ page: number; limit: number }>();
    expectTypeOf<z.input<ReturnType<typeof queryFlag>>>().toEqualTypeOf<boolean>();
    expect(queryFlag('mine').parse('true')).toBe(true);
  });

  it.each([
    { limit: '51' },
    { limit: '0' },
    { page: '0' },
    { page: '-2' },
    { page: 'x' },
    { limit: '2.5' },
  ])('rejects %o', (input) => expect(schema.safeParse(input).success).toBe(false));

  it('computes meta at the first, a middle, the last page and past the end', () => {
    expect(listMeta({ page: 1, limit: 10 }, 25)).toEqual({
      page: 1,
      limit: 10,
      totalCount: 25,
      totalPages: 3,
      hasNextPage: true,
      hasPrevPage: false,
    });
    expect(listMeta({ page: 2, limit: 10 }, 25)).toMatchObject({
      hasNextPage: true,
      hasPrevPage: true,
    });
    expect(listMeta({ page: 3, limit: 10 }, 25)).toMatchObject({
      hasNextPage: false,
      hasPrevPage: true,
    });
    expect(listMeta({ page: 9, limit: 10 }, 25)).toMatchObject({
      totalPages: 3,
      hasNextPage: false,
      hasPrevPage: true,
    });
    expect(listMeta({ page: 1, limit: 10 }, 0)).toMatchObject({
      totalPages: 0,
      hasNextPage: false,
    });
    expect(pageOffset({ page: 3, limit: 20 })).toBe(40);
  });
});
