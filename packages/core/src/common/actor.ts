import { forbidden, type Reason } from '../errors';
import type { Perfil, UserStatus } from './user-enums';

/**
 * The signed-in user a call acts for, as authentication produces it: every domain service takes
 * this one shape (no per-domain "viewer" or "caller").
 */
export interface Actor {
  id: string;
  nickname: string;
  role: Perfil;
  status: UserStatus;
}

/** A member's role in a group (docs/contract/groups.md, Members). */
export const GROUP_ROLES = ['OWNER', 'ADMIN', 'MEMBER'] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];

export const isSiteAdmin = (actor: Pick<Actor, 'role'>): boolean => actor.role === 'ADMIN';

/** Something that belongs to a user and, optionally, is managed by a group. */
export interface Owned {
  /** The user who owns it (a post's author, a match's creator, a comment's author). */
  ownerId: string;
  /** The actor's role in the group the thing belongs to, if it belongs to one. */
  actorGroupRole?: GroupRole | null | undefined;
}

/**
 * The one rule for "may this actor change this thing": its owner, an OWNER or ADMIN of the
 * group it belongs to, or a site ADMIN.
 */
export function mayChange(actor: Actor, thing: Owned): boolean {
  return (
    isSiteAdmin(actor) ||
    actor.id === thing.ownerId ||
    thing.actorGroupRole === 'OWNER' ||
    thing.actorGroupRole === 'ADMIN'
  );
}

/** `mayChange`, or a 403 with the given message (reason `NOT_OWNER` unless said). */
export function assertMayChange(
  actor: Actor,
  thing: Owned,
  message: string,
  reason: Reason = 'NOT_OWNER',
): void {
  if (!mayChange(actor, thing)) throw forbidden(message, reason);
}
