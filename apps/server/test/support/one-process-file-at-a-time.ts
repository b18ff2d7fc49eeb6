import postgres from 'postgres';
import { afterAll, beforeAll } from 'vitest';

/*
 * The setup file of the postgres-processes project (vitest.config.ts): its files run beside the
 * other projects' files, but never two of them at once. Each starts server processes with a
 * production pool apiece, and two such files together could exhaust PostgreSQL's 100
 * connections. The file holds a session advisory lock on the test server's own database while its
 * tests run; the next one waits for it there (a lock is per database: the app's own locks, in
 * the test databases, never meet it).
 */

const [LOCK_CLASS, LOCK_ID] = [0x63616d70, 1]; // "camp", the process files
/** A file may wait for every other process file to finish first (about 3 min on this machine). */
const WAIT_FOR_TURN_MS = 20 * 60_000;

let session: postgres.Sql | undefined;

beforeAll(async () => {
  session = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
  await session`select pg_advisory_lock(${LOCK_CLASS}, ${LOCK_ID})`;
}, WAIT_FOR_TURN_MS);

// Ending the session releases its lock, also when the file failed.
afterAll(() => session?.end());
