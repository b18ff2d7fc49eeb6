import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter, ErrorShape } from './generated/router.js';

/*
 * The types a client names, all read from the router (whose inputs and outputs are the zod
 * schemas of packages/core): nothing here is written out again.
 */

/** Each procedure's input as a caller writes it: `RouterInputs['feed']['list']`. */
export type RouterInputs = inferRouterInputs<AppRouter>;
/** Each procedure's answer as it arrives: `RouterOutputs['feed']['get']`. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/** A post of the feed (a general post or an event), as `feed.get` answers it. */
export type Post = RouterOutputs['feed']['get'];
/** A pickup match with its teams, as `matches.get` answers it. */
export type Match = RouterOutputs['matches']['get'];
/** A group (club, athletics, team, union), as `groups.get` answers it. */
export type Group = RouterOutputs['groups']['get'];
/** One notification of the caller's inbox. */
export type Notification = RouterOutputs['notifications']['list']['data'][number];
/** The signed-in account, as `auth.me` answers it. */
export type Usuario = RouterOutputs['auth']['me']['dados'];

/** `error.data` of a failed call. */
export type ErrorData = ErrorShape['data'];
/** The stable word that tells apart the causes one status can have (`MATCH_FULL`, `EMAIL_IN_USE`, …). */
export type Reason = NonNullable<ErrorData['reason']>;
/** The error's code in the service's own error format (`NOT_FOUND`, `CONFLICT`, …). */
export type AppErrorCode = ErrorData['appCode'];
