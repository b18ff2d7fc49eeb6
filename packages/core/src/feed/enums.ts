/** The kinds of post: plain values, importable by the browser (no drizzle), used by the table and the schemas. */
export const POST_TYPES = ['GENERAL', 'EVENT'] as const;

/** What can be reported and hidden: a post or a comment (the queue's `tipo`). */
export const MODERATION_TARGETS = ['POST', 'COMENTARIO'] as const;
export type ModerationTarget = (typeof MODERATION_TARGETS)[number];
