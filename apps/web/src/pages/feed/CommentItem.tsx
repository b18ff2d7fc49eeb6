import { LIMITS } from '@campus/core/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton';
import { formMessage } from '../../lib/errors';
import { useTRPC, type RouterOutputs } from '../../lib/trpc';
import { LinkedText } from '../../components/LinkedText';
import { RelativeTime } from '../../components/Times';
import { Avatar } from '../../components/media/Avatar';
import { CommentReport } from './CommentReport';

type Comment = RouterOutputs['feed']['listComments']['data'][number];

/** One comment: its author edits it in place; the author, the post's author or an ADMIN deletes it. */
export function CommentItem({
  comment,
  mayEdit,
  mayDelete,
  mayReport,
  onDelete,
  announce,
}: {
  comment: Comment;
  mayEdit: boolean;
  mayDelete: boolean;
  /** Someone else's comment: "Denunciar". */
  mayReport: boolean;
  onDelete: () => void;
  announce: (message: string) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const edit = useMutation(
    trpc.feed.editComment.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.feed.pathKey() }),
    }),
  );

  async function save() {
    setError(null);
    try {
      await edit.mutateAsync({ id: comment.id, content: draft ?? '' });
      setDraft(null);
      announce('Comentário editado.');
    } catch (failure) {
      setError(formMessage(failure));
    }
  }

  const who = `@${comment.author.userName}`;
  return (
    <li className="comment">
      <p className="meta">
        <Avatar url={comment.author.avatarUrl} name={comment.author.userName} size={24} /> {who} ·{' '}
        <RelativeTime iso={comment.createdAt} />
        {comment.updatedAt ? ' · editado' : ''}
        {comment.hidden ? <span className="badge"> Oculto pela moderação</span> : null}
      </p>
      {draft === null ? (
        <p className="content">
          <LinkedText text={comment.content} />
        </p>
      ) : (
        <div className="stack">
          <label htmlFor={`edit-${comment.id}`}>Editar comentário</label>
          <textarea
            id={`edit-${comment.id}`}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            rows={3}
            maxLength={LIMITS.comment.content.max}
          />
        </div>
      )}
      {error ? <p role="alert">{error}</p> : null}
      <div className="row">
        {mayEdit && draft === null ? (
          <button
            type="button"
            className="small"
            onClick={() => setDraft(comment.content)}
            aria-label={`Editar o comentário de ${who}`}
          >
            Editar
          </button>
        ) : null}
        {draft !== null ? (
          <>
            <button
              type="button"
              className="small primary"
              disabled={edit.isPending}
              onClick={() => void save()}
            >
              Salvar
            </button>
            <button type="button" className="small" onClick={() => setDraft(null)}>
              Cancelar
            </button>
          </>
        ) : null}
        {mayDelete ? (
          <ConfirmButton
            label="Excluir"
            ariaLabel={`Excluir o comentário de ${who}`}
            question="Excluir este comentário?"
            confirmLabel="Sim, excluir"
            className="small"
            onConfirm={onDelete}
          />
        ) : null}
        {mayReport && draft === null ? (
          <CommentReport commentId={comment.id} who={who} announce={announce} />
        ) : null}
      </div>
    </li>
  );
}
