import { domainProcedures } from '../trpc';

/* Groups (docs/contract/groups.md): English fields and messages, like the feed and matches. */

export const { authedProcedure } = domainProcedures('en');

export const tags = ['Groups'];
export const unauthorized = { 401: 'Token missing or invalid' };
export const noGroup = { 404: 'Group not found (GROUP_NOT_FOUND)' };
export const notManager = {
  403: 'Not an OWNER or ADMIN of the group, nor a site ADMIN (GROUP_FORBIDDEN)',
};
