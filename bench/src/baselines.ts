/**
 * The baselines our stack is measured against, each a process of its own started by the same run
 * (`node --import tsx src/baselines.ts <kind>`, PORT and HOST from the environment):
 *
 * - `node-hello`: node:http answering a constant JSON body: the ceiling of this machine.
 * - `express-hello`: Express 5 answering `{"hello":"world"}` with `res.json`.
 * - `express-static`: Express 5's `express.static` serving STATIC_DIR at `/files` (photos).
 * - `express-post`: a hand-written Express 5 handler for GET /post/:id: the same SQL as the
 *   service's prepared statement (`feed_post_read`), sent through postgres.js as a prepared
 *   statement on a pool of DATABASE_POOL_MAX connections, the row shaped into the same JSON. It
 *   verifies the Bearer token (the same `verifyAccessToken` as the server) and that the id is a
 *   UUID, as the endpoint must; it does not read the caller's row from the database.
 *
 * Express is loaded from apps/server, so the baseline runs the very copy the server runs.
 */
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { MEDIA_FILES_PATH, verifyAccessToken, type AuthConfig } from '@campus/core';
import postgres from 'postgres';

interface Req {
  params: Record<string, string>;
  headers: Record<string, string | undefined>;
}
interface Res {
  status(code: number): Res;
  json(body: unknown): void;
  type(type: string): Res;
  send(body: string): void;
}
interface ExpressApp {
  disable(setting: string): void;
  set(setting: string, value: unknown): void;
  get(path: string, handler: (req: Req, res: Res) => void | Promise<void>): void;
  listen(port: number, host: string, callback: () => void): void;
  use(path: string, handler: unknown): void;
}
const requireFromServer = createRequire(new URL('../../apps/server/package.json', import.meta.url));
const express = requireFromServer('express') as (() => ExpressApp) & {
  static: (root: string, options?: Record<string, unknown>) => unknown;
};

const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? '127.0.0.1';

/** As the server is configured: no ETag computed per response, no X-Powered-By. */
function expressApp(): ExpressApp {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/ready', (_req, res) => res.json({ status: 'ready' }));
  return app;
}

/** The SQL drizzle generates for the service's `feed_post_read` (bench/src/main.ts compares answers). */
export const POST_READ_SQL = `select "id", "title", "content", "type", "author", "author_id", "group", "group_id", "event_date", "event_finish_date", "location", "likes_count", "comments_count", "attendances_count", "hidden_at", "kept_visible", "created_at", "updated_at", case when "posts"."group_id" is null then false else coalesce((select "groups"."verified" from "groups" where "groups"."id" = "posts"."group_id"), false) end, exists (select 1 from "post_likes" where "post_likes"."post_id" = "posts"."id" and "post_likes"."user_id" = $1::uuid), exists (select 1 from "post_attendances" where "post_attendances"."post_id" = "posts"."id" and "post_attendances"."user_id" = $2::uuid), coalesce((select json_agg(json_build_object('id', "media"."id", 'key', "media"."key", 'width', "media"."width", 'height', "media"."height", 'alt', "media"."alt") order by "post_media"."position") from "post_media" join "media" on "media"."id" = "post_media"."media_id" where "post_media"."post_id" = "posts"."id"), '[]'::json), (select "media"."key" from "media" where "media"."owner_id" = "posts"."author_id" and "media"."kind" = 'avatar' and "media"."discarded_at" is null), coalesce((select json_agg(e.item order by e.at desc, e.id desc) from ( select json_build_object('id', "post_comments"."id", 'content', "post_comments"."content", 'createdAt', "post_comments"."created_at", 'updatedAt', "post_comments"."updated_at", 'hidden', "post_comments"."hidden_at" is not null, 'author', json_build_object('id', "users"."id", 'userName', "users"."nickname", 'avatarKey', (select "media"."key" from "media" where "media"."owner_id" = "users"."id" and "media"."kind" = 'avatar' and "media"."discarded_at" is null))) as item, "post_comments"."created_at" as at, "post_comments"."id" as id from "post_comments" join "users" on "users"."id" = "post_comments"."author_id" where "post_comments"."post_id" = "posts"."id" and ("post_comments"."hidden_at" is null or "post_comments"."author_id" = $3::uuid or $4::boolean) order by "post_comments"."created_at" desc nulls last, "post_comments"."id" desc nulls last limit 50) e), '[]'::json), coalesce((select json_agg(e.item order by e.at desc, e.id desc) from ( select json_build_object('id', "post_likes"."id", 'userId', "post_likes"."user_id", 'userName', "users"."nickname", 'avatarKey', (select "media"."key" from "media" where "media"."owner_id" = "users"."id" and "media"."kind" = 'avatar' and "media"."discarded_at" is null), 'createdAt', "post_likes"."created_at") as item, "post_likes"."created_at" as at, "post_likes"."id" as id from "post_likes" join "users" on "users"."id" = "post_likes"."user_id" where "post_likes"."post_id" = "posts"."id" order by "post_likes"."created_at" desc nulls last, "post_likes"."id" desc nulls last limit 50) e), '[]'::json), coalesce((select json_agg(e.item order by e.at desc, e.id desc) from ( select json_build_object('id', "post_reports"."id", 'reason', "post_reports"."reason", 'createdAt', "post_reports"."created_at", 'userId', "post_reports"."user_id") as item, "post_reports"."created_at" as at, "post_reports"."id" as id from "post_reports" where "post_reports"."post_id" = "posts"."id" order by "post_reports"."created_at" desc nulls last, "post_reports"."id" desc nulls last limit 50) e), '[]'::json), coalesce((select json_agg(e.item order by e.at desc, e.id desc) from ( select json_build_object('id', "post_attendances"."id", 'userId', "post_attendances"."user_id", 'userName', "users"."nickname", 'avatarKey', (select "media"."key" from "media" where "media"."owner_id" = "users"."id" and "media"."kind" = 'avatar' and "media"."discarded_at" is null), 'createdAt', "post_attendances"."created_at") as item, "post_attendances"."created_at" as at, "post_attendances"."id" as id from "post_attendances" join "users" on "users"."id" = "post_attendances"."user_id" where "post_attendances"."post_id" = "posts"."id" order by "post_attendances"."created_at" desc nulls last, "post_attendances"."id" desc nulls last limit 50) e), '[]'::json) from "posts" where "posts"."id" = $5 and ("posts"."hidden_at" is null or "posts"."author_id" = $6::uuid or $7::boolean)`;

type Rec = Record<string, unknown> & {
  createdAt: string;
  updatedAt?: string | null;
  userId?: string;
};
const iso = (value: string) => new Date(value).toISOString();
// Photo URLs as the service writes them when no MEDIA_PUBLIC_BASE_URL is set.
const urlOrNull = (key: string | null) => (key ? `${MEDIA_FILES_PATH}/${key}.webp` : null);
interface MediaRow {
  id: string;
  key: string;
  width: number;
  height: number;
  alt: string | null;
}
const toMediaItem = ({ key, ...m }: MediaRow) => ({
  ...m,
  url: `${MEDIA_FILES_PATH}/${key}.webp`,
  thumbnailUrl: `${MEDIA_FILES_PATH}/${key}-t.webp`,
});

function postHandler(): ExpressApp {
  const sql = postgres(process.env.DATABASE_URL!, {
    max: Number(process.env.DATABASE_POOL_MAX ?? 20),
    onnotice: () => {},
  });
  const auth: AuthConfig = {
    jwtSecret: process.env.JWT_SECRET!,
    accessTokenTtl: 900,
    refreshTokenTtl: 3600,
    passwordCost: 17,
  };
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const app = expressApp();
  app.get('/post/:id', async (req, res) => {
    const header = req.headers.authorization;
    let claims: { sub: string; perfil: string };
    try {
      if (!header?.startsWith('Bearer ')) throw new Error('no token');
      claims = verifyAccessToken(auth, header.slice(7));
    } catch {
      res.status(401).json({ code: 'UNAUTHORIZED', message: 'Token invalid' });
      return;
    }
    const id = req.params.id!;
    if (!uuid.test(id)) {
      res.status(400).json({ code: 'BAD_REQUEST', message: 'id must be a UUID' });
      return;
    }
    // `.values()`: the json columns share the name "coalesce", so read them by position.
    // The parameters in drizzle's order: the reader (each flag; comments' visibility), the id,
    // the reader.
    const { sub } = claims;
    const admin = claims.perfil === 'ADMIN';
    const parameters = [sub, sub, sub, admin, id, sub, admin];
    const rows = await sql.unsafe(POST_READ_SQL, parameters, { prepare: true }).values();
    const row = rows[0] as unknown[] | undefined;
    if (!row) {
      res.status(404).json({ code: 'NOT_FOUND', message: 'Post not found' });
      return;
    }
    const media = row[21] as MediaRow[];
    const [comments, likes, reports, attendances] = row.slice(23) as Rec[][];
    const at = (i: number) => row[i] as Date | null;
    const withAvatar = ({ avatarKey, ...r }: Rec) => ({
      ...r,
      avatarUrl: urlOrNull(avatarKey as string | null),
    });
    const records = (list: Rec[]) =>
      list.map((r) => withAvatar({ ...r, createdAt: iso(r.createdAt) }));
    const commentRecords = (list: Rec[]) =>
      list.map((c) => ({
        ...c,
        createdAt: iso(c.createdAt),
        updatedAt: c.updatedAt ? iso(c.updatedAt) : null,
        author: withAvatar(c.author as Rec),
      }));
    res.type('application/json').send(
      JSON.stringify({
        id: row[0],
        title: row[1],
        content: row[2],
        type: row[3],
        author: row[4],
        authorId: row[5],
        group: row[6],
        groupId: row[7],
        groupVerified: row[18],
        likedByMe: row[19],
        attendingByMe: row[20],
        hidden: row[14] !== null,
        createdAt: at(16)!.toISOString(),
        updatedAt: at(17)!.toISOString(),
        eventDate: at(8)?.toISOString() ?? null,
        eventFinishDate: at(9)?.toISOString() ?? null,
        location: row[10],
        likesCount: row[11],
        commentsCount: row[12],
        attendancesCount: row[13],
        media: media.map(toMediaItem),
        authorAvatarUrl: urlOrNull(row[22] as string | null),
        comments: commentRecords(comments!),
        likes: records(likes!),
        reports: reports!.map(({ userId, ...r }) => ({
          ...r,
          createdAt: iso(r.createdAt),
          ...(admin && userId ? { userId } : {}),
        })),
        attendances: records(attendances!),
      }),
    );
  });
  return app;
}

// Exit normally on SIGTERM, so that `node --cpu-prof` writes its profile.
process.on('SIGTERM', () => process.exit(0));

const kind = process.argv[2];
if (kind === 'node-hello') {
  const body = JSON.stringify({ hello: 'world' });
  createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  }).listen(port, host);
} else if (kind === 'express-hello') {
  const app = expressApp();
  app.get('/', (_req, res) => res.json({ hello: 'world' }));
  app.listen(port, host, () => {});
} else if (kind === 'express-static') {
  // Express's static file serving of the directory the server stores its photos in (STATIC_DIR).
  const app = expressApp();
  app.use('/files', express.static(process.env.STATIC_DIR!, { maxAge: '365d', immutable: true }));
  app.listen(port, host, () => {});
} else if (kind === 'express-post') {
  postHandler().listen(port, host, () => {});
} else if (kind !== undefined) {
  console.error(`unknown baseline ${kind}`);
  process.exit(1);
}
