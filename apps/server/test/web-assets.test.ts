import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { get, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';

/** A built web app as apps/web's build writes it: hashed assets with their .br and .gz beside them. */
const webRoot = mkdtempSync(join(tmpdir(), 'campus-web-assets-'));
const script = `console.log(${JSON.stringify('Campus '.repeat(500))});`;
let t: TestApp;

beforeAll(async () => {
  mkdirSync(join(webRoot, 'assets'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(webRoot, 'assets', 'index-abc123.js'), script);
  writeFileSync(join(webRoot, 'assets', 'index-abc123.js.br'), brotliCompressSync(script));
  writeFileSync(join(webRoot, 'assets', 'index-abc123.js.gz'), gzipSync(script));
  writeFileSync(join(webRoot, 'assets', 'small-def456.css'), 'a{color:red}');
  t = await startTestApp({ webRoot });
});
afterAll(async () => {
  await t.close();
  rmSync(webRoot, { recursive: true, force: true });
});

/** The bytes as sent and the headers (fetch would decode the body by itself). */
function getRaw(path: string, acceptEncoding?: string, ifNoneMatch?: string) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }>(
    (resolve, reject) => {
      const headers = {
        ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
        ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}),
      };
      get(`${t.baseUrl}${path}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            bytes: Buffer.concat(chunks),
          }),
        );
      }).on('error', reject);
    },
  );
}

describe('web assets', () => {
  it('sends the Brotli form the build wrote when the client accepts br, cached for good', async () => {
    const { status, headers, bytes } = await getRaw('/assets/index-abc123.js', 'gzip, deflate, br');
    expect(status).toBe(200);
    expect(headers['content-encoding']).toBe('br');
    expect(headers['content-type']).toMatch(/^text\/javascript/);
    expect(headers['vary']).toMatch(/Accept-Encoding/i);
    expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(bytes).toString()).toBe(script);
  });

  it('sends gzip to a client that accepts only gzip, and the file as is to one that accepts neither', async () => {
    const gzipped = await getRaw('/assets/index-abc123.js', 'gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.bytes).toString()).toBe(script);

    const plain = await getRaw('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(plain.bytes.toString()).toBe(script);
    expect(plain.headers['cache-control']).toContain('immutable');
  });

  it('each form has its own ETag, and a conditional GET with it is a 304', async () => {
    const br = await getRaw('/assets/index-abc123.js', 'br');
    const gz = await getRaw('/assets/index-abc123.js', 'gzip');
    const etag = String(br.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(gz.headers['etag']).not.toBe(etag);
    const again = await getRaw('/assets/index-abc123.js', 'br', etag);
    expect(again.status).toBe(304);
    expect(again.bytes).toHaveLength(0);
  });

  it('a file the build did not compress (too small) is sent as is, whatever the client accepts', async () => {
    const { status, headers, bytes } = await getRaw('/assets/small-def456.css', 'br, gzip');
    expect(status).toBe(200);
    expect(headers['content-encoding']).toBeUndefined();
    expect(bytes.toString()).toBe('a{color:red}');
  });
});
