import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../users/table';
import { createTestDatabase, type TestBackend } from '../testing';
import { createStreamSlots } from './slots';
import { streamLeases } from './table';

const backends: [TestBackend, string | undefined][] = [
  ['pglite', undefined],
  ...(process.env.TEST_DATABASE_URL
    ? [['postgres', process.env.TEST_DATABASE_URL] as [TestBackend, string]]
    : []),
];

describe.each(backends)('stream slots (%s)', (backend, url) => {
  it('a lease left by a process that died stops counting once it expires', async () => {
    const handle = await createTestDatabase(backend, url);
    try {
      const [user] = await handle.db
        .insert(users)
        .values({
          nome: 'Leitor',
          nickname: 'leitor',
          email: 'leitor@campus.test',
          passwordHash: 'x',
        })
        .returning({ id: users.id });
      // "Another process": its own slots over the same table, never giving its lease back.
      const dead = createStreamSlots(handle.db, 2);
      const alive = createStreamSlots(handle.db, 2);
      await dead.take(user!.id);
      const release = await alive.take(user!.id);
      await expect(alive.take(user!.id)).rejects.toMatchObject({
        reason: 'TOO_MANY_STREAMS',
      });
      release();
      await expect.poll(async () => (await handle.db.select().from(streamLeases)).length).toBe(1);
      await handle.db.update(streamLeases).set({ expiresAt: sql`now() - interval '1 second'` });
      await alive.take(user!.id);
      await alive.take(user!.id);
      const left = await handle.db
        .select()
        .from(streamLeases)
        .where(eq(streamLeases.userId, user!.id));
      expect(left).toHaveLength(2);
    } finally {
      await handle.close();
    }
  }, 120_000);
});
