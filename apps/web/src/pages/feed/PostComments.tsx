import { createCommentInput, LIMITS } from '@campus/core/schemas';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage } from '../../components/Alert';
import { Field } from '../../components/Field';
import { useSubmit } from '../../components/useForm';
import { formMessage, sameNames } from '../../lib/errors';
import { PagedItems } from '../../components/PagedItems';
import { CommentItem } from './CommentItem';
import { useTRPC, type RouterOutputs } from '../../lib/trpc';
import { useSession } from '../../session/SessionProvider';
import { checked } from '../../lib/validate';

type Post = RouterOutputs['feed']['get'];
const FIELDS = sameNames('content');

const PAGE_SIZE = 10;

/**
 * The comments of a post, newest first, a page at a time (GET /post/{id}/comment: the post read
 * embeds only the newest), a form to add one, edit and delete where allowed.
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
  const [page, setPage] = useState(1);
  const comments = useQuery({
    ...trpc.feed.listComments.queryOptions({ id: post.id, page, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const { errors, message, setMessage, formRef, handle } = useSubmit(FIELDS);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.feed.pathKey() });

  const add = useMutation(trpc.feed.addComment.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.feed.removeComment.mutationOptions({ onSuccess: refresh }));

  const submit = handle(async () => {
    await add.mutateAsync(checked(createCommentInput, { id: post.id, content }, 'en'));
    setContent('');
    setPage(1);
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
      <h2 id="comments-title">
        Comentários ({comments.data?.meta.totalCount ?? post.commentsCount})
      </h2>
      <ErrorMessage>{message}</ErrorMessage>
      <form ref={formRef} onSubmit={submit} noValidate className="stack">
        <Field label="Seu comentário" name="content" error={errors.content} required>
          {(c) => (
            <textarea
              {...c}
              value={content}
              onChange={(e) => setContent(e.target.value)}
              rows={3}
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
      {comments.data && comments.data.meta.totalCount === 0 ? (
        <p>Nenhum comentário ainda.</p>
      ) : null}
      <ErrorMessage>{comments.error ? formMessage(comments.error) : null}</ErrorMessage>
      <PagedItems
        className="plain-list comments"
        busy={comments.isFetching}
        items={comments.data?.data}
        totalPages={comments.data?.meta.totalPages}
        pager={{ label: 'Páginas de comentários', page, onPage: setPage }}
      >
        {(comment) => (
          <CommentItem
            key={comment.id}
            comment={comment}
            mayEdit={user?.id === comment.author.id}
            mayDelete={Boolean(mayDelete(comment.author.id))}
            onDelete={() => void removeComment(comment.id)}
            announce={announce}
          />
        )}
      </PagedItems>
    </section>
  );
}
