import {
  createContext,
  useContext,
  useEffect,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { Loading } from '../components/Page';
import type { SessionClient } from './client';

const SessionContext = createContext<SessionClient | null>(null);

/**
 * Restores a stored session (after a reload) before the app renders its pages: `restored` when the
 * page already started it (session/instance.ts), otherwise here.
 */
export function SessionProvider({
  session,
  restored,
  children,
}: {
  session: SessionClient;
  restored?: Promise<void>;
  children: ReactNode;
}) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    void (restored ?? session.restore()).finally(() => setReady(true));
  }, [session, restored]);
  return (
    <SessionContext.Provider value={session}>
      {ready ? (
        children
      ) : (
        <main>
          <Loading className="loading" />
        </main>
      )}
    </SessionContext.Provider>
  );
}

/** The session's API client and store (for the data layer). */
export function useSessionClient(): SessionClient {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSessionClient outside SessionProvider');
  return session;
}

export function useSession() {
  const session = useSessionClient();
  const state = useSyncExternalStore(session.store.subscribe, session.store.get);
  return {
    ...state,
    login: session.login,
    logout: session.logout,
    clearNotice: session.store.clearNotice,
    signOut: session.store.signOut,
    freshToken: session.freshToken,
  };
}
