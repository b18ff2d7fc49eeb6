// Plain JavaScript, its types in needs.d.ts: the workspaces' vitest.config.ts import it, and
// Node 20 loads a config's workspace imports as they are, without compiling them.

// `skip` only where it is missing: a tag that says `skip: false` would undo another tag's skip.
export const needs = (...list) =>
  list.map(({ name, description, available }) => ({
    name,
    description,
    ...(available ? {} : { skip: true }),
  }));

export const POSTGRES_ONLY = 'postgres-only';

export const postgresOnly = (available) => ({
  name: POSTGRES_ONLY,
  description:
    'needs PostgreSQL (TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test): concurrency ' +
    'under real connections, several processes on one database, or PostgreSQL itself, which ' +
    'embedded PGlite (one connection, one statement at a time) cannot show',
  available,
});

export const redis = () => ({
  name: 'redis',
  description: 'needs Redis at TEST_REDIS_URL (e.g. redis://127.0.0.1:6379)',
  available: Boolean(process.env.TEST_REDIS_URL),
});

export function requiredTags(env = process.env) {
  const tags = new Set(
    (env.TEST_REQUIRE_TAGS ?? '')
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean),
  );
  if (env.REQUIRE_POSTGRES_SUITES === '1') tags.add(POSTGRES_ONLY);
  return tags;
}

// PGlite is PostgreSQL built to 9 MB of WebAssembly. A test worker lives for minutes at most, and
// in so short a process V8's optimising compiler spends more CPU on PGlite's hot functions than
// their optimised code gives back: with the baseline compiler only (Liftoff), a fresh PGlite and
// 1,200 statements took 0.8 s of CPU instead of 2.1, and the server suite 22.4 min instead of
// 23.8 (README, "Tests"). For test workers only: a server runs long enough to want the optimised
// code.
export const TEST_WORKER_EXEC_ARGV = ['--liftoff-only'];

// A test's time limit catches a test that hangs; it must not decide the outcome of one that is
// merely slow because the machine is loaded (CI runs every workspace's suite at once on two
// cores, and a core test migrating a new PostgreSQL database from four handles took over 5 s,
// vitest's default, there). Generous limits for every workspace that touches a database.
export const TEST_TIMEOUTS = { testTimeout: 30_000, hookTimeout: 60_000 };
