import tseslint from 'typescript-eslint';

/** Shared lint rules. `process.env` is read in one place only: apps/server/src/config.ts. */
export default tseslint.config(
  { ignores: ['dist/**', 'drizzle/**', 'node_modules/**'] },
  ...tseslint.configs.recommended,
  {
    // Type-aware rules where they catch real bugs: a promise nobody awaits loses its error, and
    // an async function passed where a void callback is expected runs unobserved.
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through the validated config.',
        },
      ],
    },
  },
  {
    // Entry points hand process.env to the config loader; tests and tool configs read it freely.
    files: [
      '**/src/main.ts',
      '**/src/migrate.ts',
      '**/*.test.ts',
      '**/test/**',
      '**/*.config.ts',
      'scripts/**',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
);
