import { useQueryClient } from '@tanstack/react-query';
import { ImageEditor } from '../../components/media/ImageEditor';
import { useTRPC, useTRPCClient } from '../../lib/trpc';
import { useSessionClient } from '../../session/SessionProvider';

/** The group's logo, for its OWNERs and ADMINs (docs/contract/media.md, Group logos). */
export function GroupLogoEditor({
  id,
  name,
  logoUrl,
}: {
  id: string;
  name: string;
  logoUrl: string | null;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const session = useSessionClient();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.groups.pathKey() });
  return (
    <ImageEditor
      label="Logo do grupo"
      name={name}
      current={logoUrl}
      onSave={async (file) => {
        await session.putImage(`/group/${id}/logo`, file);
        await refresh();
      }}
      onRemove={async () => {
        await client.groups.removeLogo.mutate({ id });
        await refresh();
      }}
    />
  );
}
