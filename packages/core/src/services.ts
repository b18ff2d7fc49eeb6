import { createAdminService } from './admin/service';
import type { AuthConfig } from './auth/config';
import { createAuthenticator } from './auth/service';
import type { Database } from './db/client';
import { createExampleService } from './examples/service';
import { createStudentService } from './students/service';
import { createMatchService } from './matches/service';
import { createFeedService } from './feed/service';
import { createIdempotencyService } from './idempotency/service';

/**
 * Everything the API layer calls, built once per process around one database (prepared
 * statements are created here, not per request).
 */
export function createServices(db: Database, auth: AuthConfig) {
  return {
    db,
    auth,
    authenticate: createAuthenticator(db, auth),
    examples: createExampleService(db),
    students: createStudentService(db, auth.passwordCost),
    admin: createAdminService(db),
    matches: createMatchService(db),
    feed: createFeedService(db),
    idempotency: createIdempotencyService(db),
  };
}
export type Services = ReturnType<typeof createServices>;
