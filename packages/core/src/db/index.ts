export * from './client';
export * as schema from './schema';
export * from './job-queue';
export * from './health';
export type { PoolUsage } from './pool-usage';
export type { StatementObserver } from './deadline';
