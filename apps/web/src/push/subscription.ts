/**
 * The browser side of Web Push (docs/contract/push.md): whether this browser can receive pushes,
 * and its subscription through the service worker, made with the server's VAPID public key.
 */
export type PushSupport = 'supported' | 'unsupported' | 'needs-home-screen';

export function pushSupport(): PushSupport {
  if ('serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window)
    return 'supported';
  // iOS and iPadOS deliver Web Push only to an app added to the home screen.
  const ios = /iPhone|iPad|iPod/.test(navigator.userAgent);
  const standalone = window.matchMedia?.('(display-mode: standalone)').matches;
  return ios && !standalone ? 'needs-home-screen' : 'unsupported';
}

/** base64url → the bytes PushManager.subscribe takes as `applicationServerKey`. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/**
 * Asks for permission (call it from a click: browsers refuse a prompt without one) and
 * subscribes. Null when the person said no.
 */
export async function subscribeBrowser(publicKey: string): Promise<PushSubscriptionJSON | null> {
  if ((await Notification.requestPermission()) !== 'granted') return null;
  const registration = await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(publicKey),
    }));
  return subscription.toJSON();
}
