// Bundles the server and the workspace packages it imports into dist/main.js; npm dependencies
// stay external (installed in node_modules). The migrations are copied beside the bundle.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const workspace = (deps) =>
  Object.entries(deps ?? {})
    .filter(([, v]) => String(v).startsWith('workspace:'))
    .map(([n]) => n);
const internal = new Set(workspace(pkg.dependencies));
// Externals: every dependency of the server and of its workspace packages, except those packages.
const external = new Set();
for (const dir of ['..', '../../../packages/core', '../../../packages/api']) {
  const p = JSON.parse(readFileSync(new URL(`${dir}/package.json`, import.meta.url), 'utf8'));
  for (const name of Object.keys(p.dependencies ?? {})) if (!internal.has(name)) external.add(name);
}

// The bundle imports these at run time from the server's own node_modules (pnpm links only
// declared dependencies): each must be a dependency of the server package itself.
const missing = [...external].filter((name) => !(name in (pkg.dependencies ?? {})));
if (missing.length) {
  console.error(
    `apps/server/package.json must list these runtime dependencies: ${missing.join(', ')}`,
  );
  process.exit(1);
}

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts', 'src/migrate.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // Mappings only: stack traces (node --enable-source-maps) name the source file and line; the
  // sources themselves are in the repository. With them, the map held in memory was 3× larger.
  sourcemap: true,
  sourcesContent: false,
  external: [...external].flatMap((name) => [name, `${name}/*`]),
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  logLevel: 'warning',
});
cpSync(
  new URL('../../../packages/core/drizzle', import.meta.url),
  new URL('../dist/migrations', import.meta.url),
  { recursive: true },
);
console.log('built dist/main.js');
