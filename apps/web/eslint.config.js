export { default } from '@campus/eslint-config';
