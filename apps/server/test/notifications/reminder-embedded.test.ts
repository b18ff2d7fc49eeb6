import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matchPlayers, matches, signAccessToken, users } from '@campus/core';
import { createDatabase } from '@campus/core/db';
import { describe, expect, it } from 'vitest';
import { isReady, PROCESS_JWT_SECRET, runServer, waitFor } from '../support/process';

/**
 * Embedded mode (PGlite, no DATABASE_URL): the same pg-boss queue runs on the one PGlite
 * connection through `db.executeSql`; a reminder that fell due while the server was down is
 * sent when it starts.
 */
describe('reminders on embedded PGlite', { tags: ['pglite-only'] }, () => {
  it('a server started after the due time sends the reminder once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'campus-embedded-'));
    const database = await createDatabase({ kind: 'pglite', dataDir: dir });
    await database.migrate();
    const [organiser, player] = await database.db
      .insert(users)
      .values(
        ['org', 'player'].map((name) => ({
          nome: name,
          nickname: `${name}_${Date.now()}`,
          email: `${name}_${Date.now()}@campus.test`,
          passwordHash: 'scrypt$x',
        })),
      )
      .returning();
    const [match] = await database.db
      .insert(matches)
      .values({
        title: 'Racha',
        authorId: organiser!.id,
        maxPlayers: 10,
        matchDate: new Date(Date.now() + 3600_000),
        location: 'Quadra',
      })
      .returning();
    await database.db
      .insert(matchPlayers)
      .values({ matchId: match!.id, userId: player!.id, team: 'A' });
    await database.close();

    const server = runServer({ DATA_DIR: dir });
    try {
      await waitFor(() => isReady(server), 90_000, 'embedded server ready');
      const token = signAccessToken(
        {
          jwtSecret: PROCESS_JWT_SECRET,
          accessTokenTtl: 600,
          refreshTokenTtl: 600,
          passwordCost: 10,
        },
        player!,
      );
      const inbox = async () =>
        (await (
          await fetch(`${server.url}/notifications`, {
            headers: { Authorization: `Bearer ${token}` },
          })
        ).json()) as { data: Array<{ type: string; data: { matchId?: string } }> };
      await waitFor(async () => (await inbox()).data.length > 0, 60_000, 'reminder');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const { data } = await inbox();
      expect(data).toEqual([
        expect.objectContaining({ type: 'MATCH_REMINDER', data: { matchId: match!.id } }),
      ]);
    } finally {
      server.child.kill('SIGKILL');
      await server.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
