import type { Browser } from 'playwright-core';
import { describe, inject } from 'vitest';
import { onBrowser, registerViaApi, sessionFor, uniqueStudent, type Student } from './browser';
import type { ADMIN } from './server';

export interface E2eSuite {
  /** The server the global setup started (it serves the built app). */
  baseUrl: string;
  /** Its administrator account. */
  admin: typeof ADMIN;
  /** The describe block's Chromium (launched before its tests, closed after). */
  browser: () => Browser;
  /** A new student, registered through the API (the nickname starts with `prefix`). */
  register: (prefix?: string) => Promise<Student>;
  /** A new browser profile with `student` logged in through the login page. */
  signIn: (student: Student) => ReturnType<typeof sessionFor>;
}

/**
 * A describe block of browser tests: skipped (loudly, by the global setup) where there is no
 * Chromium and skipping is allowed, otherwise given the server, its admin and one Chromium.
 */
export function describeE2e(name: string, body: (suite: E2eSuite) => void) {
  const e2e = inject('e2e');
  describe(name, { tags: ['chromium'] }, () => {
    const server = e2e.skip
      ? { baseUrl: '', admin: { email: '', password: '' } }
      : { baseUrl: e2e.baseUrl, admin: e2e.admin };
    const browser = onBrowser();
    body({
      ...server,
      browser,
      register: (prefix) => registerViaApi(server.baseUrl, uniqueStudent(prefix)),
      signIn: (student) => sessionFor(browser(), server.baseUrl, student),
    });
  });
}
