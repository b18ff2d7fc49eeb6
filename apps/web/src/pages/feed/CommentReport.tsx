import { createCommentReportInput } from '@campus/core/schemas';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { fieldErrors, formMessage, sameNames } from '../../lib/errors';
import { useTRPC } from '../../lib/trpc';
import { checked } from '../../lib/validate';
import { ReportReasonField } from './ReportReasonField';

/** "Denunciar" on someone else's comment (POST /comment/{id}/report): a reason, then thanks. */
export function CommentReport({
  commentId,
  who,
  announce,
}: {
  commentId: string;
  who: string;
  announce: (message: string) => void;
}) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sent, setSent] = useState(false);
  const report = useMutation(trpc.feed.reportComment.mutationOptions());
  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      await report.mutateAsync(checked(createCommentReportInput, { id: commentId, reason }, 'en'));
      setSent(true);
      setOpen(false);
      announce('Denúncia enviada. Obrigado por avisar.');
    } catch (failure) {
      const fields = sameNames('reason');
      setError(fieldErrors(failure, fields).reason ?? formMessage(failure, fields));
    }
  }
  if (sent) return <span className="meta">Denunciado</span>;
  if (!open)
    return (
      <button
        type="button"
        className="small"
        aria-label={`Denunciar o comentário de ${who}`}
        onClick={() => setOpen(true)}
      >
        Denunciar
      </button>
    );
  return (
    <form onSubmit={submit} noValidate className="stack comment-report">
      <ReportReasonField
        label="Motivo da denúncia do comentário"
        name={`reason-${commentId}`}
        value={reason}
        onChange={setReason}
        error={error}
      />
      <div className="row">
        <button type="submit" className="small primary" disabled={report.isPending}>
          Enviar denúncia
        </button>
        <button type="button" className="small" onClick={() => setOpen(false)}>
          Cancelar
        </button>
      </div>
    </form>
  );
}
