import {
  needs,
  postgresOnly,
  redis,
  TEST_TIMEOUTS,
  TEST_WORKER_EXEC_ARGV,
} from '@campus/vitest-config';
import { defineConfig } from 'vitest/config';
import {
  canRunPrivateCluster,
  composeCommand,
  pgbouncerInstalled,
  redisServerInstalled,
} from './test/support/machine';

/**
 * Every suite runs on PGlite; with TEST_DATABASE_URL set, once more on that PostgreSQL server
 * (each test file gets a database of its own there). A test that needs more than that says so
 * with a tag declared below, which skips it where that is missing; the skip report at the end of
 * the run names each test that ran nowhere and why, and fails the run when CI provided what it
 * needed (TEST_REQUIRE_TAGS, tooling/vitest).
 */
const backends = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

export default defineConfig({
  test: {
    ...TEST_TIMEOUTS,
    execArgv: TEST_WORKER_EXEC_ARGV,
    reporters: ['default', '@campus/vitest-config/skip-reporter'],
    projects: backends.map((backend) => ({
      extends: true,
      test: {
        name: backend,
        env: { TEST_BACKEND: backend },
        globalSetup: ['test/global-setup.ts'],
        // Files are independent (a database each, ports from the OS) and wait much of their time
        // on the database and on child processes, so three run at once on PGlite (vitest's
        // default is one fewer than the cores: 1 here). On PostgreSQL one at a time: a file may
        // hold 40 of the server's 100 connections (two instances of 20), and two such files at
        // once ran out of them. Projects of different maxWorkers run one after the other.
        maxWorkers: backend === 'pglite' ? 3 : 1,
        // A PGlite worker keeps its modules from one file to the next (each file still has a
        // database and an app of its own): importing the app cost about 3 s of CPU per file, and
        // the project's 107 files took 3 min 56 s and 7 min of CPU instead of about 7 and 14.
        // The PostgreSQL project's time is its waits (processes, timeouts), not its imports: it
        // ran no faster that way (7 min against 6.5), so its files keep a fresh worker each.
        isolate: backend === 'postgres',
        sequence: { groupOrder: backend === 'pglite' ? 0 : 1 },
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
