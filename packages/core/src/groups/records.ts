import type { GroupRole } from '../common/actor';
import type { GroupSummary, JoinRequest, Member } from './schemas';
import { urlOrNull } from '../media/urls';
import type { GroupRow } from './table';

/* Rows → responses. */

const iso = (value: Date | string) => new Date(value).toISOString();

/** `logoKey`: read with the row (`logoKeyOf`, groups/logo.ts). */
export const toGroupSummary = (row: GroupRow & { logoKey: string | null }): GroupSummary => ({
  id: row.id,
  name: row.name,
  description: row.description,
  groupType: row.groupType,
  sports: row.sports,
  acceptingNewMembers: row.acceptingNewMembers,
  verified: row.verified,
  membersCount: row.membersCount,
  followersCount: row.followersCount,
  logoUrl: urlOrNull(row.logoKey),
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export interface UserColumns {
  userId: string;
  userFullName: string;
  userNickname: string;
  userAvatarUrl: string | null;
}

const toGroupUser = (row: UserColumns) => ({
  id: row.userId,
  name: row.userFullName,
  userName: row.userNickname,
  avatarUrl: row.userAvatarUrl,
});

export const toJoinRequest = (
  row: UserColumns & {
    id: string;
    groupId: string;
    status: JoinRequest['status'];
    createdAt: Date;
  },
): JoinRequest => ({
  id: row.id,
  groupId: row.groupId,
  user: toGroupUser(row),
  status: row.status,
  createdAt: iso(row.createdAt),
});

export const toMember = (row: UserColumns & { role: GroupRole; joinedAt: Date }): Member => ({
  user: toGroupUser(row),
  role: row.role,
  joinedAt: iso(row.joinedAt),
});
