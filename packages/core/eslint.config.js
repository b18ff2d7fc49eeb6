import { fileURLToPath } from 'node:url';
import base from '@campus/eslint-config';
import coreLayers, { CORE_LEVELS } from './eslint/layers.js';

export default [
  ...base,
  {
    // Imports inside core run one way, level by level (docs/architecture-core.md).
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    plugins: { 'core-layers': coreLayers },
    rules: {
      'core-layers/downward': [
        'error',
        { root: fileURLToPath(new URL('./src', import.meta.url)), levels: CORE_LEVELS },
      ],
    },
  },
];
