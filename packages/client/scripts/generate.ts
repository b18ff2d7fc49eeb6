import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { apiDocument, restTypes } from './rest-types';
import { routerTypes } from './router-types';

/*
 * Writes src/generated/: the app router's client-side type (router.ts) and the REST types
 * (rest.ts), both read from packages/api as it is now. Run by `build` and `typecheck`.
 */
const apiDir = fileURLToPath(new URL('../../api/', import.meta.url));
const outDir = fileURLToPath(new URL('../src/generated/', import.meta.url));

const config = ts.getParsedCommandLineOfConfigFile(
  `${apiDir}tsconfig.json`,
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  },
);
if (!config) throw new Error(`cannot read ${apiDir}tsconfig.json`);

mkdirSync(outDir, { recursive: true });
writeFileSync(`${outDir}router.ts`, routerTypes(`${apiDir}src/root.ts`, config.options));
writeFileSync(`${outDir}rest.ts`, await restTypes(apiDocument()));
