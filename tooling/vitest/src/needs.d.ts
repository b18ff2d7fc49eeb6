import type { TestTagDefinition } from 'vitest/config';

/**
 * What a test needs from the machine, as a vitest tag: `{ tags: ['redis'] }` on a test or a
 * describe block skips it where Redis is absent, and the tag's description is the reason the skip
 * report (./skip-reporter.ts) prints. A skip is never written as `skipIf(!process.env…)` in a
 * test file: a workspace's vitest.config.ts declares its tags with `needs`.
 */
export interface Need {
  name: string;
  /** Why the test needs it and how to provide it: printed beside each test skipped for it. */
  description: string;
  available: boolean;
}

export declare const needs: (...list: Need[]) => TestTagDefinition[];

/** The tag of tests that prove what only PostgreSQL can show. */
export declare const POSTGRES_ONLY = 'postgres-only';
export declare const postgresOnly: (available: boolean) => Need;
export declare const redis: () => Need;

/**
 * The tags CI provides the environment for (comma-separated in TEST_REQUIRE_TAGS; `.ci/run` sets
 * it from what answers on the machine): a test skipped for one of them fails the run.
 * REQUIRE_POSTGRES_SUITES=1 is the older spelling of `postgres-only`.
 */
export declare function requiredTags(env?: NodeJS.ProcessEnv): Set<string>;

/**
 * Node's arguments for a workspace's test workers (vitest's `execArgv`): V8's baseline WebAssembly
 * compiler only, which runs embedded PGlite with less CPU in a process that lives for minutes.
 */
export declare const TEST_WORKER_EXEC_ARGV: string[];

/**
 * vitest's `testTimeout` and `hookTimeout` for the workspaces whose tests touch a database: long
 * enough that a loaded machine slows a test without failing it, short enough to end a hang.
 */
export declare const TEST_TIMEOUTS: { testTimeout: number; hookTimeout: number };
