/**
 * Renders the app icons and the Open Graph preview (public/icons/*.png) from public/icons/icon.svg
 * in Chromium. Run by hand after changing the SVG (`node build/render-icons.mjs` in apps/web); the
 * PNGs are committed, so the build needs no browser.
 */
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
const svg = readFileSync('public/icons/icon.svg', 'utf8');
const full = svg.replace(' rx="112"', ''); // maskable: full-bleed background, mark inside the safe zone
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const page = await browser.newPage();
async function render(source, size, out, transparent = true) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${source.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`,
  );
  await page.screenshot({ path: out, omitBackground: transparent });
}
await render(svg, 192, 'public/icons/icon-192.png');
await render(svg, 512, 'public/icons/icon-512.png');
await render(full, 512, 'public/icons/maskable-512.png', false);
await render(full, 180, 'public/icons/apple-touch-icon.png', false);
// Open Graph preview: 1200×630, the mark and the name.
await page.setViewportSize({ width: 1200, height: 630 });
await page.setContent(
  `<html><body style="margin:0;width:1200px;height:630px;background:#174a96;display:flex;align-items:center;justify-content:center;gap:48px;font-family:sans-serif;color:#fff">${svg.replace('<svg ', '<svg width="260" height="260" ')}<div><div style="font-size:112px;font-weight:700">Campus</div><div style="font-size:40px;opacity:.9">Feed, partidas e grupos da universidade</div></div></body></html>`,
);
await page.screenshot({ path: 'public/icons/og-image.png' });
await browser.close();
