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
import { domainProcedures, router } from '../trpc';

const { authedProcedure } = domainProcedures('en');

const tags = ['Matches'];
const unauthorized = { 401: 'Token missing or invalid' };
const badId = { 400: 'id is not a UUID' };

/** The spec's eight match endpoints (decisions.md §6). Every rule lives in core's match service. */
export const matchesRouter = router({
  create: authedProcedure
    .meta({
      reasons: { 403: ['NOT_OWNER'] },
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
          403: 'userId is not the caller (only an ADMIN creates for someone else)',
          404: 'Author user not found',
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
        summary: 'List matches, MatchDate ascending, optionally by status',
        description:
          'Order: MatchDate ascending, then id. `status` filters by the status as it reads now (an EM_BREVE match ' +
          'whose date has passed is EM_ANDAMENTO). Items carry isSubscriptionOpen, players and spots {filled, open} ' +
          '(open = maxPlayers − filled), and no team objects: read the match for those.',
        errorResponses: { 400: 'Invalid pagination or status', ...unauthorized },
      },
    })
    .input(listMatchesInput)
    .output(matchListResponse)
    .query(({ ctx, input }) => ctx.services.matches.list(input)),

  get: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/match/{id}',
        operationId: 'getMatch',
        tags,
        summary: 'Read a match with its players and teams',
        errorResponses: { ...badId, ...unauthorized, 404: 'Match not found' },
      },
    })
    .input(matchIdInput)
    .output(matchSchema)
    .query(({ ctx, input }) => ctx.services.matches.get(input.id)),

  update: authedProcedure
    .meta({
      reasons: {
        403: ['NOT_OWNER'],
        409: ['INVALID_TRANSITION', 'MATCH_STARTED', 'CAPACITY_BELOW_PLAYERS'],
      },
      openapi: {
        method: 'PATCH',
        path: '/match/{id}',
        operationId: 'updateMatch',
        tags,
        summary: 'Change a match (author or ADMIN), including MatchStatus transitions',
        description:
          'MatchStatus transitions, from the status as it reads now: EM_BREVE→EM_ANDAMENTO, EM_BREVE→CANCELADA, ' +
          'EM_ANDAMENTO→FINALIZADA; sending the current status is a no-op; anything else is 409 INVALID_TRANSITION. ' +
          'MatchDate moves only while EM_BREVE (409 MATCH_STARTED otherwise). maxPlayers may not drop below the ' +
          'players already in, in total or in either team (A holds ceil(max/2), B floor(max/2)): 409 ' +
          'CAPACITY_BELOW_PLAYERS. `description: null` removes the description.',
        errorResponses: {
          400: 'Invalid body, no field given, or MatchDate in the past',
          ...unauthorized,
          403: 'Not the author nor an ADMIN',
          404: 'Match not found',
          409: 'INVALID_TRANSITION, CAPACITY_BELOW_PLAYERS, or MATCH_STARTED (date change after start)',
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
        summary: 'Delete a match and its subscriptions (author or ADMIN)',
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
      reasons: { 403: ['MATCH_STARTED', 'MATCH_FULL'], 409: ['ALREADY_SUBSCRIBED'] },
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
          'when both teams are full; 409 ALREADY_SUBSCRIBED. Exact under any number of simultaneous requests ' +
          'and server processes (row lock on the match, unique (match, user) index).',
        errorResponses: {
          ...badId,
          ...unauthorized,
          403: 'MATCH_FULL or MATCH_STARTED',
          404: 'Match not found',
          409: 'ALREADY_SUBSCRIBED',
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
        description: 'Allowed at any status: the only condition is that the subscription exists.',
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
});
