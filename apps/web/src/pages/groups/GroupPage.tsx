import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage, StatusMessage } from '../../components/Alert';
import { Page, PendingPage } from '../../components/Page';
import { ConfirmButton } from '../../components/ConfirmButton';
import { PagedItems } from '../../components/PagedItems';
import { formMessage } from '../../lib/errors';
import { plural } from '../../lib/format';
import { RelativeTime } from '../../components/Times';
import { Link } from '../../lib/router';
import { useTRPC } from '../../lib/trpc';
import { useSession } from '../../session/SessionProvider';
import { LinkedText } from '../../components/LinkedText';
import { ShareButton } from '../../components/ShareButton';
import { Avatar } from '../../components/media/Avatar';
import { GroupContent } from './GroupContent';
import { GroupLogoEditor } from './GroupLogoEditor';
import { VerifiedBadge } from './GroupsPage';
import { GROUP_ROLE_LABELS, GROUP_TYPE_LABELS } from './labels';

/** Pending requests, for the group's OWNERs and ADMINs: approve or reject. */
function Requests({ id, onDone }: { id: string; onDone: (note: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const requests = useQuery(trpc.groups.listRequests.queryOptions({ id, page: 1, limit: 50 }));
  const approve = useMutation(trpc.groups.approveRequest.mutationOptions());
  const reject = useMutation(trpc.groups.rejectRequest.mutationOptions());
  const error = approve.error ?? reject.error;
  const decide = async (requestId: string, name: string, ok: boolean) => {
    await (ok ? approve : reject).mutateAsync({ id, requestId });
    await queryClient.invalidateQueries({ queryKey: trpc.groups.pathKey() });
    onDone(ok ? `${name} agora é membro.` : `Pedido de ${name} recusado.`);
  };
  // Shown while there is something to decide (or a decision to announce).
  if (requests.data?.data.length === 0 && !error) return null;
  return (
    <section aria-labelledby="requests-title">
      <h2 id="requests-title">Pedidos para entrar</h2>
      <ErrorMessage>{error ? formMessage(error) : null}</ErrorMessage>
      <ul className="plain-list">
        {requests.data?.data.map((r) => (
          <li key={r.id} className="person">
            <Avatar url={r.user.avatarUrl} name={r.user.name} />
            <span className="person__name">
              <strong>{r.user.name}</strong>{' '}
              <span className="meta">
                @{r.user.userName} · <RelativeTime iso={r.createdAt} />
              </span>
            </span>
            <button
              type="button"
              onClick={() => void decide(r.id, r.user.name, true).catch(() => {})}
            >
              Aprovar
            </button>{' '}
            <button
              type="button"
              onClick={() => void decide(r.id, r.user.name, false).catch(() => {})}
            >
              Recusar
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The members, a page at a time. An OWNER removes anyone but themself; an ADMIN removes MEMBERs
 * (the server's rule); each removal asks first and is announced.
 */
function Members({
  id,
  myRole,
  onDone,
}: {
  id: string;
  myRole: string | null;
  onDone: (note: string) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const [page, setPage] = useState(1);
  const members = useQuery(trpc.groups.listMembers.queryOptions({ id, page, limit: 20 }));
  const remove = useMutation(trpc.groups.removeMember.mutationOptions());
  const mayRemove = (role: string, userId: string) =>
    userId !== user?.id &&
    (myRole === 'OWNER' || user?.perfil === 'ADMIN' || (myRole === 'ADMIN' && role === 'MEMBER'));
  const removeMember = async (userId: string, name: string) => {
    await remove.mutateAsync({ id, userId });
    await queryClient.invalidateQueries({ queryKey: trpc.groups.pathKey() });
    onDone(`${name} foi removido(a) do grupo.`);
  };
  const error = members.error ?? remove.error;
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">Membros</h2>
      <ErrorMessage>{error ? formMessage(error) : null}</ErrorMessage>
      <PagedItems
        pager={{ label: 'Páginas de membros', page, onPage: setPage }}
        items={members.data?.data}
        totalPages={members.data?.meta.totalPages}
      >
        {(m) => (
          <li key={m.user.id} className="person">
            <Avatar url={m.user.avatarUrl} name={m.user.name} />
            <span className="person__name">
              <strong>{m.user.name}</strong>{' '}
              <span className="meta">
                @{m.user.userName} · {GROUP_ROLE_LABELS[m.role]}
              </span>
            </span>
            {mayRemove(m.role, m.user.id) ? (
              <ConfirmButton
                label="Remover"
                ariaLabel={`Remover @${m.user.userName} do grupo`}
                question={`Remover ${m.user.name} do grupo?`}
                confirmLabel="Sim, remover"
                className="small"
                onConfirm={() => void removeMember(m.user.id, m.user.name).catch(() => {})}
              />
            ) : null}
          </li>
        )}
      </PagedItems>
    </section>
  );
}

/** A group: its profile, following, joining or leaving, members and (for its admins) requests. */
export function GroupPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const [note, setNote] = useState<string | null>(null);
  const group = useQuery(trpc.groups.get.queryOptions({ id }));
  const follow = useMutation(trpc.groups.follow.mutationOptions());
  const unfollow = useMutation(trpc.groups.unfollow.mutationOptions());
  const ask = useMutation(trpc.groups.requestToJoin.mutationOptions());
  const withdraw = useMutation(trpc.groups.withdrawRequest.mutationOptions());
  const leave = useMutation(trpc.groups.removeMember.mutationOptions());
  const error = follow.error ?? unfollow.error ?? ask.error ?? withdraw.error ?? leave.error;

  if (!group.data)
    return (
      <PendingPage
        title="Grupo"
        error={group.error}
        back={<Link to="/grupos">Voltar aos grupos</Link>}
      />
    );
  const g = group.data;
  const run = async (action: () => Promise<unknown>, message: string) => {
    setNote(null);
    await action();
    await queryClient.invalidateQueries({ queryKey: trpc.groups.pathKey() });
    setNote(message);
  };
  const act = (action: () => Promise<unknown>, message: string) => () =>
    void run(action, message).catch(() => {});
  const manages = g.myRole === 'OWNER' || g.myRole === 'ADMIN' || user?.perfil === 'ADMIN';

  return (
    <Page
      title={g.name}
      actions={<ShareButton title={g.name} path={`/grupos/${id}`} label={`o grupo ${g.name}`} />}
    >
      <p className="row">
        <Avatar url={g.logoUrl} name={g.name} size={56} />
        <VerifiedBadge verified={g.verified} /> {GROUP_TYPE_LABELS[g.groupType]}
        {g.sports.length ? ` · ${g.sports.join(', ')}` : ''}
      </p>
      {g.description ? (
        <p className="content">
          <LinkedText text={g.description} />
        </p>
      ) : null}
      <p className="counts">
        {plural(g.membersCount, 'membro', 'membros')} ·{' '}
        {plural(g.followersCount, 'seguidor', 'seguidores')}
        {g.myRole ? ` · Você é ${GROUP_ROLE_LABELS[g.myRole]?.toLowerCase()}` : ''}
      </p>
      <StatusMessage>{note}</StatusMessage>
      <ErrorMessage>{error ? formMessage(error) : null}</ErrorMessage>
      <div className="actions">
        {g.following ? (
          <button
            type="button"
            onClick={act(() => unfollow.mutateAsync({ id }), 'Você deixou de seguir o grupo.')}
          >
            Deixar de seguir
          </button>
        ) : (
          <button
            type="button"
            onClick={act(() => follow.mutateAsync({ id }), 'Agora você segue o grupo.')}
          >
            Seguir
          </button>
        )}{' '}
        {g.myRole ? (
          <ConfirmButton
            label="Sair do grupo"
            question="Sair do grupo? Para voltar, será preciso pedir de novo."
            confirmLabel="Sim, sair"
            onConfirm={act(
              () => leave.mutateAsync({ id, userId: user!.id }),
              'Você saiu do grupo.',
            )}
          />
        ) : g.myRequest === 'PENDING' ? (
          <button
            type="button"
            onClick={act(() => withdraw.mutateAsync({ id }), 'Pedido retirado.')}
          >
            Retirar pedido
          </button>
        ) : g.acceptingNewMembers ? (
          <button
            type="button"
            onClick={act(() => ask.mutateAsync({ id }), 'Pedido enviado aos administradores.')}
          >
            Pedir para entrar
          </button>
        ) : (
          <span>Este grupo não está aceitando novos membros.</span>
        )}
      </div>
      {manages ? <GroupLogoEditor id={id} name={g.name} logoUrl={g.logoUrl} /> : null}
      {manages ? <Requests id={id} onDone={setNote} /> : null}
      <GroupContent id={id} members={<Members id={id} myRole={g.myRole} onDone={setNote} />} />
    </Page>
  );
}
