import base from '@campus/eslint-config';

export default [
  ...base,
  // Test tooling reads the test environment's variables (TEST_*, CI), as tests do.
  { files: ['src/**'], rules: { 'no-restricted-properties': 'off' } },
];
