import path from 'node:path';

/**
 * The levels of packages/core/src, lowest first (docs/architecture-core.md). A module imports
 * from its own folder or from a folder on a lower level, never sideways or up. A root file is its
 * own area, named without its extension.
 */
export const CORE_LEVELS = [
  ['errors'],
  ['common'],
  ['db'],
  ['users'],
  ['events'],
  [
    'auth',
    'localities',
    'notifications',
    'mail',
    'idempotency',
    'rate-limits',
    'examples',
    'media',
  ],
  ['students', 'groups', 'admin'],
  ['feed', 'matches'],
  ['moderation', 'calendar'],
  ['accounts'],
  ['services', 'schemas', 'testing'],
  ['index'],
];

/** The one exception: the list of tables drizzle's typed client takes imports every `table.ts`. */
export const TABLE_LIST = 'db/schema.ts';

const areaOf = (relative) => {
  const [first, ...rest] = relative.split(path.sep);
  return rest.length > 0 ? first : first.replace(/\.[cm]?[jt]sx?$/, '');
};

/** `core-layers/downward`: options `{ root, levels }` (root: the absolute path of core's src). */
export const downward = {
  meta: {
    type: 'problem',
    docs: { description: "packages/core's imports run downward, level by level" },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          levels: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
        },
        required: ['root', 'levels'],
        additionalProperties: false,
      },
    ],
    messages: {
      upward:
        '{{from}} (level {{fromLevel}}) may not import {{to}} (level {{toLevel}}): imports in core run downward (docs/architecture-core.md)',
      unplaced: '{{area}} has no level: add it to CORE_LEVELS (packages/core/eslint/layers.js)',
    },
  },
  create(context) {
    const { root, levels } = context.options[0];
    const levelOf = new Map(levels.flatMap((names, level) => names.map((n) => [n, level])));
    const file = path.relative(root, context.filename);
    if (file.startsWith('..') || path.isAbsolute(file)) return {};
    const from = areaOf(file);

    function check(node, source) {
      if (typeof source?.value !== 'string' || !source.value.startsWith('.')) return;
      const target = path.relative(
        root,
        path.resolve(path.dirname(context.filename), source.value),
      );
      if (target.startsWith('..')) return;
      const to = areaOf(target);
      if (to === from) return;
      if (file === TABLE_LIST.split('/').join(path.sep) && path.basename(target) === 'table')
        return;
      for (const area of [from, to]) {
        if (!levelOf.has(area)) {
          context.report({ node, messageId: 'unplaced', data: { area } });
          return;
        }
      }
      const fromLevel = levelOf.get(from);
      const toLevel = levelOf.get(to);
      if (toLevel >= fromLevel)
        context.report({ node, messageId: 'upward', data: { from, to, fromLevel, toLevel } });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

export default { rules: { downward } };
