import base from '@campus/eslint-config';

/** The benchmarks are a tool: they read their own settings and hand env to the servers they start. */
export default [...base, { rules: { 'no-restricted-properties': 'off' } }];
