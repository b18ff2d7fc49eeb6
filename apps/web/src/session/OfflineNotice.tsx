import { useSyncExternalStore } from 'react';

function subscribe(listener: () => void) {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/**
 * Says so while the browser is offline. Nothing waits to be sent meanwhile (session/client.ts):
 * an action tried offline fails with a message, and is sent again only when tapped again.
 */
export function OfflineNotice() {
  const online = useSyncExternalStore(subscribe, () => navigator.onLine);
  return (
    <div role="status" className={online ? 'visually-hidden' : 'alert alert--info offline-notice'}>
      {online
        ? null
        : 'Você está sem conexão. O que você tentar enviar agora não será enviado: tente de novo quando a conexão voltar.'}
    </div>
  );
}
