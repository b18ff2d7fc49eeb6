import { domainProcedures } from '../trpc';

/** What the match procedures share: their builder (English errors), tag and common errors. */
export const { authedProcedure, publicProcedure } = domainProcedures('en');
export const tags = ['Matches'];
export const unauthorized = { 401: 'Token missing or invalid' };
export const badId = { 400: 'id is not a UUID' };
