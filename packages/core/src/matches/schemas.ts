import { z } from 'zod';
import { cursorListMetaSchema, cursorPageQuery, queryFlag } from '../common/pagination';
import { MATCH_STATUSES, SPORTS, TEAMS } from './enums';
import { LIMITS } from '../common/limits';

// ---- input ----------------------------------------------------------------------------------

const text = (field: string, min: number, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(min, `${field} must have at least ${min} character${min === 1 ? '' : 's'}`)
    .max(max, `${field} must have at most ${max} characters`);

const maxPlayers = z
  .number({ error: 'maxPlayers must be a number' })
  .int('maxPlayers must be an integer')
  .min(LIMITS.match.maxPlayers.min, `maxPlayers must be at least ${LIMITS.match.maxPlayers.min}`)
  .max(LIMITS.match.maxPlayers.max, `maxPlayers must be at most ${LIMITS.match.maxPlayers.max}`);

/** An ISO 8601 timestamp with a zone (`Z` or an offset), later than the moment of the request. */
const futureTimestamp = z.iso
  .datetime({
    offset: true,
    abort: true,
    error: 'MatchDate must be an ISO 8601 timestamp, e.g. 2030-05-01T18:00:00Z',
  })
  .refine((value) => new Date(value).getTime() > Date.now(), 'MatchDate must be in the future');

export const matchStatusSchema = z.enum(MATCH_STATUSES, {
  error: `must be one of ${MATCH_STATUSES.join(', ')}`,
});

export const sportSchema = z.enum(SPORTS, { error: `sport must be one of ${SPORTS.join(', ')}` });
export type Sport = z.infer<typeof sportSchema>;

/** The sports, in the order they are listed. */
export const SPORTS_IN_ORDER = SPORTS;

/** Each sport's name in Portuguese, in the order `GET /match/sports` lists them. */
export const SPORT_NAMES: Record<Sport, string> = {
  FUTEBOL: 'Futebol',
  FUTSAL: 'Futsal',
  SOCIETY: 'Society',
  VOLEI: 'Vôlei',
  VOLEI_DE_PRAIA: 'Vôlei de praia',
  BASQUETE: 'Basquete',
  HANDEBOL: 'Handebol',
  TENIS_DE_MESA: 'Tênis de mesa',
  OUTRO: 'Outro',
};

const groupId = z.uuid('groupId must be a UUID');

const score = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be an integer`)
    .min(LIMITS.match.score.min, `${field} must be at least ${LIMITS.match.score.min}`)
    .max(LIMITS.match.score.max, `${field} must be at most ${LIMITS.match.score.max}`);

export const matchIdInput = z.object({ id: z.uuid('id must be a UUID') });

export const createMatchInput = z
  .object({
    userId: z.uuid('userId must be a UUID'),
    title: text('title', LIMITS.match.title.min, LIMITS.match.title.max),
    description: text(
      'description',
      LIMITS.match.description.min,
      LIMITS.match.description.max,
    ).optional(),
    maxPlayers,
    MatchDate: futureTimestamp,
    location: text('location', LIMITS.match.location.min, LIMITS.match.location.max),
    teamNameA: text('teamNameA', LIMITS.match.teamName.min, LIMITS.match.teamName.max).default(
      'TIME_A',
    ),
    teamNameB: text('teamNameB', LIMITS.match.teamName.min, LIMITS.match.teamName.max).default(
      'TIME_B',
    ),
    sport: sportSchema.optional(),
    groupId: groupId
      .optional()
      .describe('The organising group: the caller must be its OWNER or ADMIN'),
  })
  .meta({
    examples: [
      {
        userId: '0b6f7a8e-2c4d-4e5f-9a1b-3c5d7e9f1a2b',
        title: 'Pelada de quinta',
        description: 'Futebol society, traga água',
        maxPlayers: 10,
        MatchDate: '2036-05-01T18:00:00Z',
        location: 'Quadra 2',
        teamNameA: 'Azul',
        teamNameB: 'Branco',
        sport: 'SOCIETY',
      },
    ],
  });
export type CreateMatchInput = z.infer<typeof createMatchInput>;

/** The editable fields. `description: null` removes the description. */
export const updateMatchFields = z.object({
  title: text('title', LIMITS.match.title.min, LIMITS.match.title.max).optional(),
  description: text('description', LIMITS.match.description.min, LIMITS.match.description.max)
    .nullable()
    .optional(),
  maxPlayers: maxPlayers.optional(),
  MatchDate: futureTimestamp.optional(),
  location: text('location', LIMITS.match.location.min, LIMITS.match.location.max).optional(),
  teamNameA: text('teamNameA', LIMITS.match.teamName.min, LIMITS.match.teamName.max).optional(),
  teamNameB: text('teamNameB', LIMITS.match.teamName.min, LIMITS.match.teamName.max).optional(),
  MatchStatus: matchStatusSchema.optional(),
  /** `null` removes it. */
  sport: sportSchema.nullable().optional(),
  /** `null`: no organising group any more. */
  groupId: groupId.nullable().optional(),
  teamAScore: score('teamAScore').optional().describe('Only once the match is FINALIZADA'),
  teamBScore: score('teamBScore').optional().describe('Only once the match is FINALIZADA'),
});
export type UpdateMatchFields = z.infer<typeof updateMatchFields>;

export const updateMatchInput = matchIdInput
  .extend(updateMatchFields.shape)
  .refine(
    (input) =>
      Object.keys(updateMatchFields.shape).some(
        (key) => input[key as keyof UpdateMatchFields] !== undefined,
      ),
    { message: `at least one of ${Object.keys(updateMatchFields.shape).join(', ')} is required` },
  )
  .meta({ examples: [{ title: 'Pelada de sexta', maxPlayers: 12 }] });

export const listMatchesInput = cursorPageQuery(50).extend({
  status: matchStatusSchema.optional(),
  sport: sportSchema.optional(),
  groupId: groupId.optional(),
  mine: queryFlag('mine')
    .optional()
    .describe('true: only matches the caller plays in, waits for or created'),
});
export type ListMatchesQuery = z.infer<typeof listMatchesInput>;

// ---- output ---------------------------------------------------------------------------------

/** A user as other modules show it (docs/contract/accounts.md, User). */
export const matchUserSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    userName: z.string(),
    avatarUrl: z.string().nullable().describe('Their avatar, null when none'),
  })
  .meta({ id: 'MatchUser' });
export type MatchUser = z.infer<typeof matchUserSchema>;

export const matchTeamLetterSchema = z.enum(TEAMS);

export const matchPlayerSchema = matchUserSchema
  .extend({ team: matchTeamLetterSchema, subscribedAt: z.iso.datetime() })
  .meta({ id: 'MatchPlayer' });
export type MatchPlayer = z.infer<typeof matchPlayerSchema>;

/** Someone on a match's waiting list; position 1 takes the next spot that opens. */
export const matchWaitingUserSchema = matchUserSchema
  .extend({ position: z.number().int() })
  .meta({ id: 'MatchWaitingUser' });
export type MatchWaitingUser = z.infer<typeof matchWaitingUserSchema>;

/** The stored fields of a match, with MatchStatus as it reads now (see rules.effectiveStatus). */
const matchFieldsSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  description: z.string().optional(),
  author: matchUserSchema,
  authorId: z.uuid(),
  maxPlayers: z.number().int(),
  MatchDate: z.iso.datetime(),
  MatchStatus: matchStatusSchema,
  location: z.string(),
  teamNameA: z.string(),
  teamNameB: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  /** Effective status EM_BREVE, date in the future and a free spot. */
  isSubscriptionOpen: z.boolean(),
  sport: sportSchema.nullable(),
  groupId: z.uuid().nullable(),
  /** The organising group's name, and whether a site ADMIN verified it. */
  group: z.string().nullable(),
  groupVerified: z.boolean(),
  /** Set by the author once the match is FINALIZADA. */
  teamAScore: z.number().int().nullable(),
  teamBScore: z.number().int().nullable(),
  /** The caller's team, or null when the caller does not play. */
  myTeam: matchTeamLetterSchema.nullable(),
  /** The caller's place on the waiting list (1 is next), or null when not waiting. */
  myWaitlistPosition: z.number().int().nullable(),
});
export type MatchFields = z.infer<typeof matchFieldsSchema>;

export const matchTeamSchema = z
  .object({
    name: z.string(),
    max: z.number().int(),
    filled: z.number().int(),
    isOpen: z.boolean(),
    players: z.array(matchUserSchema),
  })
  .meta({ id: 'MatchTeam' });

/** The single read, and the answer of create and update. */
export const matchSchema = matchFieldsSchema
  .extend({
    players: z.array(matchPlayerSchema),
    spots: z.object({ totalMax: z.number().int(), totalFilled: z.number().int() }),
    teamA: matchTeamSchema,
    teamB: matchTeamSchema,
    /** The waiting list, first in line first. */
    waitlist: z.array(matchWaitingUserSchema),
  })
  .meta({ id: 'Match' });
export type Match = z.infer<typeof matchSchema>;

/**
 * A list item: the players (basic user data of each subscriber, as the spec's Match has
 * them), no team objects; `spots.open` is maxPlayers − filled.
 */
export const matchListItemSchema = matchFieldsSchema
  .extend({
    players: z.array(matchPlayerSchema),
    spots: z.object({ filled: z.number().int(), open: z.number().int() }),
    /** How many wait for a spot. */
    waitlistCount: z.number().int(),
  })
  .meta({ id: 'MatchListItem' });
export type MatchListItem = z.infer<typeof matchListItemSchema>;

export const matchListResponse = z
  .object({ data: z.array(matchListItemSchema), meta: cursorListMetaSchema })
  .meta({ id: 'MatchList' });

export const matchSubscriptionSchema = z
  .object({
    matchId: z.uuid(),
    userId: z.uuid(),
    team: matchTeamLetterSchema,
    teamName: z.string(),
    subscribedAt: z.iso.datetime(),
  })
  .meta({ id: 'MatchSubscription' });
export type MatchSubscription = z.infer<typeof matchSubscriptionSchema>;

/** Answer of unsubscribe (the team left) and switch (the team joined). */
export const matchTeamChangeSchema = z
  .object({
    matchId: z.uuid(),
    userId: z.uuid(),
    team: matchTeamLetterSchema,
  })
  .meta({ id: 'MatchTeamChange' });
export type MatchTeamChange = z.infer<typeof matchTeamChangeSchema>;

/** Answer of joining the waiting list. */
export const matchWaitlistEntrySchema = z
  .object({ matchId: z.uuid(), userId: z.uuid(), position: z.number().int() })
  .meta({ id: 'MatchWaitlistEntry' });
export type MatchWaitlistEntry = z.infer<typeof matchWaitlistEntrySchema>;

/** `GET /match/sports`: each sport's code (what `sport` takes) and its name in Portuguese. */
export const sportListSchema = z
  .object({ data: z.array(z.object({ code: sportSchema, name: z.string() })) })
  .meta({ id: 'SportList' });
export type SportList = z.infer<typeof sportListSchema>;
