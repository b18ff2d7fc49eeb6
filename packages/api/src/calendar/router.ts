import { matchIdInput, postIdInput } from '@campus/core';
import { z } from 'zod';
import { domainProcedures, router } from '../trpc';

const { authedProcedure } = domainProcedures('en');

const tags = ['Calendar'];
const description =
  'An iCalendar file (RFC 5545, `text/calendar`) with one VEVENT: a UID that stays the same for this ' +
  'thing (importing it again updates the entry), times in UTC, the place and the description. ' +
  'Over tRPC the same text is the answer.';

/**
 * "Adicionar à agenda": a match or an EVENT post as a calendar file (docs/contract/matches.md,
 * Reminders and calendar).
 */
export const calendarRouter = router({
  match: authedProcedure
    .meta({
      contentType: 'text/calendar',
      openapi: {
        method: 'GET',
        path: '/match/{id}/calendar.ics',
        operationId: 'getMatchCalendar',
        tags,
        summary:
          'The match as a calendar entry (two hours from MatchDate; CANCELLED when cancelled)',
        description,
        errorResponses: {
          400: 'id is not a UUID',
          401: 'Token missing or invalid',
          404: 'Match not found',
        },
      },
    })
    .input(matchIdInput)
    .output(z.string())
    .query(({ ctx, input }) => ctx.services.calendar.match(input.id, ctx.actor)),

  post: authedProcedure
    .meta({
      contentType: 'text/calendar',
      reasons: { 400: ['NOT_AN_EVENT'] },
      openapi: {
        method: 'GET',
        path: '/post/{id}/calendar.ics',
        operationId: 'getPostCalendar',
        tags,
        summary: 'An EVENT post as a calendar entry (until eventFinishDate, or two hours)',
        description,
        errorResponses: {
          400: 'id is not a UUID, or NOT_AN_EVENT: the post is not an EVENT',
          401: 'Token missing or invalid',
          404: 'Post not found',
        },
      },
    })
    .input(postIdInput)
    .output(z.string())
    .query(({ ctx, input }) => ctx.services.calendar.post(input.id, ctx.actor)),
});
