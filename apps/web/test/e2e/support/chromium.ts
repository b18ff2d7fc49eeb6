import { existsSync } from 'node:fs';

/** Debian's Chromium (`apt-get install chromium`); playwright-core downloads no browser here. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];

export const MISSING_CHROMIUM =
  `Chromium not found at ${CHROMIUM_PATH}: the browser tests need Debian's Chromium ` +
  '(apt-get update && apt-get install -y chromium).';

export const hasChromium = () => existsSync(CHROMIUM_PATH);
