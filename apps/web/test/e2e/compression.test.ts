import { existsSync, readdirSync, statSync } from 'node:fs';
import { get } from 'node:http';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';

const e2e = inject('e2e');
const dist = fileURLToPath(new URL('../../dist', import.meta.url));

/** Status, headers and the bytes as sent (fetch would decode them). */
function getRaw(url: string, acceptEncoding: string) {
  return new Promise<{ status: number; encoding?: string; cache?: string; bytes: Buffer }>(
    (resolve, reject) => {
      get(url, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            encoding: response.headers['content-encoding'],
            cache: response.headers['cache-control'],
            bytes: Buffer.concat(chunks),
          }),
        );
      }).on('error', reject);
    },
  );
}

/** The production build as the server ships it (issue: 334 kB sent uncompressed, 1.7 MB map public). */
describe('the built web app', { tags: ['chromium'] }, () => {
  const baseUrl = e2e.skip ? '' : e2e.baseUrl;

  it('has Brotli and gzip forms of its scripts and styles, and no source map', () => {
    const assets = readdirSync(`${dist}/assets`);
    const scripts = assets.filter((name) => /\.(js|css)$/.test(name));
    expect(scripts.length).toBeGreaterThan(0);
    // Below 1 kB the build writes no compressed form (apps/web/build/precompress.ts: MIN_BYTES).
    const worthCompressing = (n: string) => statSync(`${dist}/assets/${n}`).size >= 1024;
    for (const name of scripts.filter((n) => n.endsWith('.js') && worthCompressing(n))) {
      expect(existsSync(`${dist}/assets/${name}.br`), name).toBe(true);
      expect(existsSync(`${dist}/assets/${name}.gz`), name).toBe(true);
    }
    expect(
      readdirSync(dist, { recursive: true }).filter((n) => String(n).endsWith('.map')),
    ).toEqual([]);
  });

  it('the server sends the initial script in Brotli, cached for good; a .map is not there', async () => {
    const html = await (await fetch(`${baseUrl}/`, { headers: { accept: 'text/html' } })).text();
    const script = html.match(/src="(\/assets\/[^"]+\.js)"/)![1]!;
    const response = await getRaw(`${baseUrl}${script}`, 'gzip, deflate, br');
    expect(response.status).toBe(200);
    expect(response.encoding).toBe('br');
    expect(response.cache).toContain('immutable');
    const original = brotliDecompressSync(response.bytes);
    expect(response.bytes.length).toBeLessThan(original.length / 3);
    expect(original.toString()).not.toContain('sourceMappingURL');
    expect((await fetch(`${baseUrl}${script}.map`)).status).toBe(404);
  });
});
