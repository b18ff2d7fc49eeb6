import type {
  FeedStreamEvent,
  matchStreamEvent,
  NotificationStreamEvent,
  postStreamEvent,
} from '@campus/core';
import {
  matchIdInput,
  notificationStreamInput,
  postIdInput,
  viewedBy,
  type Actor,
} from '@campus/core';
import { tracked, type TrackedEnvelope } from '@trpc/server';
import type { z } from 'zod';
import { domainProcedures, router, type Context } from '../trpc';

const { authedProcedure } = domainProcedures('en');

/**
 * How often an open stream checks its account anyway. A change of the account (blocked, deleted,
 * sessions ended) ends its streams on every process at once through the bus; this is a backstop.
 */
const ACCOUNT_RECHECK_MS = 30_000;

type StreamContext = Context & { actor: Actor };

/**
 * Opens a live stream for the caller: takes one of the caller's stream slots (429
 * `TOO_MANY_STREAMS` past the limit), and ends it when the client goes (`signal`), when the access
 * token expires, or as soon as its account is blocked or deleted or its sessions are ended (an
 * `account` event makes it authenticate again). `open` throws before anything is sent
 * (a 404 stays a 404); the returned generator stops on the abort signal, so no listener leaks.
 */
async function openStream<T, O>(
  ctx: StreamContext,
  signal: AbortSignal | undefined,
  open: (signal: AbortSignal) => Promise<AsyncIterable<T>>,
  toEvent: (item: T) => O,
): Promise<AsyncGenerator<O, void, undefined>> {
  const token = (ctx.authorization ?? '').replace(/^Bearer\s+/i, '');
  const { exp } = ctx.services.auth.claims(token);
  const release = await ctx.services.streamSlots.take(ctx.actor.id);
  const controller = new AbortController();
  const stop = () => controller.abort();
  signal?.addEventListener('abort', stop, { once: true });
  const expiry = setTimeout(stop, Math.min(Math.max(0, exp * 1000 - Date.now()), 2 ** 31 - 1));
  const check = () => void ctx.services.auth.authenticate(token).catch(stop);
  const recheck = setInterval(check, ACCOUNT_RECHECK_MS);
  let unwatch: (() => void) | undefined;
  const cleanup = () => {
    clearTimeout(expiry);
    clearInterval(recheck);
    unwatch?.();
    signal?.removeEventListener('abort', stop);
    controller.abort();
    release();
  };
  let source: AsyncIterable<T>;
  try {
    if (signal?.aborted) stop();
    unwatch = await ctx.services.auth.watchAccount(ctx.actor.id, check);
    source = await open(controller.signal);
  } catch (error) {
    cleanup();
    throw error;
  }
  return (async function* () {
    try {
      for await (const item of source) {
        if (controller.signal.aborted) return;
        yield toEvent(item);
      }
    } finally {
      cleanup();
    }
  })();
}

const tags = ['Live updates'];
const errors = {
  401: 'Token missing or invalid',
  429: 'TOO_MANY_STREAMS: the caller holds too many open streams',
};

/**
 * Live updates (docs/contract/protocol.md, Live streams): tRPC subscriptions over SSE, and the same
 * procedures over REST as `text/event-stream` (the host's one SSE writer). Events come from the
 * event bus, so a change made through any server process reaches every stream.
 */
export const streamsRouter = router({
  notifications: authedProcedure
    .meta({
      sse: true,
      reasons: { 429: ['TOO_MANY_STREAMS'] },
      openapi: {
        method: 'GET',
        path: '/notifications/stream',
        operationId: 'getNotificationStream',
        tags,
        summary: "The caller's new notifications and unread count, live",
        description:
          'Server-sent events. Each new notification is an event whose `id` is its place in the inbox; a client ' +
          'that reconnects with `Last-Event-ID` first receives every notification it missed (from the inbox), ' +
          'then the unread count. Count changes (notifications read) are events without an id. Comment lines ' +
          'keep an idle connection alive. The stream ends when the access token expires or the account is ' +
          'blocked: reconnect with a fresh token. Over tRPC: `streams.notifications` with `httpSubscriptionLink`.',
        errorResponses: { 400: 'Invalid Last-Event-ID', ...errors },
      },
    })
    .input(notificationStreamInput)
    .subscription(({ ctx, input, signal }) =>
      openStream(
        ctx,
        signal,
        async (stop) =>
          ctx.services.notifications.stream(
            ctx.actor.id,
            input?.lastEventId ? Number(input.lastEventId) : undefined,
            stop,
          ),
        // Tracked with its type, so that a client reads `{ id, data }` with `data` typed.
        (item): NotificationStreamEvent | TrackedEnvelope<NotificationStreamEvent> =>
          item.id ? tracked(item.id, item.data) : item.data,
      ),
    ),

  match: authedProcedure
    .meta({
      sse: true,
      reasons: { 429: ['TOO_MANY_STREAMS'] },
      openapi: {
        method: 'GET',
        path: '/match/{id}/stream',
        operationId: 'getMatchStream',
        tags,
        summary: "A match's spots, teams and status, live",
        description:
          'Server-sent events: the match as `GET /match/{id}` answers it, first as it is now, then whenever it ' +
          'changes (a subscription, a team switch, an edit, a status change); `{"kind":"deleted"}` ends it.',
        errorResponses: { 400: 'id is not a UUID', ...errors, 404: 'Match not found' },
      },
    })
    .input(matchIdInput)
    .subscription(({ ctx, input, signal }) =>
      openStream(
        ctx,
        signal,
        (stop) => ctx.services.live.match(input.id, stop),
        // One read per change serves every watcher; each sees its own team and place in line.
        (event): z.infer<typeof matchStreamEvent> =>
          event.kind === 'match' ? { ...event, match: viewedBy(event.match, ctx.actor.id) } : event,
      ),
    ),

  feed: authedProcedure
    .meta({
      sse: true,
      reasons: { 429: ['TOO_MANY_STREAMS'] },
      openapi: {
        method: 'GET',
        path: '/streams/feed',
        operationId: 'getFeedStream',
        tags,
        summary: 'Posts as they are published, live',
        description:
          'Server-sent events: `{"kind":"ready"}` once listening, then `{"kind":"post","postId","authorId"}` for ' +
          'each post published, and `{"kind":"missed"}` when posts may have gone by unannounced. It carries ' +
          'no post: a client shows that there are new ones and reads `GET /post` when asked.',
        errorResponses: errors,
      },
    })
    .subscription(({ ctx, signal }) =>
      openStream(
        ctx,
        signal,
        (stop) => ctx.services.live.feed(stop),
        (event): FeedStreamEvent => event,
      ),
    ),

  post: authedProcedure
    .meta({
      sse: true,
      reasons: { 429: ['TOO_MANY_STREAMS'] },
      openapi: {
        method: 'GET',
        path: '/post/{id}/stream',
        operationId: 'getPostStream',
        tags,
        summary: "A post's counters and new comments, live",
        description:
          'Server-sent events: the counters (likes, comments, attendances), first as they are now, then ' +
          'whenever they change, with the new comment when one was added; `{"kind":"deleted"}` ends it.',
        errorResponses: { 400: 'id is not a UUID', ...errors, 404: 'Post not found' },
      },
    })
    .input(postIdInput)
    .subscription(({ ctx, input, signal }) =>
      openStream(
        ctx,
        signal,
        (stop) => ctx.services.live.post(input.id, stop),
        (event): z.infer<typeof postStreamEvent> => event,
      ),
    ),
});
