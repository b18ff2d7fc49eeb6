import type { AddressInfo } from 'node:net';
import { createSmtpTransport } from '@campus/core';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { startTestApp } from './app';

/**
 * A real SMTP server in the test process (smtp-server), keeping every message it receives,
 * parsed (mailparser). `stop()` and `start()` take it down and bring it back on the same port,
 * as a mail server that goes away for a while.
 */
export async function startMailServer() {
  const received: ParsedMail[] = [];
  let port = 0;
  let server: SMTPServer | undefined;

  function listen(): Promise<void> {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((mail) => {
            received.push(mail);
            callback();
          })
          .catch(callback);
      },
    });
    const s = server;
    return new Promise((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }
  await listen();

  return {
    received,
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    /** The messages sent to `to`, so far. */
    to: (to: string) => received.filter((mail) => mail.to && JSON.stringify(mail.to).includes(to)),
    /** Resolves with the first message to `to` that `match` accepts, within `timeoutMs`. */
    async waitFor(
      to: string,
      match: (mail: ParsedMail) => boolean = () => true,
      timeoutMs = 15_000,
    ) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find(
          (mail) => JSON.stringify(mail.to ?? '').includes(to) && match(mail),
        );
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no e-mail to ${to} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop: () => new Promise<void>((resolve) => server!.close(() => resolve())),
    start: listen,
  };
}
export type MailServer = Awaited<ReturnType<typeof startMailServer>>;

/**
 * A test app that sends its mail, through the job queue as a server does, to an SMTP server of
 * its own (started first). Close both after: `t.close()`, `smtp.stop()`.
 */
export async function startTestAppWithMail({
  from = 'campus@campus.test',
  appUrl = 'https://campus.test',
}: { from?: string; appUrl?: string } = {}) {
  const smtp = await startMailServer();
  try {
    const mail = { transport: createSmtpTransport(smtp.url), from, appUrl };
    return { t: await startTestApp({ jobs: true, mail }), smtp };
  } catch (error) {
    await smtp.stop();
    throw error;
  }
}

/** The reset token in a password-reset e-mail's link. */
export const resetTokenOf = (mail: ParsedMail) => {
  const match = /redefinir-senha#token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
  if (!match) throw new Error(`no reset link in: ${mail.text}`);
  return match[1]!;
};
