import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's own packages that run in production, and what they depend on. */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
export const productionPackages = ['apps/server', 'packages/api', 'packages/core'].map((dir) => ({
  dir,
  manifest: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  },
}));

/** Third-party production dependencies of the service (workspace packages left out). */
export const productionDependencies = [
  ...new Set(
    productionPackages.flatMap((p) =>
      Object.keys(p.manifest.dependencies ?? {}).filter((name) => !name.startsWith('@campus/')),
    ),
  ),
].sort();

/** Every TypeScript source file that ships (tests left out), with its text. */
export function productionSources(): { file: string; text: string }[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ts$/.test(name) && !/\.test\.ts$/.test(name)) files.push(path);
    }
  };
  for (const p of productionPackages) walk(join(root, p.dir, 'src'));
  return files.map((file) => ({ file: file.slice(root.length), text: readFileSync(file, 'utf8') }));
}
