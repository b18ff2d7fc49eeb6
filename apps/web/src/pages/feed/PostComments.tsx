import { createCommentInput, LIMITS } from '@campus/core/schemas';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorMessage } from '../../components/Alert';
import { Field } from '../../components/Field';
import { useSubmit } from '../../components/useForm';
import { formMessage, sameNames } from '../../lib/errors';
import { CommentItem } from './CommentItem';
import { useTRPC, type RouterOutputs } from '../../lib/trpc';
import { useSession } from '../../session/SessionProvider';
import { checked } from '../../lib/validate';

type Post = RouterOutputs['feed']['get'];
const FIELDS = sameNames('content');

const PAGE_SIZE = 10;

/**
 * The comments of a post as a conversation: oldest first, the newest at the bottom just above
 * the box to answer, earlier ones a tap away ("Ver comentários anteriores": the next page of
 * GET /post/{id}/comment by cursor, which reads newest first); edit, delete and report where
 * allowed.
 */
export function PostComments({
  post,
  announce,
}: {
  post: Post;
  announce: (message: string) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const [content, setContent] = useState('');
  const comments = useInfiniteQuery(
    trpc.feed.listComments.infiniteQueryOptions(
      { id: post.id, limit: PAGE_SIZE },
      { getNextPageParam: (last) => last.meta.nextCursor ?? undefined },
    ),
  );
  const oldestFirst = comments.data?.pages.flatMap((p) => p.data).reverse();
  const total = comments.data?.pages[0]?.meta.totalCount;
  // The post's count follows the live stream, which opens after this list was read and starts
  // with the current counters: when they disagree, a comment came in between, so read again.
  const { refetch } = comments;
  useEffect(() => {
    if (total !== undefined && total !== post.commentsCount) void refetch();
  }, [total, post.commentsCount, refetch]);
  const { errors, message, setMessage, formRef, handle } = useSubmit(FIELDS);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.feed.pathKey() });

  const add = useMutation(trpc.feed.addComment.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.feed.removeComment.mutationOptions({ onSuccess: refresh }));

  const submit = handle(async () => {
    await add.mutateAsync(checked(createCommentInput, { id: post.id, content }, 'en'));
    setContent('');
    announce('Comentário publicado.');
  });

  async function removeComment(id: string) {
    setMessage(null);
    try {
      await remove.mutateAsync({ id });
      announce('Comentário excluído.');
    } catch (error) {
      setMessage(formMessage(error));
    }
  }

  const mayDelete = (authorId: string) =>
    user && (user.id === authorId || user.id === post.authorId || user.perfil === 'ADMIN');

  return (
    <section aria-labelledby="comments-title" className="card">
      <h2 id="comments-title">Comentários ({total ?? post.commentsCount})</h2>
      {total === 0 ? <p>Nenhum comentário ainda.</p> : null}
      <ErrorMessage>{comments.error ? formMessage(comments.error) : null}</ErrorMessage>
      {comments.hasNextPage ? (
        <button
          type="button"
          className="small"
          disabled={comments.isFetchingNextPage}
          onClick={() => void comments.fetchNextPage()}
        >
          Ver comentários anteriores
        </button>
      ) : null}
      <ul className="plain-list comments" aria-busy={comments.isFetching}>
        {oldestFirst?.map((comment) => (
          <CommentItem
            key={comment.id}
            comment={comment}
            mayEdit={user?.id === comment.author.id}
            mayDelete={Boolean(mayDelete(comment.author.id))}
            mayReport={user?.id !== comment.author.id}
            onDelete={() => void removeComment(comment.id)}
            announce={announce}
          />
        ))}
      </ul>
      <ErrorMessage>{message}</ErrorMessage>
      <form ref={formRef} onSubmit={submit} noValidate className="stack comment-form">
        <Field label="Seu comentário" name="content" error={errors.content} required>
          {(c) => (
            <textarea
              {...c}
              value={content}
              onChange={(e) => setContent(e.target.value)}
              rows={2}
              maxLength={LIMITS.comment.content.max}
              required
            />
          )}
        </Field>
        <div className="row">
          <button type="submit" className="primary" disabled={add.isPending}>
            {add.isPending ? 'Enviando…' : 'Comentar'}
          </button>
        </div>
      </form>
    </section>
  );
}
