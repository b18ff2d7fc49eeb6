import { loginInput } from '@campus/core/schemas';
import { checked } from '../lib/validate';

/**
 * The login form's check before sending, with the API's own schema. A chunk of its own, fetched
 * once the login page shows: zod stays out of the first load's JS (issue 17: ≤110 kB gzip).
 */
export const checkLogin = (values: { email: string; senha: string }) =>
  checked(loginInput, values, 'pt');
