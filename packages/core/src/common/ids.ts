const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID string in canonical form (any version). */
export const isUuid = (value: string): boolean => UUID.test(value);
