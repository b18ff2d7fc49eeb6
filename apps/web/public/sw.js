/*
 * The Campus service worker (docs/contract/push.md, "The web client"): keeps the app shell so a
 * second visit starts without the network, shows pushed notifications, and opens their deep
 * link on a tap. Plain JavaScript served as is from /sw.js (scope /); never caches the API.
 */
const SHELL = 'campus-shell-v1';
const ICON = '/icons/icon-192.png';

/** index.html, the files it names under /assets/, the manifest and the icon. */
async function cacheShell() {
  const cache = await caches.open(SHELL);
  const page = await fetch('/', { headers: { accept: 'text/html' }, cache: 'no-cache' });
  if (!page.ok) return;
  const html = await page.clone().text();
  await cache.put('/', page);
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
  await cache.addAll([...new Set([...assets, '/manifest.webmanifest', ICON])]);
}

self.addEventListener('install', (event) => {
  event.waitUntil(cacheShell().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key !== SHELL) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

/** A page: the network (its answer becomes the shell), else the kept shell. */
async function page(request) {
  const cache = await caches.open(SHELL);
  try {
    const fresh = await fetch(request);
    if (fresh.ok) await cache.put('/', fresh.clone());
    return fresh;
  } catch (error) {
    const shell = await cache.match('/');
    if (shell) return shell;
    throw error;
  }
}

/** Files named by their content hash (and icons): the kept copy, else the network, kept. */
async function file(request) {
  const cache = await caches.open(SHELL);
  const kept = await cache.match(request);
  if (kept) return kept;
  const fresh = await fetch(request);
  if (fresh.ok) await cache.put(request, fresh.clone());
  return fresh;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') event.respondWith(page(request));
  else if (
    url.pathname.startsWith('/assets/') ||
    url.pathname.startsWith('/icons/') ||
    url.pathname === '/manifest.webmanifest'
  )
    event.respondWith(file(request));
});

/** `{notificationId, type, title, body, url}`, decrypted by the browser. */
self.addEventListener('push', (event) => {
  let message;
  try {
    message = event.data ? event.data.json() : undefined;
  } catch {
    message = undefined;
  }
  if (!message || typeof message.title !== 'string') return;
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      icon: ICON,
      badge: ICON,
      lang: 'pt-BR',
      // One per notification: a repeated delivery replaces it instead of showing twice.
      tag: message.notificationId,
      data: { url: message.url },
    }),
  );
});

/** A tap: the deep link (own origin only) in an open tab, focused, or in a new one. */
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? '/notificacoes', self.location.origin);
  if (target.origin !== self.location.origin) return;
  const path = target.pathname + target.search;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === target.origin);
      if (!open) return void (await self.clients.openWindow(path));
      // The tab follows the link with its router, then comes to the front.
      open.postMessage({ type: 'campus:open', url: path });
      await open.focus();
    })(),
  );
});
