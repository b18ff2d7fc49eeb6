import { createHash, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Actor } from '../common/actor';
import { LIMITS } from '../common/limits';
import type { Database } from '../db/client';
import { AppError, LimitError, badRequest, notFound } from '../errors';
import { renderImage, type MediaKind } from './images';
import { workQueue } from './queue';
import { avatarUrlOf } from './references';
import type { MediaUpload, UploadMediaInput } from './schemas';
import type { MediaStorage } from './storage';
import { media, type MediaRow } from './table';
import {
  filesOf,
  mainFile,
  mainUrl,
  parseFileName,
  setMediaBaseUrl,
  thumbFile,
  thumbUrl,
} from './urls';

/**
 * What the host received of a multipart upload (docs/contract/media.md): the `file` part streamed
 * to a temporary file, or why there is none. The host deletes the file after the call.
 */
export type ReceivedUpload =
  { status: 'file'; path: string; bytes: number } | { status: 'too-large' } | { status: 'missing' };

export interface MediaOptions {
  storage: MediaStorage;
  /** MEDIA_PUBLIC_BASE_URL: where the files are read from instead of this service. */
  publicBaseUrl?: string | undefined;
  /** Images processed at once (default: the cores) and waiting beyond them (default 16). */
  running?: number;
  waiting?: number;
}

/** Adds one to a shared counter (the rate-limit store) and returns its new total. */
export type CountUpload = (key: string, expiresAt: Date) => Promise<number>;

const DAY_MS = 86_400_000;
/** A served file's facts are kept this long: a removed file answers 404 within a minute. */
const FILE_CACHE_MS = 60_000;
const FILE_CACHE_MAX = 10_000;

/** 18 random bytes → 24 base64url characters (144 bits): the unguessable part of the URLs. */
const newKey = () => randomBytes(18).toString('base64url');

export const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', 'A imagem passa de 10 MB');

/** The received file, or the failure the upload already is. */
export function fileOf(upload: ReceivedUpload | undefined): { path: string; bytes: number } {
  if (upload?.status === 'file') return upload;
  if (upload?.status === 'too-large') throw tooLarge();
  throw badRequest('Envie a imagem na parte "file" de um corpo multipart/form-data', [
    { path: 'file', message: 'file is required' },
  ]);
}

export const toMediaUpload = (row: MediaRow): MediaUpload => ({
  id: row.id,
  url: mainUrl(row.key),
  thumbnailUrl: thumbUrl(row.key),
  width: row.width,
  height: row.height,
  thumbnailWidth: row.thumbWidth,
  alt: row.alt,
  contentType: row.contentType,
  createdAt: row.createdAt.toISOString(),
});

/** A file as the host serves it. */
export interface ServedFile {
  name: string;
  bytes: number;
  contentType: string;
  etag: string;
}

export function createMediaService(db: Database, options: MediaOptions, countUpload: CountUpload) {
  setMediaBaseUrl(options.publicBaseUrl);
  const { storage } = options;
  const queue = workQueue({
    running: options.running ?? availableParallelism(),
    waiting: options.waiting ?? 16,
  });
  const served = new Map<string, { until: number; file: ServedFile }>();

  /** The day's uploads of one account, counted where every process counts (100 a day). */
  async function countToday(actor: Actor) {
    const day = Math.floor(Date.now() / DAY_MS);
    const account = createHash('sha256').update(actor.id).digest('base64url');
    const total = await countUpload(
      `media-uploads:${account}:${day}`,
      new Date((day + 1) * DAY_MS),
    );
    if (total > LIMITS.media.perDay.max)
      throw new LimitError('uploads-per-day', 'Limite de 100 imagens por dia atingido');
  }

  /** Checks, renders and stores one upload; the row is written once both files are stored. */
  async function store(
    upload: ReceivedUpload | undefined,
    kind: MediaKind,
    actor: Actor,
    write: (row: typeof media.$inferInsert) => Promise<MediaRow>,
    alt?: string,
  ): Promise<MediaRow> {
    const file = fileOf(upload);
    await countToday(actor);
    const { main, thumb } = await queue.run(() => renderImage(file.path, kind));
    const key = newKey();
    await Promise.all([
      storage.put(mainFile(key), main.data, 'image/webp'),
      storage.put(thumbFile(key), thumb.data, 'image/webp'),
    ]);
    try {
      return await write({
        key,
        kind,
        ownerId: actor.id,
        contentType: 'image/webp',
        width: main.width,
        height: main.height,
        bytes: main.data.length,
        thumbWidth: thumb.width,
        thumbHeight: thumb.height,
        thumbBytes: thumb.data.length,
        alt: alt || null,
      });
    } catch (error) {
      await storage.remove(filesOf(key)).catch(() => {});
      throw error;
    }
  }

  const insert = async (values: typeof media.$inferInsert) =>
    (await db.insert(media).values(values).returning())[0]!;

  return {
    storage,
    store,
    /** POST /media: a photo for a post, unused until a post takes it. */
    async upload(upload: ReceivedUpload | undefined, input: UploadMediaInput, actor: Actor) {
      return toMediaUpload(await store(upload, 'post', actor, insert, input.alt));
    },

    /** PUT /autenticacao/usuario-atual/avatar: the new avatar replaces (discards) the old one. */
    async setAvatar(upload: ReceivedUpload | undefined, actor: Actor): Promise<string> {
      const row = await store(upload, 'avatar', actor, (values) =>
        db.transaction(async (tx) => {
          await tx
            .update(media)
            .set({ discardedAt: sql`now()` })
            .where(currentAvatar(actor.id));
          return (await tx.insert(media).values(values).returning())[0]!;
        }),
      );
      return mainUrl(row.key);
    },

    /** A user's current avatar URL, or null (GET /autenticacao/usuario-atual). */
    avatarUrl: (userId: string) => avatarUrlOf(db, userId),

    /** DELETE /media/{id}: an upload of the caller that no post took. */
    async remove(id: string, actor: Actor): Promise<void> {
      const discarded = await db
        .update(media)
        .set({ discardedAt: sql`now()` })
        .where(
          and(
            eq(media.id, id),
            eq(media.ownerId, actor.id),
            eq(media.kind, 'post'),
            isNull(media.attachedAt),
            isNull(media.discardedAt),
          ),
        )
        .returning({ id: media.id });
      if (!discarded.length) throw notFound('Foto não encontrada');
    },

    async removeAvatar(actor: Actor): Promise<void> {
      await db
        .update(media)
        .set({ discardedAt: sql`now()` })
        .where(currentAvatar(actor.id));
    },

    /** A served file's facts, or undefined (unknown, or discarded more than a minute ago). */
    async file(name: string): Promise<ServedFile | undefined> {
      const cached = served.get(name);
      if (cached && cached.until > Date.now()) return cached.file;
      const parsed = parseFileName(name);
      if (!parsed) return undefined;
      const [row] = await db
        .select({
          contentType: media.contentType,
          bytes: media.bytes,
          thumbBytes: media.thumbBytes,
        })
        .from(media)
        .where(and(eq(media.key, parsed.key), isNull(media.discardedAt)));
      if (!row) {
        served.delete(name);
        return undefined;
      }
      const file = {
        name,
        bytes: parsed.thumb ? row.thumbBytes : row.bytes,
        contentType: row.contentType,
        etag: `"${name.replace('.webp', '')}"`,
      };
      if (served.size >= FILE_CACHE_MAX) served.clear();
      served.set(name, { until: Date.now() + FILE_CACHE_MS, file });
      return file;
    },

    /**
     * The clean-up job: deletes the files, then the rows, of discarded images and of post photos
     * no post took within 24 h. Rows are locked (SKIP LOCKED), so two processes never share one,
     * and a post taking a photo waits for, or wins over, its deletion.
     */
    async cleanUp(batch = 200): Promise<number> {
      return db.transaction(async (tx) => {
        const doomed = await tx
          .select({ id: media.id, key: media.key })
          .from(media)
          .where(
            sql`${media.discardedAt} is not null or (${media.attachedAt} is null and ${media.kind} = 'post' and ${media.createdAt} < now() - interval '24 hours')`,
          )
          .limit(batch)
          .for('update', { skipLocked: true });
        if (doomed.length === 0) return 0;
        await storage.remove(doomed.flatMap((row) => filesOf(row.key)));
        await tx.delete(media).where(
          inArray(
            media.id,
            doomed.map((row) => row.id),
          ),
        );
        return doomed.length;
      });
    },
  };
}
export type MediaService = ReturnType<typeof createMediaService>;

const currentAvatar = (userId: string) =>
  and(eq(media.ownerId, userId), eq(media.kind, 'avatar'), isNull(media.discardedAt));
