import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocument, restTypes } from '../scripts/rest-types';
import type * as Client from '../src/index';
import {
  ADMIN,
  clientDir,
  removeScratchDirs,
  repoDir,
  run,
  scratchDir,
  startServer,
  type Server,
} from './support';

/*
 * What a TypeScript project outside the repository does with the client: install the packed
 * tarball (with its peers from the registry), typecheck a program under NodeNext and Bundler
 * resolution, strict and without skipLibCheck, and run it against a server.
 */

const exampleDir = join(repoDir, 'examples/node-client');
let server: Server | undefined;
let consumerDir: string;

/** `pnpm pack` (its prepack builds the package), then the example installed from the tarball by npm. */
async function installExample() {
  const packDir = scratchDir('pack');
  await run(
    join(repoDir, 'node_modules/.bin/pnpm'),
    ['pack', '--pack-destination', packDir],
    clientDir,
  );
  const [tarball] = readdirSync(packDir).filter((name) => name.endsWith('.tgz'));
  consumerDir = scratchDir('consumer');
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.bundler.json', 'src'])
    cpSync(join(exampleDir, file), join(consumerDir, file), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(consumerDir, 'package.json'), 'utf8'));
  manifest.dependencies['@campus/client'] = `file:${join(packDir, tarball!)}`;
  writeFileSync(join(consumerDir, 'package.json'), JSON.stringify(manifest, null, 2));
  await run('npm', ['install', '--no-audit', '--no-fund'], consumerDir);
}

beforeAll(async () => {
  const started = startServer().then((s) => (server = s));
  await Promise.all([started, installExample()]);
}, 600_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    const exited = new Promise((resolve) => server!.child.once('exit', resolve));
    server.child.kill('SIGKILL');
    await exited;
  }
  removeScratchDirs();
});

describe('@campus/client installed from its tarball outside the repository', () => {
  it("has declarations that name no server-side package, only tRPC's and openapi-fetch", () => {
    const dist = join(consumerDir, 'node_modules/@campus/client/dist');
    const declarations = readdirSync(dist, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.d.ts'))
      .map((file) => readFileSync(join(dist, file), 'utf8'));
    // What each declaration file imports or references, as the compiler reads it (not comments).
    const imported = new Set(
      declarations.flatMap((text) => {
        const { importedFiles, typeReferenceDirectives } = ts.preProcessFile(text, true, true);
        return [...importedFiles, ...typeReferenceDirectives].map((file) => file.fileName);
      }),
    );
    const packages = [...imported].filter((specifier) => !specifier.startsWith('.'));
    expect(packages.sort()).toEqual(['@trpc/client', '@trpc/server', 'openapi-fetch']);
  });

  it('typechecks under NodeNext and Bundler, where a wrong input type is an error', async () => {
    const tsc = join(consumerDir, 'node_modules/.bin/tsc');
    const started = performance.now();
    await run(tsc, ['-p', 'tsconfig.json'], consumerDir);
    console.log(`consumer typecheck (NodeNext): ${Math.round(performance.now() - started)} ms`);
    await run(tsc, ['-p', 'tsconfig.bundler.json'], consumerDir);
    // The example's `@ts-expect-error` line fails the check if `limit: 'three'` were accepted.
    const source = readFileSync(join(consumerDir, 'src/main.ts'), 'utf8');
    expect(source).toMatch(/@ts-expect-error[^\n]*\n\s*limit: 'three'/);
  }, 300_000);

  it('runs against the server: calls, batching, a live stream, errors and REST', async () => {
    const output = await run(process.execPath, ['dist/main.js'], consumerDir, {
      CAMPUS_URL: server!.url,
      CAMPUS_EMAIL: ADMIN.email,
      CAMPUS_PASSWORD: ADMIN.password,
    });
    expect(output).toContain('ok: streams.post delivers the like live');
    expect(output).toContain('example: every step passed');
  }, 120_000);

  it("batches within the server's bound: MAX_BATCH_SIZE + 1 calls at once are two requests", async () => {
    const entry = join(consumerDir, 'node_modules/@campus/client/dist/index.js');
    const installed = (await import(pathToFileURL(entry).href)) as typeof Client;
    let requests = 0;
    const client = installed.createClient({
      url: server!.url,
      fetch: (input, init) => {
        requests += 1;
        return fetch(input, init);
      },
    });
    const calls = Array.from({ length: installed.MAX_BATCH_SIZE + 1 }, () =>
      client.localities.estados.query(),
    );
    const answers = await Promise.all(calls);
    expect(answers.every((answer) => answer.dados.length === 27)).toBe(true);
    expect(requests).toBe(2);
  });

  it("has REST types that are openapi-typescript's reading of the served /openapi.json", async () => {
    const served = (await (await fetch(`${server!.url}/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    const apiPaths = Object.keys(apiDocument().paths ?? {});
    expect(Object.keys(served.paths)).toEqual(expect.arrayContaining(apiPaths));
    // The host's own paths (probes) aside, the served document is what the build read.
    const operations = Object.fromEntries(apiPaths.map((path) => [path, served.paths[path]]));
    const generated = readFileSync(join(clientDir, 'src/generated/rest.ts'), 'utf8');
    expect(await restTypes({ ...served, paths: operations })).toBe(generated);
  }, 120_000);
});
