import {
  createMatchInput,
  listMatchesInput,
  matchIdInput,
  matchListResponse,
  matchSchema,
  matchSubscriptionSchema,
  matchTeamChangeSchema,
  updateMatchInput,
} from '@campus/core';
import { z } from 'zod';
import { router } from '../trpc';
import { seatProcedures } from './seats';
import { authedProcedure, badId, tags, unauthorized } from './shared';

/**
 * The match endpoints of docs/contract/matches.md (the spec's eight, plus sport, organising
 * group, scores; the waiting list and the sports in ./seats.ts). Every rule lives in core.
 */
export const matchesRouter = router({
  create: authedProcedure
    .meta({
      reasons: { 403: ['NOT_OWNER', 'GROUP_FORBIDDEN'], 404: ['GROUP_NOT_FOUND'] },
      successStatus: 201,
      location: '/match/{output.id}',
      openapi: {
        method: 'POST',
        path: '/match',
        operationId: 'createMatch',
        tags,
        summary: 'Create a match (status EM_BREVE, no players)',
        successDescription: 'The match',
        errorResponses: {
          400: 'Invalid body',
          ...unauthorized,
          403: 'userId is not the caller (only an ADMIN creates for someone else), or GROUP_FORBIDDEN: not an OWNER/ADMIN of groupId',
          404: 'Author user not found, or GROUP_NOT_FOUND',
        },
      },
    })
    .input(createMatchInput)
    .output(matchSchema)
    .mutation(({ ctx, input }) => ctx.services.matches.create(input, ctx.actor)),

  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/match',
        operationId: 'listMatches',
        tags,
        summary: 'List matches, MatchDate ascending, filtered by status, sport, group or mine',
        description:
          'Order: MatchDate ascending, then id. `status` filters by the status as it reads now (an EM_BREVE match ' +
          'whose date has passed is EM_ANDAMENTO); `sport`, `groupId` and `mine=true` (matches the caller plays ' +
          'in, waits for or created) combine with it. Items carry isSubscriptionOpen, players, spots {filled, open} ' +
          "(open = maxPlayers − filled), waitlistCount, and the caller's myTeam and myWaitlistPosition; no team " +
          'objects nor the waiting list itself: read the match for those.',
        errorResponses: {
          400: 'Invalid pagination or filter, or a cursor made for another list, filters or user (INVALID_CURSOR)',
          ...unauthorized,
        },
      },
      reasons: { 400: ['INVALID_CURSOR'] },
    })
    .input(listMatchesInput)
    .output(matchListResponse)
    .query(({ ctx, input }) => ctx.services.matches.list(input, ctx.actor.id)),

  get: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/match/{id}',
        operationId: 'getMatch',
        tags,
        summary: 'Read a match with its players, teams and waiting list',
        errorResponses: { ...badId, ...unauthorized, 404: 'Match not found' },
      },
    })
    .input(matchIdInput)
    .output(matchSchema)
    .query(({ ctx, input }) => ctx.services.matches.get(input.id, ctx.actor.id)),

  update: authedProcedure
    .meta({
      reasons: {
        403: ['NOT_OWNER', 'GROUP_FORBIDDEN'],
        404: ['GROUP_NOT_FOUND'],
        409: [
          'INVALID_TRANSITION',
          'MATCH_STARTED',
          'CAPACITY_BELOW_PLAYERS',
          'MATCH_NOT_FINISHED',
        ],
      },
      openapi: {
        method: 'PATCH',
        path: '/match/{id}',
        operationId: 'updateMatch',
        tags,
        summary:
          "Change a match (author, the organising group's OWNER/ADMIN, or ADMIN), including MatchStatus and scores",
        description:
          'MatchStatus transitions, from the status as it reads now: EM_BREVE→EM_ANDAMENTO, EM_BREVE→CANCELADA, ' +
          'EM_ANDAMENTO→FINALIZADA; sending the current status is a no-op; anything else is 409 INVALID_TRANSITION. ' +
          'MatchDate moves only while EM_BREVE (409 MATCH_STARTED otherwise). maxPlayers may not drop below the ' +
          'players already in, in total or in either team (A holds ceil(max/2), B floor(max/2)): 409 ' +
          'CAPACITY_BELOW_PLAYERS; a larger maxPlayers gives the new spots to the waiting list at once. ' +
          '`description: null`, `sport: null` and `groupId: null` remove them; a new groupId needs the caller to be ' +
          "that group's OWNER or ADMIN. teamAScore/teamBScore (0-999) only once the match is FINALIZADA (in the " +
          'same PATCH that finalises it too): 409 MATCH_NOT_FINISHED otherwise.',
        errorResponses: {
          400: 'Invalid body, no field given, or MatchDate in the past',
          ...unauthorized,
          403: "Not the author, the group's OWNER/ADMIN nor an ADMIN; GROUP_FORBIDDEN for a new groupId",
          404: 'Match not found, or GROUP_NOT_FOUND',
          409: 'INVALID_TRANSITION, CAPACITY_BELOW_PLAYERS, MATCH_STARTED (date change after start) or MATCH_NOT_FINISHED',
        },
      },
    })
    .input(updateMatchInput)
    .output(matchSchema)
    .mutation(({ ctx, input: { id, ...fields } }) =>
      ctx.services.matches.update(id, fields, ctx.actor),
    ),

  delete: authedProcedure
    .meta({
      reasons: { 403: ['NOT_OWNER'] },
      successStatus: 204,
      openapi: {
        method: 'DELETE',
        path: '/match/{id}',
        operationId: 'deleteMatch',
        tags,
        summary:
          "Delete a match, its subscriptions and waiting list (author, the group's OWNER/ADMIN, or ADMIN)",
        errorResponses: {
          ...badId,
          ...unauthorized,
          403: 'Not the author nor an ADMIN',
          404: 'Match not found',
        },
      },
    })
    .input(matchIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.matches.remove(input.id, ctx.actor)),

  subscribe: authedProcedure
    .meta({
      reasons: {
        403: ['MATCH_STARTED', 'MATCH_FULL'],
        409: ['ALREADY_SUBSCRIBED', 'ALREADY_WAITING'],
      },
      successStatus: 201,
      location: '/match/{input.id}',
      openapi: {
        method: 'POST',
        path: '/match/{id}/subscribe',
        operationId: 'subscribeToMatch',
        tags,
        summary: 'Subscribe the caller; placed in the team with fewer players (a tie goes to A)',
        description:
          'No body. 403 MATCH_STARTED when the match is not EM_BREVE or its date has passed; 403 MATCH_FULL ' +
          'when both teams are full (join the waiting list instead); 409 ALREADY_SUBSCRIBED, or ALREADY_WAITING ' +
          'for a caller on the waiting list. Exact under any number of simultaneous requests and server processes: ' +
          'the admission is one statement that checks the seat on the locked match row and inserts.',
        errorResponses: {
          ...badId,
          ...unauthorized,
          403: 'MATCH_FULL or MATCH_STARTED',
          404: 'Match not found',
          409: 'ALREADY_SUBSCRIBED or ALREADY_WAITING',
        },
      },
    })
    .input(matchIdInput)
    .output(matchSubscriptionSchema)
    .mutation(({ ctx, input }) => ctx.services.matches.subscribe(input.id, ctx.actor)),

  unsubscribe: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/match/{id}/unsubscribe',
        operationId: 'unsubscribeFromMatch',
        tags,
        summary: "Remove the caller's subscription; answers the team left",
        description:
          'Allowed at any status: the only condition is that the subscription exists. While the match is open, ' +
          'the freed spot goes at once to the first user on the waiting list (placed by the usual rule, notified ' +
          'with MATCH_SPOT_GRANTED).',
        errorResponses: { ...badId, ...unauthorized, 404: 'Match or subscription not found' },
      },
    })
    .input(matchIdInput)
    .output(matchTeamChangeSchema)
    .mutation(({ ctx, input }) => ctx.services.matches.unsubscribe(input.id, ctx.actor)),

  switch: authedProcedure
    .meta({
      reasons: { 403: ['MATCH_STARTED', 'TEAM_FULL'] },
      openapi: {
        method: 'POST',
        path: '/match/{id}/switch',
        operationId: 'switchMatchTeam',
        tags,
        summary: 'Move the caller to the other team; answers the team joined',
        errorResponses: {
          ...badId,
          ...unauthorized,
          403: 'TEAM_FULL or MATCH_STARTED',
          404: 'Match or subscription not found',
        },
      },
    })
    .input(matchIdInput)
    .output(matchTeamChangeSchema)
    .mutation(({ ctx, input }) => ctx.services.matches.switchTeam(input.id, ctx.actor)),

  ...seatProcedures,
});
