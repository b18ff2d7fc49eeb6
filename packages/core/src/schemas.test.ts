import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** Modules a browser bundle must never contain: drivers, database clients, server-only code. */
const FORBIDDEN = [
  /node_modules\/postgres\//,
  /node_modules\/@electric-sql\/pglite\//,
  /node_modules\/jsonwebtoken\//,
  // Not even the table builders: the enum values a schema needs live in `<domain>/enums.ts`.
  /node_modules\/drizzle-orm\//,
  /core\/src\/[a-z-]+\/table\.ts$/,
  /core\/src\/db\//,
  /core\/src\/services\.ts$/,
  /core\/src\/[a-z-]+\/service\.ts$/,
];

/** Bundles an entry of core as Vite would for the browser; node builtins make esbuild fail. */
async function browserInputs(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

const offending = (inputs: string[]) =>
  inputs.filter((input) => FORBIDDEN.some((pattern) => pattern.test(input)));

describe('@campus/core/schemas is browser-safe', () => {
  it('bundles for the browser without database, driver or Node modules', async () => {
    const inputs = await browserInputs('./schemas.ts');
    expect(inputs).toContain('src/common/limits.ts');
    expect(offending(inputs)).toEqual([]);
  });

  it('the same check refuses the server entry (so it can fail)', async () => {
    // The full entry reaches node:crypto (esbuild refuses it for the browser) and the drivers.
    const failure = await browserInputs('./index.ts').then(offending, (error: Error) => [
      error.message,
    ]);
    expect(failure.length).toBeGreaterThan(0);
  });
});
