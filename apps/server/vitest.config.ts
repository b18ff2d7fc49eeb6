import {
  needs,
  postgresOnly,
  redis,
  TEST_TIMEOUTS,
  TEST_WORKER_EXEC_ARGV,
} from '@campus/vitest-config';
import { configDefaults, defineConfig } from 'vitest/config';
import type { TestBackend } from '@campus/core/testing';
import {
  canRunPrivateCluster,
  composeCommand,
  pgbouncerInstalled,
  redisServerInstalled,
} from './test/support/machine';
import { processFiles } from './test/support/process-files';

/**
 * Every suite runs on PGlite; with TEST_DATABASE_URL set, once more on that PostgreSQL server
 * (each test file gets a database of its own there). A test that needs more than that says so
 * with a tag declared below, which skips it where that is missing; the skip report at the end of
 * the run names each test that ran nowhere and why, and fails the run when CI provided what it
 * needed (TEST_REQUIRE_TAGS, tooling/vitest).
 */
const backends: TestBackend[] = [
  'pglite',
  ...(process.env.TEST_DATABASE_URL ? ['postgres' as const] : []),
];

/**
 * The projects, side by side, three files at a time: every PGlite file, and every PostgreSQL
 * file, each with a database of its own. The PGlite files spend their time on the CPU and the
 * PostgreSQL ones much of theirs waiting, so together they fill both cores. A server in the test's
 * own process has a pool of TEST_POOL_MAX (a few connections a file); the PostgreSQL files that
 * start server processes (test/support/process-files.ts) have a project of their own, whose files
 * take turns (test/support/one-process-file-at-a-time.ts): each process holds a production pool,
 * and two such files at once could exhaust the server's 100 connections.
 */
interface Project {
  name: string;
  backend: TestBackend;
  files: 'all' | 'in-process' | 'processes';
}
const projects = backends.flatMap((backend): Project[] =>
  backend === 'pglite'
    ? [{ name: 'pglite', backend, files: 'all' }]
    : [
        { name: 'postgres', backend, files: 'in-process' },
        { name: 'postgres-processes', backend, files: 'processes' },
      ],
);

export default defineConfig({
  test: {
    ...TEST_TIMEOUTS,
    execArgv: TEST_WORKER_EXEC_ARGV,
    reporters: ['default', '@campus/vitest-config/skip-reporter'],
    projects: projects.map(({ name, backend, files }) => ({
      extends: true,
      test: {
        name,
        env: { TEST_BACKEND: backend, ...(files === 'processes' ? { TEST_PROCESSES: '1' } : {}) },
        ...(files === 'in-process'
          ? { exclude: [...configDefaults.exclude, ...processFiles] }
          : {}),
        ...(files === 'processes'
          ? { include: processFiles, setupFiles: ['test/support/one-process-file-at-a-time.ts'] }
          : {}),
        globalSetup: ['test/global-setup.ts'],
        // vitest's default is one fewer than the cores: 1 here.
        maxWorkers: 3,
        // A worker keeps its modules from one file to the next (each file still has a database
        // and an app of its own): importing the app costs about 3 s of CPU per file, and the
        // PGlite project's 107 files took 3 min 56 s and 7 min of CPU instead of about 7 and 14.
        // The files that start processes keep a fresh worker each: their time is their waits.
        isolate: files === 'processes',
        tags: needs(
          postgresOnly(backend === 'postgres'),
          {
            name: 'pglite-only',
            description:
              'runs in the PGlite project only: it tests embedded PGlite, or brings a database of its own',
            available: backend === 'pglite',
          },
          redis(),
          {
            name: 'async-context',
            description:
              'needs Node 22 or later: a request past its deadline calls its database work back only where AsyncLocalStorage is cheap (docs/operations.md)',
            available: Number(process.versions.node.split('.')[0]) >= 22,
          },
          {
            name: 'private-cluster',
            description:
              'stops and starts a PostgreSQL cluster of its own: needs root and Debian’s PostgreSQL server binaries (apt-get install postgresql)',
            available: canRunPrivateCluster,
          },
          {
            name: 'pgbouncer',
            description:
              'starts Debian’s PgBouncer in transaction mode (apt-get install pgbouncer)',
            available: pgbouncerInstalled,
          },
          {
            name: 'redis-server',
            description: 'starts a Redis server of its own (apt-get install redis-server)',
            available: redisServerInstalled,
          },
          {
            name: 'docker-compose',
            description: 'needs docker compose or docker-compose (apt-get install docker-compose)',
            available: Boolean(composeCommand),
          },
        ),
      },
    })),
  },
});
