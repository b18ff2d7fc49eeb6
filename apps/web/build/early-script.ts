import { resolve } from 'node:path';
import type { HtmlTagDescriptor, Plugin, Rollup } from 'vite';
import { LANDING_CHUNKS_ID } from '../src/session/landing-chunks';

/** The page's first script (src/session/early.ts): a returning student's renewal, started early. */
const SOURCE = 'src/session/early.ts';
const ENTRY = 'early';

/**
 * Per address, the built files of the modules `landing` names and of what they import, without
 * what the page's entries already load: what to preload for a returning student landing there.
 */
function chunkLists(
  bundle: Rollup.OutputBundle,
  root: string,
  landing: Record<string, string[]>,
): Record<string, string[]> {
  const chunks = Object.values(bundle).filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const withImports = (files: string[], seen = new Set<string>()) => {
    for (const file of files) {
      if (seen.has(file)) continue;
      seen.add(file);
      withImports(byFile.get(file)?.imports ?? [], seen);
    }
    return seen;
  };
  const initial = withImports(chunks.filter((chunk) => chunk.isEntry).map((c) => c.fileName));
  const fileOf = (module: string) => {
    const id = resolve(root, module);
    const chunk = chunks.find((c) => c.moduleIds.includes(id));
    if (!chunk) throw new Error(`earlyScript: ${module} is in no chunk of the build`);
    return chunk.fileName;
  };
  return Object.fromEntries(
    Object.entries(landing).map(([path, modules]) => [
      path,
      [...withImports(modules.map(fileOf))].filter((f) => !initial.has(f)).map((f) => `/${f}`),
    ]),
  );
}

/**
 * Builds `SOURCE` as an entry of its own and lists it in index.html before the app's entry, so
 * that it runs as soon as its few hundred bytes arrive instead of after the whole app (the app
 * imports the same module, so the browser runs it once). Beside it, as data, the files each
 * landing page needs, which it starts downloading (`landing`: address → modules). In dev the
 * source file itself is listed, and nothing is preloaded.
 */
export function earlyScript({ landing }: { landing: Record<string, string[]> }): Plugin {
  let root = process.cwd();
  return {
    name: 'campus:early-script',
    config: () => ({
      build: { rollupOptions: { input: { index: 'index.html', [ENTRY]: SOURCE } } },
    }),
    configResolved: (config) => void (root = config.root),
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const built = Object.values(bundle ?? {}).find(
          (output) => output.type === 'chunk' && output.isEntry && output.name === ENTRY,
        );
        const tags: HtmlTagDescriptor[] = [
          {
            tag: 'script',
            // async: run once here, not after the page's stylesheet, as a deferred script would.
            // At the end of the head: its first 1024 bytes must hold the charset.
            attrs: {
              type: 'module',
              async: true,
              crossorigin: true,
              src: `/${built?.fileName ?? SOURCE}`,
            },
            injectTo: 'head',
          },
        ];
        if (bundle) {
          // A data block, never run: the CSP's same-origin-scripts rule does not concern it.
          const lists = JSON.stringify(chunkLists(bundle, root, landing));
          tags.unshift({
            tag: 'script',
            attrs: { type: 'application/json', id: LANDING_CHUNKS_ID },
            children: lists,
            injectTo: 'head',
          });
        }
        return tags;
      },
    },
  };
}
