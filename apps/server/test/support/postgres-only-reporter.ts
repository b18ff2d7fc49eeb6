import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';

/** The tag of tests that prove something only PostgreSQL can show (see vitest.config.ts). */
export const POSTGRES_ONLY = 'postgres-only';

const WHY =
  'they prove the rules that must hold under concurrency (many simultaneous requests racing on ' +
  'row locks and constraints, several server processes sharing one database), which embedded ' +
  'PGlite, one connection serving one statement at a time, cannot exercise';

/**
 * Says at the end of the run how many `postgres-only` tests never ran, and why; with
 * REQUIRE_POSTGRES_SUITES=1 (CI, when PostgreSQL answers) such a test fails the run.
 */
export default class PostgresOnlyReporter implements Reporter {
  private filtered = false;

  onInit(vitest: Vitest) {
    // A run narrowed by name (-t) skips tests for that reason; it proves nothing either way.
    this.filtered = Boolean(vitest.config.testNamePattern);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const tagged = testModules.flatMap((module) =>
      [...module.children.allTests()].filter((test) => test.tags.includes(POSTGRES_ONLY)),
    );
    if (tagged.length === 0 || this.filtered) return;
    const key = (test: TestCase) => `${test.module.relativeModuleId} > ${test.fullName}`;
    const ran = new Set(tagged.filter((test) => test.result().state !== 'skipped').map(key));
    const never = [...new Set(tagged.map(key))].filter((name) => !ran.has(name));
    const log = (line: string) => process.stdout.write(`${line}\n`);
    if (never.length === 0) {
      log(
        `PostgreSQL-only tests: all ${ran.size} ran on PostgreSQL (${tagged.length - ran.size} skipped on PGlite, as they must be).`,
      );
      return;
    }
    const files = [...new Set(never.map((name) => name.split(' > ')[0]))];
    const required = process.env.REQUIRE_POSTGRES_SUITES === '1';
    const rule = '!'.repeat(100);
    log(rule);
    log(`!! ${never.length} PostgreSQL-only tests were SKIPPED: ${WHY}.`);
    log(`!! Files: ${files.join(', ')}`);
    log(
      '!! This run proves none of those rules. Run them with TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (each file gets its own database there).',
    );
    if (required) {
      log('!! REQUIRE_POSTGRES_SUITES=1: the run fails. Skipped:');
      for (const name of never) log(`!!   ${name}`);
      process.exitCode = 1;
    }
    log(rule);
  }
}
