import base from '@campus/eslint-config';

export default [...base, { ignores: ['src/generated/**'] }];
