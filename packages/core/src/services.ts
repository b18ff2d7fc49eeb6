import { createAdminService } from './admin/service';
import type { AuthConfig } from './auth/config';
import { createAuthService } from './auth/service';
import type { Database } from './db/client';
import { createExampleService } from './examples/service';
import { createStudentService } from './students/service';
import { createMatchService } from './matches/service';
import { createFeedService } from './feed/service';
import { createIdempotencyService } from './idempotency/service';
import { createRateLimitService } from './rate-limits/service';
import { createGroupService } from './groups/service';

/**
 * Everything the API layer and the host call, built once per process around one database
 * (prepared statements are created here, not per request). The api layer and the host get these
 * services, never the database: queries are written in core only.
 */
export function createServices(db: Database, auth: AuthConfig) {
  return {
    auth: createAuthService(db, auth),
    examples: createExampleService(db),
    students: createStudentService(db, auth.passwordCost),
    admin: createAdminService(db),
    matches: createMatchService(db),
    feed: createFeedService(db),
    idempotency: createIdempotencyService(db),
    rateLimits: createRateLimitService(db),
    groups: createGroupService(db),
  };
}
export type Services = ReturnType<typeof createServices>;
