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
