import { createAdminService } from './admin/service';
import { createCursors } from './db/cursor';
import type { AuthConfig } from './auth/config';
import { createAuthService } from './auth/service';
import type { Database } from './db/client';
import { createExampleService } from './examples/service';
import { createStudentService } from './students/service';
import { createMatchService } from './matches/service';
import { createFeedService } from './feed/service';
import { createIdempotencyService } from './idempotency/service';
import { createRateLimitService } from './rate-limits/service';
import type { EventBus } from './events/bus';
import { createNotificationService } from './notifications/service';
import { createFeedStream } from './feed/new-posts';
import { createPostStream } from './feed/stream';
import { createMatchStream } from './matches/stream';
import { createStreamSlots, type StreamSlots } from './events/slots';
import { createMediaService, type MediaOptions } from './media/service';
import { diskStorage } from './media/storage';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Per-process options: the event bus, streams per user, the reminders' lead. */
export interface ServiceOptions {
  /** The process's event bus (live streams); without it streams are refused. */
  bus?: EventBus | undefined;
  /** Live streams one user may hold open, across every process. */
  maxStreamsPerUser?: number;
  /** Where open streams are counted instead of the database (Redis, when configured). */
  streamSlots?: StreamSlots | undefined;
  /** MATCH_REMINDER / EVENT_REMINDER this long before the date (REMINDER_LEAD). */
  reminderLeadSeconds?: number;
  /** Distinct reporters that hide a post or comment at once (MODERATION_THRESHOLD, default 5). */
  moderationThreshold?: number;
  /** Outgoing mail (SMTP transport, sender, the web app's address); absent → kept in the outbox. */
  mail?: MailOptions;
  /** POST /autenticacao/recuperar-senha answers no sooner than this (default 250 ms). */
  resetRequestFloorMs?: number;
  /** Web Push: allowed endpoint hosts, VAPID keys and subject (docs/contract/push.md). */
  push?: PushOptions;
  /** Photos: storage and public URL (default: files in the system's temporary directory). */
  media?: MediaOptions;
}

const defaultMail: MailOptions = {
  from: 'Campus <nao-responda@campus.invalid>',
  appUrl: 'http://localhost:3000',
};
import { createGroupService } from './groups/service';
import { groupPosts } from './feed/group-posts';
import { createCalendarService } from './calendar/service';
import { createModerationService } from './moderation/service';
import { createMailService, type MailOptions } from './mail/outbox';
import { createAccountService } from './accounts/service';
import { createPushService, type PushOptions } from './notifications/push/service';

/**
 * Everything the API layer and the host call, built once per process around one database
 * (prepared statements are created here, not per request). The api layer and the host get these
 * services, never the database: queries are written in core only. `live.bus`: the process's
 * event bus (live streams).
 */
export function createServices(db: Database, auth: AuthConfig, live: ServiceOptions = {}) {
  const reminders = live.reminderLeadSeconds
    ? { reminderLeadSeconds: live.reminderLeadSeconds }
    : {};
  // The lists' cursors are signed with a key derived from the server's secret.
  const cursors = createCursors(auth.jwtSecret);
  const matches = createMatchService(db, { ...reminders, cursors });
  const feed = createFeedService(db, {
    cursors,
    ...reminders,
    ...(live.moderationThreshold ? { moderationThreshold: live.moderationThreshold } : {}),
  });
  const mailOptions = live.mail ?? defaultMail;
  const mail = createMailService(db, mailOptions);
  const appUrl = mailOptions.appUrl;
  const rateLimits = createRateLimitService(db);
  const media = createMediaService(
    db,
    live.media ?? { storage: diskStorage(join(tmpdir(), 'campus-media')) },
    (key, expiresAt) => rateLimits.increment(key, 1, expiresAt),
  );
  return {
    media,
    mail,
    accounts: createAccountService(db, auth, mail, {
      appUrl,
      ...(live.resetRequestFloorMs !== undefined
        ? { resetRequestFloorMs: live.resetRequestFloorMs }
        : {}),
    }),
    auth: createAuthService(db, auth, live.bus),
    examples: createExampleService(db),
    students: createStudentService(db, auth.passwordCost),
    admin: createAdminService(db, { service: mail, appUrl }),
    matches,
    feed,
    idempotency: createIdempotencyService(db),
    rateLimits,
    notifications: createNotificationService(db, cursors, live.bus, live.reminderLeadSeconds),
    push: createPushService(db, live.push),
    live: {
      match: createMatchStream(live.bus, (id) => matches.read(id)),
      post: createPostStream(db, live.bus),
      feed: createFeedStream(live.bus),
    },
    streamSlots: live.streamSlots ?? createStreamSlots(db, live.maxStreamsPerUser ?? 8),
    groups: createGroupService(db, groupPosts, cursors, media),
    calendar: createCalendarService({
      match: (id, actor) => matches.get(id, actor.id),
      post: (id, actor) => feed.get(id, actor),
    }),
    moderation: createModerationService(db),
  };
}
export type Services = ReturnType<typeof createServices>;
