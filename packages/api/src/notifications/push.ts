import {
  pushEndpointInput,
  pushPreferencesPatch,
  pushPreferencesSchema,
  pushSubscriptionInput,
  pushSubscriptionSchema,
  vapidPublicKeySchema,
} from '@campus/core';
import { z } from 'zod';
import { domainProcedures } from '../trpc';

const { authedProcedure, publicProcedure } = domainProcedures('en');

const tags = ['Notifications'];
const unauthorized = { 401: 'Token missing or invalid' };

/** Web Push (docs/contract/push.md): spread into the notifications router (`notifications.*`). */
export const pushProcedures = {
  pushPublicKey: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/notifications/push/public-key',
        operationId: 'getPushPublicKey',
        tags,
        summary: "The VAPID public key (a PushManager.subscribe's applicationServerKey)",
      },
    })
    .input(z.void())
    .output(vapidPublicKeySchema)
    .query(({ ctx }) => ctx.services.push.publicKey()),

  subscribePush: authedProcedure
    .meta({
      successStatus: 201,
      createdFlag: 'created',
      location: '/notifications/push/subscriptions',
      reasons: { 400: ['PUSH_ENDPOINT_NOT_ALLOWED'] },
      openapi: {
        method: 'POST',
        path: '/notifications/push/subscriptions',
        operationId: 'createPushSubscription',
        tags,
        summary: "Keep a browser's push subscription for the caller (idempotent on endpoint)",
        successDescription: 'Kept; 200 when the endpoint was known (it moves to the caller)',
        errorResponses: {
          400: 'Invalid keys, or an endpoint not on an allowed push service over https (PUSH_ENDPOINT_NOT_ALLOWED)',
          ...unauthorized,
        },
      },
    })
    .input(pushSubscriptionInput)
    .output(pushSubscriptionSchema)
    .mutation(({ ctx, input }) => ctx.services.push.subscribe(ctx.actor.id, input)),

  unsubscribePush: authedProcedure
    .meta({
      successStatus: 204,
      bodyOnDelete: true,
      openapi: {
        method: 'DELETE',
        path: '/notifications/push/subscriptions',
        operationId: 'deletePushSubscription',
        tags,
        summary: "Forget the caller's subscription at this endpoint (idempotent)",
        errorResponses: { 400: 'endpoint missing', ...unauthorized },
      },
    })
    .input(pushEndpointInput)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.push.unsubscribe(ctx.actor.id, input.endpoint)),

  preferences: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/notifications/preferences',
        operationId: 'getNotificationPreferences',
        tags,
        summary: 'Which types are pushed to the caller’s devices (all by default)',
        errorResponses: { ...unauthorized },
      },
    })
    .input(z.void())
    .output(pushPreferencesSchema)
    .query(({ ctx }) => ctx.services.push.preferences(ctx.actor.id)),

  updatePreferences: authedProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/notifications/preferences',
        operationId: 'updateNotificationPreferences',
        tags,
        summary: 'Turn pushing of some types on or off (the inbox always records)',
        successDescription: 'Every type’s preference after the change',
        errorResponses: { 400: 'An unknown type, or push not a boolean', ...unauthorized },
      },
    })
    .input(pushPreferencesPatch)
    .output(pushPreferencesSchema)
    .mutation(({ ctx, input }) => ctx.services.push.updatePreferences(ctx.actor.id, input)),
};
