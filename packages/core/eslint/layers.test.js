import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import { downward } from './layers.js';

RuleTester.describe = describe;
RuleTester.it = it;

const root = '/core/src';
const levels = [['errors'], ['db'], ['users'], ['groups'], ['feed', 'matches'], ['index']];
const options = [{ root, levels }];
const at = (file) => `${root}/${file}`;

new RuleTester().run('core-layers/downward', downward, {
  valid: [
    { code: "import { posts } from './table';", filename: at('feed/service.ts'), options },
    {
      code: "import { roleIn } from '../groups/access';",
      filename: at('feed/service.ts'),
      options,
    },
    { code: "import { notFound } from '../errors';", filename: at('users/records.ts'), options },
    { code: "export * from './feed/schemas';", filename: at('index.ts'), options },
    // The table list takes every table, from any level.
    { code: "export * from '../feed/table';", filename: at('db/schema.ts'), options },
    // Packages and files outside src are not core's layers.
    { code: "import { z } from 'zod';", filename: at('feed/service.ts'), options },
    { code: "import x from '../../drizzle/x';", filename: at('feed/service.ts'), options },
  ],
  invalid: [
    {
      code: "import { posts } from '../feed/table';",
      filename: at('groups/service.ts'),
      options,
      errors: [
        { messageId: 'upward', data: { from: 'groups', to: 'feed', fromLevel: 3, toLevel: 4 } },
      ],
    },
    {
      // Folders on one level do not import each other either.
      code: "export { seats } from '../matches/seats';",
      filename: at('feed/interactions.ts'),
      options,
      errors: [{ messageId: 'upward' }],
    },
    {
      code: "const m = import('../feed/service');",
      filename: at('users/records.ts'),
      options,
      errors: [{ messageId: 'upward' }],
    },
    {
      // Only db/schema.ts lists tables.
      code: "import { posts } from '../feed/table';",
      filename: at('db/client.ts'),
      options,
      errors: [{ messageId: 'upward' }],
    },
    {
      code: "import { x } from '../mail/outbox';",
      filename: at('feed/service.ts'),
      options,
      errors: [{ messageId: 'unplaced', data: { area: 'mail' } }],
    },
  ],
});
