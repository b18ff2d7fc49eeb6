/**
 * `pnpm --filter @campus/bench bench:mobile-lcp`: the first load of the web app on a phone
 * network (issues 17 and 35). Starts the built server (`pnpm build` first: apps/server/dist and
 * apps/web/dist) on embedded PGlite in a temporary DATA_DIR, then loads the login page, and the
 * feed of a logged-in student (12 posts seeded), 5 times each in Debian's Chromium, each in a
 * fresh profile (cold cache), under a mobile profile: 1.6 Mbps down, 750 kbps up, 150 ms round
 * trip, CPU 4× slower, a 390×844 phone screen. Prints each load's Largest Contentful Paint and
 * Cumulative Layout Shift, their medians, and the gzip size of the initial JS (the entry script
 * and the modules it preloads, as index.html names them). Each load also says where its time went
 * (TIMELINE: the network's part and the main thread's). Exits 1 when a median LCP is over its
 * limit (login 1.5 s, feed 2.0 s), a CLS over 0.1, or the initial JS over 110 kB.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ROOT, log, startServer, stopProcess } from './support';

const LOADS = 5;
const LCP_LIMIT_MS = { login: 1_500, feed: 2_000 };
const CLS_LIMIT = 0.1;
const JS_LIMIT_BYTES = 110 * 1024;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MOBILE = {
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
  cpuSlowdown: 4,
};

/**
 * Records the page's last Largest Contentful Paint as `window.__lcp` (ms since navigation) and
 * its layout shifts not caused by input, summed, as `window.__cls`.
 */
const LCP_OBSERVER = `
  window.__lcp = 0;
  window.__cls = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__cls += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
`;

/**
 * Where a load's time went, in ms since navigation: the document received, the entry script's
 * request and arrival, each API call's, and the main thread's long tasks (over 50 ms: the scripts'
 * parse and run under the CPU slowdown) before the LCP. Evaluated in the page.
 */
const TIMELINE = `(() => {
  const lcp = window.__lcp;
  const ms = (value) => Math.round(value);
  const span = (r) => ms(r.startTime) + '–' + ms(r.responseEnd);
  const resources = performance.getEntriesByType('resource');
  const entry = resources.find((r) => /\\/assets\\/index-[^/]*\\.js$/.test(r.name));
  const calls = resources
    .filter((r) => r.initiatorType === 'fetch' || r.initiatorType === 'xmlhttprequest')
    .map((r) => new URL(r.name).pathname.replace('/trpc/', '') + ' ' + span(r));
  const busy = window.__longTasks
    .filter(([start]) => start < lcp)
    .reduce((sum, [, duration]) => sum + duration, 0);
  return 'document ' + ms(performance.getEntriesByType('navigation')[0].responseEnd) +
    ', entry script ' + (entry ? span(entry) : '?') +
    ', calls ' + (calls.join(', ') || 'none') + ', long tasks before LCP ' + ms(busy);
})()`;

const STUDENT = {
  nome: 'Bench Estudante',
  nickname: 'bench_lcp',
  email: 'bench.lcp@campus.test',
  senha: 'senha-bench-123',
};

/** A registered student with 12 posts in the feed; each call logs in again: a refresh token. */
async function seedStudent(url: string) {
  const post = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const login = async () =>
    (await post('/autenticacao/login', { email: STUDENT.email, senha: STUDENT.senha })).dados as {
      accessToken: string;
      refreshToken: string;
      usuario: { id: string; nickname: string };
    };
  await post('/autenticacao/cadastro', {
    ...STUDENT,
    confirmacaoSenha: STUDENT.senha,
    instituicao: 'Universidade de São Paulo (USP)',
    curso: 'Engenharia de Computação',
    periodo: '3º período',
    dataNascimento: '2003-05-17',
    nacionalidade: 'Brasileira',
    estado: 'SP',
    cidade: 'São Paulo',
    escolaridade: 'Graduação',
  });
  const { accessToken, usuario } = await login();
  for (let i = 1; i <= 12; i++) {
    const content = `Quem topa estudar cálculo na biblioteca amanhã às ${i}h? Levo os exercícios.`;
    const body = { title: `Grupo de estudos ${i}`, content, type: 'GENERAL' };
    await post('/post', { ...body, author: usuario.nickname, authorId: usuario.id }, accessToken);
  }
  return async () => (await login()).refreshToken;
}

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
  const results: Record<'login' | 'feed', { lcp: number; cls: number }[]> = { login: [], feed: [] };
  try {
    const refreshToken = await seedStudent(server.url);
    for (const [name, path] of [
      ['login', '/entrar'],
      ['feed', '/feed'],
    ] as const) {
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
        // A logged-in student: the session's refresh token where the app keeps it.
        if (name === 'feed') {
          const token = await refreshToken();
          await context.addInitScript(
            `localStorage.setItem('campus.refreshToken', ${JSON.stringify(token)})`,
          );
        }
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
        await page.goto(`${server.url}${path}`, { waitUntil: 'load', timeout: 60_000 });
        const ready =
          name === 'login'
            ? page.getByRole('button', { name: 'Entrar', exact: true })
            : page.locator('article.post-item').first();
        await ready.waitFor({ timeout: 60_000 });
        // Let the last paint land and be reported.
        await page.waitForTimeout(1_000);
        const lcp = Number(await page.evaluate('window.__lcp'));
        const cls = Number(await page.evaluate('window.__cls'));
        results[name].push({ lcp, cls });
        log(`${name} load ${i + 1}: LCP ${Math.round(lcp)} ms, CLS ${cls.toFixed(3)}`);
        log(`  ${String(await page.evaluate(TIMELINE))}`);
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
  const jsKb = js.bytes / 1024;
  let over = js.bytes > JS_LIMIT_BYTES;
  for (const name of ['login', 'feed'] as const) {
    const lcp = median(results[name].map((r) => r.lcp));
    const cls = median(results[name].map((r) => r.cls));
    console.log(
      `${name} page, median of ${LOADS} cold loads (1.6 Mbps, 150 ms RTT, CPU 4×): LCP ${Math.round(lcp)} ms ` +
        `(limit ${LCP_LIMIT_MS[name]}), CLS ${cls.toFixed(3)} (limit ${CLS_LIMIT})`,
    );
    over ||= lcp > LCP_LIMIT_MS[name] || cls > CLS_LIMIT;
  }
  console.log(`initial JS ${jsKb.toFixed(1)} kB gzip (limit ${JS_LIMIT_BYTES / 1024})`);
  if (over) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
