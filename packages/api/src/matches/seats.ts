import { matchIdInput, matchWaitlistEntrySchema, sportListSchema, sportsList } from '@campus/core';
import { z } from 'zod';
import { authedProcedure, badId, publicProcedure, tags, unauthorized } from './shared';

/** The sports a match can be, and the waiting list: spread into the matches router (`matches.*`). */
export const seatProcedures = {
  sports: publicProcedure
    .meta({
      staticList: () => sportsList,
      openapi: {
        method: 'GET',
        path: '/match/sports',
        operationId: 'listMatchSports',
        tags,
        summary: 'The sports a match can be: the code `sport` takes and its name in Portuguese',
        description:
          'Static list: answered with `ETag` and `Cache-Control`; `If-None-Match` with the same ETag → 304.',
        protect: false,
        errorResponses: {},
      },
    })
    .input(z.void())
    .output(sportListSchema)
    .query(() => sportsList.body),

  joinWaitlist: authedProcedure
    .meta({
      reasons: {
        403: ['MATCH_STARTED'],
        409: ['ALREADY_SUBSCRIBED', 'ALREADY_WAITING', 'MATCH_NOT_FULL'],
      },
      successStatus: 201,
      location: '/match/{input.id}',
      openapi: {
        method: 'POST',
        path: '/match/{id}/waitlist',
        operationId: 'joinMatchWaitlist',
        tags,
        summary: 'Join the waiting list of a full match; answers the place in line (1 = next)',
        description:
          'No body. Only for a full match that has not started: 409 MATCH_NOT_FULL when a spot is free (subscribe ' +
          'instead), 403 MATCH_STARTED, 409 ALREADY_SUBSCRIBED / ALREADY_WAITING. When a spot opens (a player ' +
          'leaves, maxPlayers grows) the first in line takes it in the same transaction, placed in the team with ' +
          'fewer players, and is notified (MATCH_SPOT_GRANTED). `position` is the place at the moment of the answer.',
        errorResponses: {
          ...badId,
          ...unauthorized,
          403: 'MATCH_STARTED',
          404: 'Match not found',
          409: 'ALREADY_SUBSCRIBED, ALREADY_WAITING or MATCH_NOT_FULL',
        },
      },
    })
    .input(matchIdInput)
    .output(matchWaitlistEntrySchema)
    .mutation(({ ctx, input }) => ctx.services.matches.joinWaitlist(input.id, ctx.actor)),

  leaveWaitlist: authedProcedure
    .meta({
      successStatus: 204,
      openapi: {
        method: 'DELETE',
        path: '/match/{id}/waitlist',
        operationId: 'leaveMatchWaitlist',
        tags,
        summary: "Leave the match's waiting list",
        errorResponses: {
          ...badId,
          ...unauthorized,
          404: 'Match not found, or the caller is not on its waiting list',
        },
      },
    })
    .input(matchIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.matches.leaveWaitlist(input.id, ctx.actor)),
};
