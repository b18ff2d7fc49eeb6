import { describe, expect, it } from 'vitest';
import { seedUser, waitFor, withProcesses, type ServerProcess } from '../support/process';

/**
 * A load balancer as operators run one: it probes each process's /ready and sends requests only
 * to the ready ones. Workers keep requests in flight (a write and a read in turn) until stopped.
 */
function balancedLoad(servers: ServerProcess[], auth: Record<string, string>, concurrency: number) {
  const ready = new Set(servers);
  const failures: string[] = [];
  const served = new Map<ServerProcess, number>(servers.map((s) => [s, 0]));
  let running = true;
  const probe = (async () => {
    while (running) {
      for (const server of servers) {
        const ok = await fetch(`${server.url}/ready`)
          .then((r) => r.status === 200)
          .catch(() => false);
        if (ok) ready.add(server);
        else ready.delete(server);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const worker = async (w: number) => {
    for (let turn = w; running; turn++) {
      const pool = [...ready];
      const server = pool[turn % pool.length];
      if (!server) {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      const write = turn % 2 === 0;
      try {
        const res = await fetch(`${server.url}${write ? '/exemplos' : '/post'}`, {
          method: write ? 'POST' : 'GET',
          headers: { ...auth, 'content-type': 'application/json' },
          ...(write ? { body: JSON.stringify({ nome: `Carga ${w}-${turn}` }) } : {}),
        });
        await res.arrayBuffer();
        if (res.status !== (write ? 201 : 200)) failures.push(`${res.status} from ${server.port}`);
        else served.set(server, served.get(server)! + 1);
      } catch (error) {
        failures.push(`${(error as Error).message} from ${server.port}`);
      }
    }
  };
  const workers = Array.from({ length: concurrency }, (_, w) => worker(w));
  return {
    failures,
    served: (server: ServerProcess) => served.get(server)!,
    isReady: (server: ServerProcess) => ready.has(server),
    async stop() {
      running = false;
      await Promise.all([probe, ...workers]);
    },
  };
}

/** Reads an event stream's raw text until the server ends it. */
async function streamText(url: string, auth: Record<string, string>) {
  const res = await fetch(url, { headers: auth });
  expect(res.status).toBe(200);
  let text = '';
  const done = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
        text += decoder.decode(chunk, { stream: true });
    } catch {
      // the socket closed after the last event
    }
    return text;
  })();
  return { text: () => text, done };
}

describe(
  'SIGTERM under load, behind a balancer probing /ready',
  { tags: ['postgres-only'], timeout: 240_000 },
  () => {
    it('not ready first while still serving, then drained: no request fails, streams get a retry hint', async () => {
      await withProcesses(
        2,
        async ([leaving, staying], database) => {
          const user = await seedUser(database.url);
          const stream = await streamText(`${leaving!.url}/notifications/stream`, user.auth);
          await waitFor(async () => stream.text().includes('data:'), 10_000, 'the first event');
          const load = balancedLoad([leaving!, staying!], user.auth, 8);
          await waitFor(async () => load.served(leaving!) >= 30, 60_000, 'load on both');

          leaving!.child.kill('SIGTERM');
          await waitFor(async () => !load.isReady(leaving!), 10_000, 'the balancer to see 503');
          // Not ready, yet still serving what reaches it.
          const late = await fetch(`${leaving!.url}/post`, { headers: user.auth });
          expect(late.status).toBe(200);
          const notReady = await fetch(`${leaving!.url}/ready`);
          expect(notReady.status).toBe(503);
          // It says why: stopping, not a database fault.
          expect(await notReady.json()).toEqual({
            code: 'SERVICE_UNAVAILABLE',
            message: 'Servidor encerrando; outra instância atende',
          });

          expect(await stream.done).toMatch(/retry: \d+\n\n$/);
          expect(await leaving!.exited).toBe(0);
          const before = load.served(staying!);
          await waitFor(async () => load.served(staying!) >= before + 30, 60_000, 'the survivor');
          await load.stop();
          expect(load.failures).toEqual([]);
        },
        // Long enough for the balancer's probe to see the 503 on a loaded machine.
        { SHUTDOWN_DELAY: '5' },
      );
    });
  },
);
