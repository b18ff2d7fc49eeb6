import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../../server/src/config';
import { createLogger } from '../../../../server/src/logger';
import { startServer } from '../../../../server/src/start';

export const ADMIN = { email: 'admin@campus.test', password: 'admin-e2e-senha-123' };

/**
 * The real server, as `pnpm start` runs it (migrations, admin account, the built web app at `/`),
 * on embedded PGlite in a temporary DATA_DIR, on a free port. Access tokens live 5 seconds so
 * that every flow also goes through the transparent token refresh.
 */
/** A port free at this moment (for a server that will listen on it later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * E-mail goes to SMTP on `smtpPort`, where a test that reads mail runs its own SMTP server (while
 * none listens, messages wait in the outbox). Links point at the server's own address.
 */
export async function startE2eServer(smtpPort: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'campus-web-e2e-'));
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: 'Campus <nao-responda@campus.test>',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    RATE_LIMIT: 'off',
    SHUTDOWN_DELAY: '0',
    // A response a test left unread holds its handler: cut it after 2 s, not the default 10,
    // which outlasts vitest's 10 s for the teardown (and kept the run from exiting).
    SHUTDOWN_TIMEOUT: '2',
    LOG_LEVEL: 'silent',
    PASSWORD_HASH_COST: '12',
    // A call gets a minute, not the default 10 s: a machine busy with every other suite slows the
    // pages without failing them.
    REQUEST_TIMEOUT_MS: '60000',
    ACCESS_TOKEN_TTL: '5',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  const { shutdown } = await startServer(config, createLogger('silent'));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async stop() {
      await shutdown();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
