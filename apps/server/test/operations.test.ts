import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEB_ROOT_CANDIDATES } from '../src/http/web';
import { type TestApp, onTestApp } from './support/app';
import { composeCommand } from './support/machine';
import { isReady, runServer, scratchDatabase, waitFor } from './support/process';

let t: TestApp;
onTestApp((app) => (t = app));

describe('/metrics', () => {
  it('counts requests by procedure and status, with a latency histogram', async () => {
    const user = await t.createUser();
    await t.request.get('/exemplos').set(user.auth).expect(200);
    await t.request.get('/exemplos?limit=0').set(user.auth).expect(400);
    await t.request.get('/trpc/examples.list?input=%7B%7D').set(user.auth).expect(200);
    await t.request.get('/no-such-route').expect(404);
    const res = await t.request.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.text).toMatch(
      /http_requests_total\{method="GET",route="examples\.list",status="200"\} \d+/,
    );
    expect(res.text).toMatch(
      /http_requests_total\{method="GET",route="examples\.list",status="400"\} \d+/,
    );
    expect(res.text).toMatch(
      /http_requests_total\{method="GET",route="trpc:examples\.list",status="200"\} \d+/,
    );
    expect(res.text).toMatch(
      /http_requests_total\{method="GET",route="unmatched",status="404"\} \d+/,
    );
    expect(res.text).toContain('http_request_duration_seconds_bucket');
    expect(res.text).toContain('process_cpu_seconds_total');
  });
});

// Each test starts a server process; one on a new PGlite directory migrates it before it binds
// its port, which a loaded machine can stretch past the default 30 s (as `readyServers` allows).
describe('process', { timeout: 150_000 }, () => {
  it('a bad configuration stops the start with one line naming the variable, exit 1', async () => {
    const server = runServer({ PORT: 'not-a-port' });
    expect(await server.exited).toBe(1);
    expect(server.output().trim()).toBe(
      'invalid configuration: PORT Invalid input: expected number, received NaN',
    );
  });

  it('a taken port stops the start with one line, exit 1 (it used to log "listening" and serve nothing)', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as AddressInfo).port;
    try {
      const server = runServer({
        PORT: String(port),
        DATA_DIR: mkdtempSync(join(tmpdir(), 'campus-port-')),
      });
      expect(await server.exited).toBe(1);
      const lines = server.output().trim().split('\n');
      expect(lines.at(-1)).toBe(
        `failed to start: port ${port} on 127.0.0.1 is already in use (PORT)`,
      );
      expect(server.output()).not.toMatch(/listening|\n\s+at /);
    } finally {
      holder.close();
    }
  });

  it('an unreachable database at boot stops the start with one line, exit 1', async () => {
    const server = runServer({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/campus',
      DATABASE_CONNECT_TIMEOUT_S: '1',
    });
    expect(await server.exited).toBe(1);
    expect(server.output().trim()).toMatch(
      /^failed to start: database at 127\.0\.0\.1:1 unreachable \(DATABASE_URL\): .+$/,
    );
  });

  it(
    'WEB_CONCURRENCY=2 runs two workers on one port; /metrics adds them up; SIGTERM exits 0',
    { tags: ['postgres-only'] },
    async () => {
      const database = await scratchDatabase(process.env.TEST_DATABASE_URL!);
      const server = runServer({ DATABASE_URL: database.url, WEB_CONCURRENCY: '2' });
      try {
        await waitFor(() => isReady(server), 60_000, 'ready');
        await Promise.all(Array.from({ length: 40 }, () => fetch(`${server.url}/health`)));
        const metrics = await (await fetch(`${server.url}/metrics`)).text();
        const served = Number(
          metrics.match(
            /http_requests_total\{method="GET",route="\/health",status="200"\} (\d+)/,
          )?.[1],
        );
        expect(served).toBe(40);
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      } finally {
        server.child.kill('SIGKILL');
        await database.drop();
      }
    },
  );
});

describe('in-flight tracking for graceful shutdown', () => {
  it('idle() resolves only when every tracked call has finished', async () => {
    const { inFlightTracker } = await import('../src/http/context');
    const tracker = inFlightTracker();
    await tracker.idle();
    const first = tracker.track();
    const second = tracker.track();
    let idle = false;
    const waiting = tracker.idle().then(() => (idle = true));
    first();
    first(); // a second call of the same `done` does not count twice
    await new Promise((r) => setTimeout(r, 10));
    expect(idle).toBe(false);
    second();
    await waiting;
    expect(idle).toBe(true);
  });
});

describe('docker/compose.yaml', () => {
  it(
    'parses with `compose config` (PostgreSQL 16 and the server)',
    { tags: ['docker-compose', 'pglite-only'] },
    () => {
      const file = new URL('../../../docker/compose.yaml', import.meta.url).pathname;
      const [cmd, ...pre] = composeCommand!;
      const out = execFileSync(cmd!, [...pre, '-f', file, 'config'], {
        env: { ...process.env, JWT_SECRET: 'x'.repeat(40) },
        encoding: 'utf8',
      });
      expect(out).toContain('image: postgres:16');
      expect(out).toMatch(/DATABASE_URL: postgres:\/\/campus:campus@postgres:5432\/campus/);
    },
  );
});

describe('docker/Dockerfile', () => {
  it('puts the built web app where the bundled server looks for it', () => {
    const dockerfile = readFileSync(new URL('../../../docker/Dockerfile', import.meta.url), 'utf8');
    expect(dockerfile).toMatch(/pnpm --filter @campus\/web build/);
    const copied = /COPY --from=build \S+ \/repo\/apps\/web\/dist (\S+)/.exec(dockerfile)?.[1];
    expect(copied).toBeDefined();
    // The image runs /app/dist/main.js (WORKDIR /app, the deployed server package).
    expect(dockerfile).toMatch(/WORKDIR \/app\n/);
    const looked = WEB_ROOT_CANDIDATES.map(
      (relative) => new URL(relative, 'file:///app/dist/main.js').pathname,
    );
    expect(looked.map((path) => path.replace(/\/$/, ''))).toContain(copied);
  });
});
