/**
 * Photos (docs/contract/media.md): 8 simultaneous uploads of a 12-megapixel JPEG (time to the
 * 201, the server's RSS, /health's p99 during them against alone); a stored photo served against
 * Express's static serving of the same file; the feed with 10 posts of 4 photos each against the
 * same page without photos.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import sharp from 'sharp';
import { atLeast, atMost, type Ratio, type Timing } from './ratios';
import { compare, parse, rssMb, type RunResult } from './measure';
import {
  log,
  profileFlags,
  startProcess,
  startServer,
  stopProcess,
  BENCH_DIR,
  type Service,
} from './support';

/** A 4000×3000 photo-like JPEG (noise, so it does not compress to nothing). */
async function twelveMegapixels(): Promise<Buffer> {
  const width = 4000;
  const height = 3000;
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7 + ((i / 3000) | 0) * 13) & 0xff;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

const p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? 0;
};

async function uploadOnce(server: Service, auth: string, bytes: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), 'photo.jpg');
  const started = performance.now();
  const res = await fetch(`${server.url}/media`, {
    method: 'POST',
    headers: { Authorization: auth },
    body: form,
  });
  const body = (await res.json()) as { id: string; url: string };
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - started, ...body };
}

/** GET /health one after another until `until` resolves; the latencies. */
async function healthWhile(server: Service, until: Promise<unknown>) {
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    await (await fetch(`${server.url}/health`)).text();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

export async function mediaBench(options: {
  url: string;
  auths: [string, string, string];
  authorIds: [string, string];
  poolMax: string;
  timing: Timing;
}): Promise<{ results: RunResult[]; ratios: Ratio[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'campus-bench-media-'));
  const server = await startServer(
    'server (photos)',
    { DATABASE_URL: options.url, DATABASE_POOL_MAX: options.poolMax, DATA_DIR: dataDir },
    profileFlags(),
  );
  const staticFiles = await startProcess(
    'express-static',
    ['--import', 'tsx', 'src/baselines.ts', 'express-static'],
    { STATIC_DIR: join(dataDir, 'media') },
    { cwd: BENCH_DIR, readyPath: '/ready' },
  );
  try {
    const photo = await twelveMegapixels();
    log(`12-megapixel JPEG: ${(photo.length / 1e6).toFixed(1)} MB`);
    const [burstAuth, withPhotos, withoutPhotos] = options.auths;
    // /health alone, then during bursts of 8 uploads (the RSS sampled meanwhile).
    const alone = await healthWhile(server, new Promise((r) => setTimeout(r, 3000)));
    let rss = rssMb(server.pid);
    const sampler = setInterval(() => (rss = Math.max(rss, rssMb(server.pid))), 100);
    const uploads: number[] = [];
    const bursts = (async () => {
      for (let round = 0; round < 5; round++) {
        const done = await Promise.all(
          Array.from({ length: 8 }, () => uploadOnce(server, burstAuth, photo)),
        );
        uploads.push(...done.map((d) => d.ms));
      }
    })();
    const during = await healthWhile(server, bursts);
    await bursts;
    clearInterval(sampler);
    log(
      `uploads p99 ${p99(uploads).toFixed(0)} ms; /health p99 ${p99(alone).toFixed(1)} ms alone, ${p99(during).toFixed(1)} ms during; RSS ${rss.toFixed(0)} MB`,
    );

    // The feed: 10 posts of 4 photos by one author, 10 without by another; the seed's posts of
    // these two authors are removed first, so that each page is exactly those 10.
    const sql = postgres(options.url, { max: 1, onnotice: () => {} });
    await sql`delete from posts where author_id in ${sql(options.authorIds)}`;
    await sql.end();
    const small = await sharp({
      create: { width: 1200, height: 900, channels: 3, background: '#468' },
    })
      .jpeg()
      .toBuffer();
    for (let i = 0; i < 10; i++) {
      const ids = (
        await Promise.all([0, 1, 2, 3].map(() => uploadOnce(server, withPhotos, small)))
      ).map((u) => u.id);
      await createPost(server, withPhotos, options.authorIds[0], ids);
      await createPost(server, withoutPhotos, options.authorIds[1], []);
    }
    const served = await uploadOnce(server, withPhotos, small);
    const name = served.url.split('/').pop()!;
    if (!readdirSync(join(dataDir, 'media')).includes(name)) throw new Error('photo not on disk');
    const page = (author: string) => `/post?authorId=${author}&limit=10`;
    const tenPosts = (photos: number) => (b: string) => {
      const list = parse<{ data: { media: unknown[] }[] }>(b)?.data;
      return list?.length === 10 && list.every((p) => p.media.length === photos);
    };
    const results = await compare(
      [
        {
          name: 'GET a stored photo (WebP, ~100 kB)',
          service: server,
          path: `/media/files/${name}`,
        },
        { name: 'the same file, express.static', service: staticFiles, path: `/files/${name}` },
        {
          name: 'feed page: 10 posts × 4 photos',
          service: server,
          path: page(options.authorIds[0]),
          headers: { authorization: withPhotos },
          check: tenPosts(4),
        },
        {
          name: 'feed page: 10 posts, no photos',
          service: server,
          path: page(options.authorIds[1]),
          headers: { authorization: withoutPhotos },
          check: tenPosts(0),
        },
      ],
      options.timing,
    );
    const rate = (i: number) => results[i]!.requestsPerSec;
    const ratios = [
      atMost(
        '8 simultaneous 12 MP uploads: p99 to the 201, s',
        p99(uploads) / 1000,
        1.5,
        `${uploads.length} uploads in bursts of 8`,
      ),
      atMost('server RSS during the uploads, MB', rss, 600, 'largest sample, every 100 ms'),
      atMost(
        '/health p99 during uploads ÷ alone',
        p99(during) / Math.max(p99(alone), 1),
        2,
        `${p99(during).toFixed(1)} ms vs ${p99(alone).toFixed(1)} ms (floor 1 ms)`,
      ),
      atLeast(
        'stored photo ÷ express.static, req/s',
        rate(0) / rate(1),
        0.9,
        `${rate(0).toFixed(0)} vs ${rate(1).toFixed(0)} req/s`,
      ),
      atLeast(
        'feed with 10×4 photos ÷ without, req/s',
        rate(2) / rate(3),
        0.9,
        `${rate(2).toFixed(0)} vs ${rate(3).toFixed(0)} req/s`,
      ),
    ];
    return { results, ratios };
  } finally {
    await stopProcess(staticFiles);
    await stopProcess(server);
  }
}

async function createPost(server: Service, auth: string, authorId: string, mediaIds: string[]) {
  const res = await fetch(`${server.url}/post`, {
    method: 'POST',
    headers: { Authorization: auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: 'Photos', type: 'GENERAL', author: 'x', authorId, mediaIds }),
  });
  if (res.status !== 201) throw new Error(`post: ${res.status} ${await res.text()}`);
}
