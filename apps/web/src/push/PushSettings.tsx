import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorMessage, StatusMessage } from '../components/Alert';
import { useTRPC, useTRPCClient, type RouterOutputs } from '../lib/trpc';
import { currentSubscription, pushSupport, subscribeBrowser } from './subscription';
import './push.css';

type Types = RouterOutputs['notifications']['preferences']['types'];
type NotificationType = keyof Types;

const LABELS: Record<NotificationType, string> = {
  POST_COMMENT: 'Comentários nas minhas publicações',
  GROUP_JOIN_REQUEST: 'Pedidos para entrar nos meus grupos',
  GROUP_JOIN_APPROVED: 'Pedido para entrar num grupo aprovado',
  GROUP_JOIN_REJECTED: 'Pedido para entrar num grupo recusado',
  GROUP_POST: 'Publicações dos grupos que sigo',
  MATCH_SPOT_GRANTED: 'Vaga conseguida numa partida',
  MATCH_CANCELLED: 'Partida cancelada',
  MATCH_REMINDER: 'Lembrete de partida',
  EVENT_REMINDER: 'Lembrete de evento',
  CONTENT_HIDDEN: 'Conteúdo meu ocultado',
};

/** "Ativar notificações" for this browser: asks for permission only on the button's click. */
function ThisDevice() {
  const client = useTRPCClient();
  const support = pushSupport();
  const [on, setOn] = useState<boolean | null>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    if (support === 'supported')
      void currentSubscription().then(
        (s) => setOn(s !== null && Notification.permission === 'granted'),
        () => setOn(false),
      );
  }, [support]);

  if (support === 'needs-home-screen')
    return (
      <p>
        No iPhone e no iPad, as notificações chegam só com o Campus na tela de início: toque em
        Compartilhar e em &quot;Adicionar à Tela de Início&quot;, e abra o Campus por lá.
      </p>
    );
  if (support === 'unsupported') return <p>Este navegador não recebe notificações.</p>;

  async function enable() {
    setError('');
    try {
      const { publicKey } = await client.notifications.pushPublicKey.query();
      const subscription = await subscribeBrowser(publicKey);
      if (!subscription) {
        setError('As notificações estão bloqueadas. Libere-as nas configurações do navegador.');
        return;
      }
      await client.notifications.subscribePush.mutate({
        endpoint: subscription.endpoint!,
        keys: { p256dh: subscription.keys!.p256dh!, auth: subscription.keys!.auth! },
      });
      setOn(true);
      setStatus('Notificações ativadas neste aparelho.');
    } catch {
      setError('Não foi possível ativar as notificações. Tente de novo.');
    }
  }

  async function disable() {
    setError('');
    const subscription = await currentSubscription();
    if (subscription) {
      await client.notifications.unsubscribePush
        .mutate({ endpoint: subscription.endpoint })
        .catch(() => {});
      await subscription.unsubscribe();
    }
    setOn(false);
    setStatus('Notificações desativadas neste aparelho.');
  }

  return (
    <>
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage>{error}</ErrorMessage>
      <p>
        {on ? (
          <button type="button" onClick={() => void disable()}>
            Desativar notificações neste aparelho
          </button>
        ) : (
          <button type="button" onClick={() => void enable()} disabled={on === null}>
            Ativar notificações
          </button>
        )}
      </p>
    </>
  );
}

/** Which types are pushed (to every device of the account); the inbox records them all. */
function TypeSwitches() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const preferences = useQuery(trpc.notifications.preferences.queryOptions());
  const update = useMutation(
    trpc.notifications.updatePreferences.mutationOptions({
      onSuccess: (data) =>
        queryClient.setQueryData(trpc.notifications.preferences.queryKey(), data),
    }),
  );
  if (!preferences.data) return null;
  const types = preferences.data.types;
  return (
    <fieldset>
      <legend>Enviar para o celular e o computador</legend>
      <ErrorMessage>{update.error ? 'Não foi possível salvar. Tente de novo.' : ''}</ErrorMessage>
      {(Object.keys(LABELS) as NotificationType[]).map((type) => (
        <label key={type} className="check switch">
          <input
            type="checkbox"
            role="switch"
            checked={types[type].push}
            disabled={update.isPending}
            onChange={(event) =>
              update.mutate({ types: { [type]: { push: event.target.checked } } })
            }
          />{' '}
          {LABELS[type]}
        </label>
      ))}
    </fieldset>
  );
}

/** The account page's "Notificações" section. */
export function PushSettings() {
  return (
    <section aria-labelledby="push-titulo" className="stack">
      <h2 id="push-titulo">Notificações</h2>
      <ThisDevice />
      <TypeSwitches />
    </section>
  );
}
