import { z } from 'zod';
import { GROUP_ROLES } from '../common/actor';
import { LIMITS } from '../common/limits';
import {
  cursorListResponse,
  cursorPageQuery,
  listResponse,
  pageQuery,
  queryFlag,
} from '../common/pagination';
import { GROUP_TYPES } from './enums';

/*
 * Groups (docs/contract/groups.md): inputs and outputs, messages in English like the feed's.
 * Unknown body keys (counters, `verified` on creation) are stripped by zod, i.e. ignored.
 */

const text = (field: string, min: number, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(min, `${field} must have at least ${min} character${min === 1 ? '' : 's'}`)
    .max(max, `${field} must have at most ${max} characters`);

const flag = queryFlag;

export const groupTypeSchema = z.enum(GROUP_TYPES, {
  error: `groupType must be one of ${GROUP_TYPES.join(', ')}`,
});
export const groupRoleSchema = z.enum(GROUP_ROLES, {
  error: `role must be one of ${GROUP_ROLES.join(', ')}`,
});

const editable = {
  name: text('name', LIMITS.group.name.min, LIMITS.group.name.max),
  description: text('description', 0, LIMITS.group.description.max).nullish(),
  groupType: groupTypeSchema,
  sports: z
    .array(text('sports[]', LIMITS.group.sport.min, LIMITS.group.sport.max), {
      error: 'sports must be an array of strings',
    })
    .max(LIMITS.group.sports.max, `sports must have at most ${LIMITS.group.sports.max} items`),
  acceptingNewMembers: z.boolean({ error: 'acceptingNewMembers must be true or false' }),
};

export const groupIdInput = z.object({ id: z.uuid('id must be a UUID') });

export const createGroupInput = z
  .object({
    ...editable,
    sports: editable.sports.default([]),
    acceptingNewMembers: editable.acceptingNewMembers.default(true),
  })
  .meta({
    examples: [
      {
        name: 'Atlética de Medicina',
        description: 'Treinos de futsal e vôlei às terças e quintas',
        groupType: 'ATHLETIC',
        sports: ['FUTSAL', 'VOLEI'],
        acceptingNewMembers: true,
      },
    ],
  });
export type CreateGroupInput = z.infer<typeof createGroupInput>;

export const updateGroupInput = groupIdInput
  .extend({
    name: editable.name.optional(),
    description: editable.description,
    groupType: editable.groupType.optional(),
    sports: editable.sports.optional(),
    acceptingNewMembers: editable.acceptingNewMembers.optional(),
    verified: z
      .boolean({ error: 'verified must be true or false' })
      .optional()
      .describe('Site ADMIN only'),
  })
  .refine((input) => Object.keys(input).some((key) => key !== 'id'), {
    message: 'at least one field to change is required',
    path: [],
  })
  .meta({ examples: [{ description: 'Treinos às terças', acceptingNewMembers: false }] });
export type UpdateGroupInput = z.infer<typeof updateGroupInput>;

export const listGroupsInput = cursorPageQuery(50).extend({
  q: text('q', 1, LIMITS.group.name.max)
    .optional()
    .describe('Name contains, ignoring case and accents'),
  groupType: groupTypeSchema.optional(),
  verified: flag('verified').optional(),
  mine: flag('mine').optional().describe('true: only groups the caller is a member of'),
});
export type ListGroupsQuery = z.infer<typeof listGroupsInput>;

export const listGroupPageInput = groupIdInput.extend(pageQuery(50).shape);
export type GroupPageQuery = z.infer<typeof listGroupPageInput>;

export const joinRequestInput = groupIdInput.extend({
  requestId: z.uuid('requestId must be a UUID'),
});
export const memberInput = groupIdInput.extend({ userId: z.uuid('userId must be a UUID') });
export const changeRoleInput = memberInput
  .extend({ role: groupRoleSchema })
  .meta({ examples: [{ role: 'ADMIN' }] });

// ---- outputs ----

/** A user as groups show one: the display name and the nickname. */
export const groupUserSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    userName: z.string(),
    avatarUrl: z.string().nullable().describe('Their avatar, null when none'),
  })
  .meta({ id: 'GroupUser' });
export type GroupUser = z.infer<typeof groupUserSchema>;

export const groupSummarySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    groupType: groupTypeSchema,
    sports: z.array(z.string()),
    acceptingNewMembers: z.boolean(),
    verified: z.boolean(),
    membersCount: z.number().int(),
    followersCount: z.number().int(),
    logoUrl: z.string().nullable().describe('Its logo (a 256 px square), null when none'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'GroupSummary' });
export type GroupSummary = z.infer<typeof groupSummarySchema>;

/** A single read: the summary and where the caller stands. */
export const groupSchema = groupSummarySchema
  .extend({
    myRole: groupRoleSchema.nullable(),
    myRequest: z.literal('PENDING').nullable(),
    following: z.boolean(),
  })
  .meta({ id: 'Group' });
export type Group = z.infer<typeof groupSchema>;

export const groupListResponse = cursorListResponse(groupSummarySchema);
export type GroupList = z.infer<typeof groupListResponse>;

export const joinRequestSchema = z
  .object({
    id: z.uuid(),
    groupId: z.uuid(),
    user: groupUserSchema,
    status: z.enum(['PENDING', 'APPROVED', 'REJECTED']),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'GroupJoinRequest' });
export type JoinRequest = z.infer<typeof joinRequestSchema>;

export const joinRequestListResponse = listResponse(joinRequestSchema);
export type JoinRequestList = z.infer<typeof joinRequestListResponse>;

export const memberSchema = z
  .object({ user: groupUserSchema, role: groupRoleSchema, joinedAt: z.iso.datetime() })
  .meta({ id: 'GroupMember' });
export type Member = z.infer<typeof memberSchema>;

export const memberListResponse = listResponse(memberSchema);
export type MemberList = z.infer<typeof memberListResponse>;

export const followSchema = z
  .object({ groupId: z.uuid(), userId: z.uuid(), createdAt: z.iso.datetime() })
  .meta({ id: 'GroupFollow' });
export type Follow = z.infer<typeof followSchema>;
