import { z } from 'zod';
import { NOTIFICATION_TYPES } from '../enums';

/** Push (docs/contract/push.md): a browser `PushSubscription` as JSON, the caller's preferences. */

const base64url = (what: string, max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${what} must be base64url`);

const EXAMPLE_ENDPOINT = 'https://fcm.googleapis.com/fcm/send/dGVzdC1lbmRwb2ludA';

export const pushSubscriptionInput = z
  .object({
    endpoint: z.string().min(1).max(1000).describe('The push service URL the browser gave'),
    expirationTime: z.number().nullish().describe('Ignored (browsers send it)'),
    keys: z.object({
      p256dh: base64url('keys.p256dh', 200).describe("The browser's P-256 public key"),
      auth: base64url('keys.auth', 100).describe("The browser's auth secret"),
    }),
  })
  .meta({
    examples: [
      {
        endpoint: EXAMPLE_ENDPOINT,
        expirationTime: null,
        keys: {
          p256dh:
            'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
          auth: 'tBHItJI5svbpez7KI4CCXg',
        },
      },
    ],
  });
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInput>;

export const pushSubscriptionSchema = z
  .object({
    id: z.uuid(),
    endpointHost: z.string().describe("The push service's host"),
    createdAt: z.iso.datetime(),
    created: z.boolean().describe('false: this endpoint was already known (now the caller’s)'),
  })
  .meta({ id: 'PushSubscription' });
export type PushSubscription = z.infer<typeof pushSubscriptionSchema>;

export const pushEndpointInput = z
  .object({ endpoint: z.string().min(1).max(1000) })
  .meta({ examples: [{ endpoint: EXAMPLE_ENDPOINT }] });

export const vapidPublicKeySchema = z.object({
  publicKey: z.string().describe('The VAPID public key, base64url (applicationServerKey)'),
});

const typePreference = z.object({ push: z.boolean() });

export const pushPreferencesSchema = z
  .object({
    types: z.object(
      Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, typePreference])) as Record<
        (typeof NOTIFICATION_TYPES)[number],
        typeof typePreference
      >,
    ),
  })
  .meta({ id: 'NotificationPreferences' });
export type PushPreferences = z.infer<typeof pushPreferencesSchema>;

/** A PATCH names only the types it changes. */
export const pushPreferencesPatch = z
  .object({
    types: z.strictObject(
      Object.fromEntries(
        NOTIFICATION_TYPES.map((type) => [type, typePreference.optional()]),
      ) as Record<(typeof NOTIFICATION_TYPES)[number], z.ZodOptional<typeof typePreference>>,
    ),
  })
  .meta({ examples: [{ types: { GROUP_POST: { push: false } } }] });
export type PushPreferencesPatch = z.infer<typeof pushPreferencesPatch>;

/** What a push carries, decrypted by the service worker. */
export const pushPayloadSchema = z.object({
  notificationId: z.uuid(),
  type: z.enum(NOTIFICATION_TYPES),
  title: z.string(),
  body: z.string(),
  url: z.string().describe("The web app's deep link (a path)"),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
