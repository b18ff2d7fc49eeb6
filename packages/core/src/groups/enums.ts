/** Kinds of group and join-request statuses: plain values, importable by the browser (no drizzle), used by the table and the schemas. */
export const GROUP_TYPES = ['ATHLETIC', 'AMATEUR', 'ACADEMIC', 'OTHER'] as const;
/** `WITHDRAWN` requests are deleted, not kept: only decisions stay as history. */
export const JOIN_REQUEST_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
