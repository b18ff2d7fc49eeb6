import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { seedUser, waitFor, withProcesses, type ServerProcess } from '../support/process';

interface Outcome {
  status: number | 'refused' | 'reset';
  id?: string;
}

/** Keeps `concurrency` POST /exemplos in flight until `stop()`; records every outcome. */
function load(servers: ServerProcess[], auth: Record<string, string>, concurrency: number) {
  const outcomes: Outcome[] = [];
  let running = true;
  // Each worker takes the servers in turn, by its own count. (A count shared by all workers
  // could keep every worker on the same server: sixteen workers woken in order from the same
  // pause advance it by sixteen, so after a kill they could all meet the dead process for ever.)
  const worker = async (w: number) => {
    for (let turn = w; running; turn++) {
      const server = servers[turn % servers.length]!;
      try {
        const res = await fetch(`${server.url}/exemplos`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ nome: `Carga ${w}-${turn}` }),
        });
        const body = (await res.json().catch(() => ({}))) as { dados?: { id?: string } };
        outcomes.push({ status: res.status, ...(body.dados?.id ? { id: body.dados.id } : {}) });
      } catch (error) {
        const code = (error as { cause?: { code?: string } }).cause?.code;
        outcomes.push({ status: code === 'ECONNREFUSED' ? 'refused' : 'reset' });
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  };
  const workers = Array.from({ length: concurrency }, (_, w) => worker(w));
  return {
    outcomes,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

async function storedIds(url: string): Promise<Set<string>> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const rows = await sql<{ id: string }[]>`select id from examples`;
  await sql.end();
  return new Set(rows.map((r) => r.id));
}

// Each test starts its own processes, which readyServers allows 150 s on a loaded machine.
const options = { tags: ['postgres-only'], timeout: 180_000 };

describe('fault: stopping processes under load', options, () => {
  it('SIGTERM: requests in flight complete, every acknowledged write is stored, exit 0', async () => {
    await withProcesses(1, async ([server], database) => {
      const user = await seedUser(database.url);
      const traffic = load([server!], user.auth, 16);
      await waitFor(
        async () => traffic.outcomes.filter((o) => o.status === 201).length >= 100,
        30_000,
        'load',
      );
      server!.child.kill('SIGTERM');
      expect(await server!.exited).toBe(0);
      await traffic.stop();

      const acknowledged = traffic.outcomes.filter((o) => o.status === 201);
      const stored = await storedIds(database.url);
      expect(acknowledged.length).toBeGreaterThanOrEqual(100);
      for (const o of acknowledged) expect(stored.has(o.id!)).toBe(true);
      // No request the server had received was cut off: every stored row was acknowledged.
      // (A client may still lose the request it wrote onto an idle keep-alive socket at the
      // instant the server closed it; the server never read it, so at most one per connection.)
      expect(stored.size).toBe(acknowledged.length);
      expect(
        traffic.outcomes.filter(
          (o) => o.status !== 201 && o.status !== 'refused' && o.status !== 'reset',
        ),
      ).toEqual([]);
      expect(traffic.outcomes.filter((o) => o.status === 'reset').length).toBeLessThanOrEqual(16);
    });
  });

  it('SIGKILL of one of two processes: the other keeps serving, nothing acknowledged is lost', async () => {
    await withProcesses(2, async ([first, second], database) => {
      const user = await seedUser(database.url);
      const traffic = load([first!, second!], user.auth, 16);
      await waitFor(
        async () => traffic.outcomes.filter((o) => o.status === 201).length >= 100,
        30_000,
        'load',
      );
      first!.child.kill('SIGKILL');
      await first!.exited;
      const afterKill = traffic.outcomes.length;
      await waitFor(
        async () => traffic.outcomes.slice(afterKill).filter((o) => o.status === 201).length >= 100,
        30_000,
        'the survivor serving',
      );
      await traffic.stop();

      const acknowledged = traffic.outcomes.filter((o) => o.status === 201);
      const stored = await storedIds(database.url);
      for (const o of acknowledged) expect(stored.has(o.id!)).toBe(true);
      expect((await fetch(`${second!.url}/ready`)).status).toBe(200);
    });
  });
});
