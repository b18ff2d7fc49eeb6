import type { NewNotification } from './service';

/** The notifications' texts, in Portuguese, one function per type. */

const quoted = (title: string) => `“${title.length > 80 ? `${title.slice(0, 79)}…` : title}”`;

export const commentNotification = (
  post: { authorId: string; title: string },
  comment: { id: string; postId: string },
  commenter: string,
): NewNotification => ({
  userId: post.authorId,
  type: 'POST_COMMENT',
  message: `${commenter} comentou na sua publicação ${quoted(post.title)}`,
  data: { postId: comment.postId, commentId: comment.id },
});

export const matchCancelledNotification = (
  match: { id: string; title: string },
  userId: string,
): NewNotification => ({
  userId,
  type: 'MATCH_CANCELLED',
  message: `A partida ${quoted(match.title)} foi cancelada`,
  data: { matchId: match.id },
});

export const spotGrantedNotification = (
  match: { id: string; title: string },
  userId: string,
): NewNotification => ({
  userId,
  type: 'MATCH_SPOT_GRANTED',
  message: `Abriu uma vaga e você entrou na partida ${quoted(match.title)}`,
  data: { matchId: match.id },
});

/** To each OWNER and ADMIN of the group: someone asked to join. */
export const joinRequestNotifications = (
  group: { id: string; name: string },
  requester: string,
  managerIds: string[],
): NewNotification[] =>
  managerIds.map((userId) => ({
    userId,
    type: 'GROUP_JOIN_REQUEST',
    message: `${requester} pediu para entrar no grupo ${quoted(group.name)}`,
    data: { groupId: group.id },
  }));

/** To the requester: the request was decided. */
export const joinDecisionNotification = (
  group: { id: string; name: string },
  userId: string,
  status: 'APPROVED' | 'REJECTED',
): NewNotification =>
  status === 'APPROVED'
    ? {
        userId,
        type: 'GROUP_JOIN_APPROVED',
        message: `Seu pedido para entrar no grupo ${quoted(group.name)} foi aprovado: agora você é membro`,
        data: { groupId: group.id },
      }
    : {
        userId,
        type: 'GROUP_JOIN_REJECTED',
        message: `Seu pedido para entrar no grupo ${quoted(group.name)} foi recusado`,
        data: { groupId: group.id },
      };

/** The author of a post or comment that moderation hid (by the reporters' threshold or an ADMIN). */
export const contentHiddenNotification = (
  hidden:
    | { kind: 'POST'; authorId: string; postId: string; title: string }
    | { kind: 'COMENTARIO'; authorId: string; postId: string; commentId: string; title: string },
): NewNotification =>
  hidden.kind === 'POST'
    ? {
        userId: hidden.authorId,
        type: 'CONTENT_HIDDEN',
        message: `Sua publicação ${quoted(hidden.title)} foi ocultada após denúncias`,
        data: { postId: hidden.postId },
      }
    : {
        userId: hidden.authorId,
        type: 'CONTENT_HIDDEN',
        message: `Seu comentário na publicação ${quoted(hidden.title)} foi ocultado após denúncias`,
        data: { postId: hidden.postId, commentId: hidden.commentId },
      };

/** To each follower of the group but the one who posted: a post in the group's name. */
export const groupPostNotifications = (
  group: { id: string; name: string },
  post: { id: string; title: string },
  followerIds: string[],
): NewNotification[] =>
  followerIds.map((userId) => ({
    userId,
    type: 'GROUP_POST',
    message: `${quoted(group.name)} publicou ${quoted(post.title)}`,
    data: { groupId: group.id, postId: post.id },
  }));
