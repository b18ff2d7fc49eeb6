/**
 * `pnpm --filter @campus/bench bench:mobile-lcp`: the first load of the web app on a phone
 * network (issue 17). Starts the built server (`pnpm build` first: apps/server/dist and
 * apps/web/dist) on embedded PGlite in a temporary DATA_DIR, then loads the login page 5 times in
 * Debian's Chromium, each in a fresh profile (cold cache), under a mobile profile: 1.6 Mbps down,
 * 750 kbps up, 150 ms round trip, CPU 4× slower, a 390×844 phone screen. Prints each load's
 * Largest Contentful Paint, their median, and the gzip size of the initial JS (the entry script
 * and the modules it preloads, as index.html names them). Exits 1 when the median is over 2.0 s
 * or the initial JS over 110 kB.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ROOT, log, startServer, stopProcess } from './support';

const LOADS = 5;
const LCP_LIMIT_MS = 2_000;
const JS_LIMIT_BYTES = 110 * 1024;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MOBILE = {
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
  cpuSlowdown: 4,
};

/** Records the page's last Largest Contentful Paint as `window.__lcp` (ms since navigation). */
const LCP_OBSERVER = `
  window.__lcp = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
`;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The scripts a first load runs before anything else: the entry and its modulepreloads. */
function initialJsGzip(): { files: string[]; bytes: number } {
  const dist = join(ROOT, 'apps/web/dist');
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = [
    ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
  ].map((m) => m[1]!);
  const bytes = files.reduce(
    (sum, file) => sum + gzipSync(readFileSync(join(dist, file)), { level: 9 }).length,
    0,
  );
  return { files, bytes };
}

async function main() {
  const js = initialJsGzip();
  log(`initial JS: ${js.files.join(', ')}: ${(js.bytes / 1024).toFixed(1)} kB gzip`);
  const dataDir = mkdtempSync(join(tmpdir(), 'campus-bench-lcp-'));
  const server = await startServer('server (mobile LCP)', { DATA_DIR: dataDir });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const lcps: number[] = [];
  try {
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        locale: 'pt-BR',
      });
      // Through the DevTools protocol: the page's CSP does not apply to an init script.
      await context.addInitScript(LCP_OBSERVER);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: MOBILE.latency,
        downloadThroughput: MOBILE.downloadThroughput,
        uploadThroughput: MOBILE.uploadThroughput,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE.cpuSlowdown });
      await page.goto(`${server.url}/entrar`, { waitUntil: 'load', timeout: 60_000 });
      await page.getByRole('button', { name: 'Entrar', exact: true }).waitFor({ timeout: 60_000 });
      // Let the last paint land and be reported.
      await page.waitForTimeout(1_000);
      const lcp = Number(await page.evaluate('window.__lcp'));
      lcps.push(lcp);
      log(`load ${i + 1}: LCP ${Math.round(lcp)} ms`);
      await context.close();
    }
  } finally {
    await browser.close();
    await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
  const lcp = median(lcps);
  const jsKb = js.bytes / 1024;
  console.log(
    `login page LCP, median of ${LOADS} cold loads (1.6 Mbps, 150 ms RTT, CPU 4×): ${Math.round(lcp)} ms ` +
      `(limit ${LCP_LIMIT_MS}); initial JS ${jsKb.toFixed(1)} kB gzip (limit ${JS_LIMIT_BYTES / 1024})`,
  );
  if (lcp > LCP_LIMIT_MS || js.bytes > JS_LIMIT_BYTES) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
