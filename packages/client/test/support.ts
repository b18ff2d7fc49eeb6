import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const repoDir = fileURLToPath(new URL('../../../', import.meta.url));
export const clientDir = join(repoDir, 'packages/client');
export const serverDir = join(repoDir, 'apps/server');

const execFileAsync = promisify(execFile);

/** Runs a command to its end; its output is in the error when it fails. */
export async function run(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  try {
    const { stdout } = await execFileAsync(file, args, {
      cwd,
      env: { ...process.env, ...env },
      maxBuffer: 32 * 1024 * 1024,
      // Killed rather than left behind when it hangs (the test's own timeout would not end it).
      timeout: 400_000,
    });
    return stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`);
  }
}

const scratchDirs: string[] = [];

/** A new folder under the system's temporary one, removed by `removeScratchDirs`. */
export function scratchDir(name: string) {
  const dir = mkdtempSync(join(tmpdir(), `campus-client-${name}-`));
  scratchDirs.push(dir);
  return dir;
}

export function removeScratchDirs() {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export const ADMIN = { email: 'admin@client.test', password: 'client-example-password' };

export interface Server {
  url: string;
  child: ChildProcess;
  output(): string;
}

/**
 * The server from source (tsx) on PGlite in a scratch folder, with an administrator, on a port
 * below Linux's ephemeral range (as the server's own process tests choose it).
 */
export async function startServer(): Promise<Server> {
  const port = 20_000 + Math.floor(Math.random() * 12_000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: scratchDir('data'),
      DATABASE_URL: '',
      JWT_SECRET: 'client-example-secret-client-example-secret',
      LOG_LEVEL: 'warn',
      RATE_LIMIT: 'off',
      // What this suite checks is the client, not the server's pace: a cheap password hash and a
      // minute per call, so that a machine busy with every other suite slows a call without
      // failing it (at the defaults, cost 17 and 10 s, a login was once answered 503 that way).
      PASSWORD_HASH_COST: '12',
      REQUEST_TIMEOUT_MS: '60000',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const server = { url: `http://127.0.0.1:${port}`, child, output: () => output };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
    const ready = await fetch(`${server.url}/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return server;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`the server was not ready in time:\n${output}`);
}
