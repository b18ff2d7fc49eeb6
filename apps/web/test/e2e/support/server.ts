import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
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
export async function startE2eServer() {
  const dataDir = mkdtempSync(join(tmpdir(), 'campus-web-e2e-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'silent',
    PASSWORD_HASH_COST: '12',
    ACCESS_TOKEN_TTL: '5',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  const { server, shutdown } = await startServer(config, createLogger('silent'));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async stop() {
      await shutdown();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
