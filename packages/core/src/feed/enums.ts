/** The kinds of post: plain values, importable by the browser (no drizzle), used by the table and the schemas. */
export const POST_TYPES = ['GENERAL', 'EVENT'] as const;
