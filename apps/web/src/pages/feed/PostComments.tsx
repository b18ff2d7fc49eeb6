import { createCommentInput, LIMITS } from '@campus/core/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage } from '../../components/Alert';
import { Field } from '../../components/Field';
import { useSubmit } from '../../components/useForm';
import { formMessage, sameNames } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import { useTRPC, type RouterOutputs } from '../../lib/trpc';
import { useSession } from '../../session/SessionProvider';
import { checked } from '../../lib/validate';

type Post = RouterOutputs['feed']['get'];
const FIELDS = sameNames('content');

/** The comments of a post, newest first, a form to add one, and delete where allowed. */
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
      <h2 id="comments-title">Comentários ({post.comments.length})</h2>
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
      {post.comments.length === 0 ? <p>Nenhum comentário ainda.</p> : null}
      <ul className="plain-list comments">
        {post.comments.map((comment) => (
          <li key={comment.id} className="comment">
            <p className="meta">
              @{comment.author.userName} ·{' '}
              <time dateTime={comment.createdAt}>{formatDateTime(comment.createdAt)}</time>
            </p>
            <p className="content">{comment.content}</p>
            {mayDelete(comment.author.id) ? (
              <button
                type="button"
                className="small"
                onClick={() => void removeComment(comment.id)}
                aria-label={`Excluir o comentário de @${comment.author.userName}`}
              >
                Excluir
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
