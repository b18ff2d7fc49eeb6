import type { Reporter, TestCase, TestModule, TestRunEndReason, Vitest } from 'vitest/node';
import { requiredTags } from './needs.js';

/** Why one run of a test was skipped: the skipping tags' names, a `ctx.skip(note)`, or nothing. */
function reasonsOf(test: TestCase): string[] {
  const result = test.result();
  if (result.state !== 'skipped') return [];
  const skipping = new Set(test.project.config.tags.filter((tag) => tag.skip).map((t) => t.name));
  const reasons: string[] = test.tags.filter((tag) => skipping.has(tag));
  if (result.note) reasons.push(`note: ${result.note}`);
  if (test.options.mode === 'todo') reasons.push('todo');
  return reasons;
}

const NO_REASON = 'no reason given';

/**
 * At the end of every run, names each test that ran nowhere (in no project) and why, from the
 * tag that skipped it (its description) or the note of `ctx.skip(note)`; tests skipped in one
 * project and run in another are counted. The run fails when a skipped test needed something CI
 * provides (TEST_REQUIRE_TAGS, see ./needs.ts), or, under CI, when a skip gives no reason.
 */
export default class SkipReporter implements Reporter {
  private filtered = false;

  onInit(vitest: Vitest) {
    // A run narrowed by name or tag skips tests for that reason; it proves nothing either way.
    this.filtered = Boolean(vitest.config.testNamePattern) || Boolean(vitest.config.tagsFilter);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, _errors: unknown, end: TestRunEndReason) {
    if (end === 'interrupted') return;
    const log = (line: string) => process.stdout.write(`${line}\n`);
    if (this.filtered) {
      log('Skip report: none (the run was filtered by name or tag).');
      return;
    }

    const runs = new Map<string, TestCase[]>();
    const descriptions = new Map<string, string>();
    for (const module of modules)
      for (const test of module.children.allTests()) {
        const key = `${module.relativeModuleId} > ${test.fullName}`;
        runs.set(key, [...(runs.get(key) ?? []), test]);
        for (const tag of test.project.config.tags)
          if (tag.description) descriptions.set(tag.name, tag.description);
      }

    const never = new Map<string, string[]>(); // reason → tests
    const elsewhere = new Map<string, number>(); // "reason in project" → count
    for (const [key, tests] of runs) {
      const skipped = tests.filter((test) => test.result().state === 'skipped');
      if (skipped.length < tests.length) {
        for (const test of skipped) {
          const label = `${reasonsOf(test).join(', ') || NO_REASON} in ${test.project.name || 'the project'}`;
          elsewhere.set(label, (elsewhere.get(label) ?? 0) + 1);
        }
        continue;
      }
      // The reasons every run shares say why it ran nowhere (a test both PGlite-only and
      // needing a private cluster ran nowhere for want of the cluster).
      const each = skipped.map(reasonsOf);
      const shared = each[0]!.filter((reason) => each.every((reasons) => reasons.includes(reason)));
      const reason = (shared.length ? shared : [...new Set(each.flat())]).join(', ') || NO_REASON;
      never.set(reason, [...(never.get(reason) ?? []), key]);
    }

    const total = [...never.values()].reduce((sum, tests) => sum + tests.length, 0);
    log(
      total
        ? `Skip report: ${total} test${total > 1 ? 's' : ''} ran nowhere in this run:`
        : `Skip report: every test ran${elsewhere.size ? ' in at least one project' : ''}.`,
    );
    const required = requiredTags();
    let failed = false;
    for (const [reason, tests] of never) {
      const names = reason.split(', ');
      const needed = names.filter((name) => required.has(name));
      const unexplained = reason === NO_REASON && Boolean(process.env.CI);
      const why = names.map((name) => descriptions.get(name) ?? name).join('; ');
      log(`  ${needed.length || unexplained ? '!! ' : ''}[${reason}] ${why}`);
      for (const test of tests) log(`      ${test}`);
      if (needed.length)
        log(`  !! this machine has ${needed.join(', ')} (TEST_REQUIRE_TAGS): they must run`);
      if (unexplained)
        log('  !! under CI every skip says why: a tag from vitest.config.ts, or ctx.skip(note)');
      failed ||= needed.length > 0 || unexplained;
    }
    for (const [label, count] of elsewhere)
      log(`  (${count} skipped as ${label}, and ran in another project)`);
    if (failed) {
      log('!! The run fails: tests were skipped that this environment must run.');
      process.exitCode = 1;
    }
  }
}
