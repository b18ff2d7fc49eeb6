import type { NotificationType } from '../enums';
import type { NotificationData } from '../table';
import type { PushPayload } from './schemas';

/** The pushed notification's title, per type (its body is the inbox message). */
const TITLES: Record<NotificationType, string> = {
  POST_COMMENT: 'Novo comentário',
  GROUP_JOIN_REQUEST: 'Pedido para entrar no grupo',
  GROUP_JOIN_APPROVED: 'Pedido aprovado',
  GROUP_JOIN_REJECTED: 'Pedido recusado',
  GROUP_POST: 'Nova publicação no grupo',
  MATCH_SPOT_GRANTED: 'Você conseguiu uma vaga!',
  MATCH_CANCELLED: 'Partida cancelada',
  MATCH_REMINDER: 'Lembrete de partida',
  EVENT_REMINDER: 'Lembrete de evento',
  CONTENT_HIDDEN: 'Conteúdo ocultado',
};

/** A granted spot and reminders are time-critical: the push service delivers them at once. */
export const urgencyOf = (type: NotificationType): 'high' | 'normal' =>
  type === 'MATCH_SPOT_GRANTED' || type === 'MATCH_REMINDER' || type === 'EVENT_REMINDER'
    ? 'high'
    : 'normal';

/** The web app's page for a notification (its routes: /feed/:id, /partidas/:id, /grupos/:id). */
export function deepLinkOf(data: NotificationData): string {
  if (data.postId) return `/feed/${data.postId}`;
  if (data.matchId) return `/partidas/${data.matchId}`;
  if (data.groupId) return `/grupos/${data.groupId}`;
  return '/notificacoes';
}

export function pushPayloadOf(notification: {
  id: string;
  type: NotificationType;
  message: string;
  data: NotificationData;
}): PushPayload {
  return {
    notificationId: notification.id,
    type: notification.type,
    title: TITLES[notification.type],
    body: notification.message,
    url: deepLinkOf(notification.data),
  };
}
