import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ImageEditor } from '../../components/media/ImageEditor';
import { useTRPC, useTRPCClient } from '../../lib/trpc';
import { useSessionClient } from '../../session/SessionProvider';

/** "Minha conta": the account's avatar (docs/contract/media.md, Avatars): choose, preview, save, remove. */
export function AvatarEditor({ name }: { name: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const session = useSessionClient();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.auth.me.queryOptions());
  // Every list showing the person's avatar reads it again.
  const refresh = () => queryClient.invalidateQueries();
  return (
    <ImageEditor
      label="Foto do perfil"
      name={name}
      current={me.data?.dados.avatarUrl}
      onSave={async (file) => {
        await session.putImage('/autenticacao/usuario-atual/avatar', file);
        await refresh();
      }}
      onRemove={async () => {
        await client.media.removeAvatar.mutate();
        await refresh();
      }}
    />
  );
}
