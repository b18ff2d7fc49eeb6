import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { get, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';

/** A built web app as apps/web's build writes it: hashed assets with their .br and .gz beside them. */
const webSources = fileURLToPath(new URL('../../web/', import.meta.url));
const webRoot = mkdtempSync(join(tmpdir(), 'campus-web-assets-'));
const script = `console.log(${JSON.stringify('Campus '.repeat(500))});`;
let t: TestApp;

beforeAll(async () => {
  mkdirSync(join(webRoot, 'assets'));
  // The app's own page and manifest, as the build copies them.
  copyFileSync(join(webSources, 'index.html'), join(webRoot, 'index.html'));
  copyFileSync(
    join(webSources, 'public', 'manifest.webmanifest'),
    join(webRoot, 'manifest.webmanifest'),
  );
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

describe('the app page, as link previews and installs read it', () => {
  const page = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${t.baseUrl}${path}`, { headers: { accept: 'text/html', ...headers } });

  it('a deep link answers the app page with absolute Open Graph addresses for that link', async () => {
    const response = await page('/partidas/0b6d1f8e-2c1a-4a57-9a51-3f1d5e2b7c90?x=1');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    const origin = t.baseUrl;
    expect(html).toContain(
      `<meta property="og:url" content="${origin}/partidas/0b6d1f8e-2c1a-4a57-9a51-3f1d5e2b7c90?x=1" />`,
    );
    expect(html).toContain(`<meta property="og:image" content="${origin}/icons/og-image.png" />`);
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
  });

  it('every shared address of the web app answers the app page, none the API', async () => {
    const id = '0b6d1f8e-2c1a-4a57-9a51-3f1d5e2b7c90';
    for (const path of [
      '/feed',
      `/feed/${id}`,
      `/partidas/${id}`,
      `/grupos/${id}`,
      '/notificacoes',
    ]) {
      const response = await page(path);
      expect([path, response.status]).toEqual([path, 200]);
      expect(response.headers.get('content-type'), path).toMatch(/^text\/html/);
    }
  });

  it('a forwarded host counts only through a trusted proxy', async () => {
    const html = await (await page('/feed', { 'x-forwarded-host': 'evil.example' })).text();
    expect(html).not.toContain('evil.example');
  });

  it('a link with markup in it is written as text, not as HTML', async () => {
    // A raw request line: fetch and http.get would percent-encode the quotes and brackets.
    const { port } = new URL(t.baseUrl);
    const html = await new Promise<string>((resolve, reject) => {
      let answer = '';
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(
          'GET /feed/"><script>alert(1)</script> HTTP/1.1\r\nHost: campus.test\r\n' +
            'Accept: text/html\r\nConnection: close\r\n\r\n',
        ),
      );
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });
    expect(html).toContain(
      'content="http://campus.test/feed/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" />',
    );
    expect(html).not.toMatch(/<script>alert/);
  });

  it('the web manifest is served as one, with the icons it names', async () => {
    const response = await fetch(`${t.baseUrl}/manifest.webmanifest`);
    expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await response.json()) as { icons: { sizes: string }[]; start_url: string };
    expect(manifest.start_url).toBe('/feed');
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(
      expect.arrayContaining(['192x192', '512x512']),
    );
  });
});
