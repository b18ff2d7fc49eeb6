import base from '@campus/eslint-config';

export default [
  ...base,
  {
    // Routers call core's services; queries are written in packages/core only.
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['drizzle-orm', 'drizzle-orm/*', '@campus/core/db'],
              message: 'Call a service of @campus/core instead of querying the database here.',
            },
          ],
        },
      ],
    },
  },
];
