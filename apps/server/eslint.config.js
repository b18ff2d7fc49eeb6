import base from '@campus/eslint-config';

export default [
  ...base,
  {
    // The host calls core's services; queries are written in packages/core only (tests may seed rows).
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['drizzle-orm', 'drizzle-orm/*'],
              message: 'Call a service of @campus/core instead of querying the database here.',
            },
          ],
        },
      ],
    },
  },
];
