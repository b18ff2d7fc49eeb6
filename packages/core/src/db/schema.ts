/** The whole database schema, for drizzle-kit and for the typed client. */
export * from '../users/table';
export * from '../auth/table';
export * from '../examples/table';
export * from '../feed/table';
export * from '../matches/table';
export * from './row-counts';
export * from '../rate-limits/table';
export * from '../idempotency/table';
export * from '../notifications/table';
export * from '../notifications/push/table';
export * from '../groups/table';
export * from '../moderation/table';
export * from '../mail/table';
export * from '../accounts/table';
export * from '../events/table';
export * from '../media/table';
