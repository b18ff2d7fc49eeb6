import { adminRouter } from './admin/router';
import { authRouter } from './auth/router';
import { examplesRouter } from './examples/router';
import { localitiesRouter } from './localities/router';
import { studentsRouter } from './students/router';
import { matchesRouter } from './matches/router';
import { feedRouter } from './feed/router';
import { notificationsRouter } from './notifications/router';
import { streamsRouter } from './streams/router';
import { groupsRouter } from './groups/router';
import { calendarRouter } from './calendar/router';
import { accountsRouter } from './accounts/router';
import { mediaRouter } from './media/router';
import { router } from './trpc';

/** Every domain router. Procedure paths: `<domain>.<procedure>` over /trpc. */
export const appRouter = router({
  auth: authRouter,
  examples: examplesRouter,
  students: studentsRouter,
  localities: localitiesRouter,
  admin: adminRouter,
  matches: matchesRouter,
  feed: feedRouter,
  notifications: notificationsRouter,
  streams: streamsRouter,
  groups: groupsRouter,
  calendar: calendarRouter,
  accounts: accountsRouter,
  media: mediaRouter,
});

export type AppRouter = typeof appRouter;
