import { useQueries, useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/** A group the signed-in user may post in the name of. */
export interface ManagedGroup {
  id: string;
  name: string;
}

/**
 * The groups where the signed-in user is OWNER or ADMIN: `GET /group?mine=true` (any role; the
 * list items carry no role), then `groups.get` of each for `myRole`. One list call plus one per
 * group the user belongs to (the first 50, the list's largest page), cached by React Query; no API
 * change.
 */
export function useManagedGroups(enabled = true): ManagedGroup[] {
  const trpc = useTRPC();
  const mine = useQuery({
    ...trpc.groups.list.queryOptions({ mine: true, limit: 50 }),
    enabled,
  });
  const details = useQueries({
    queries: (mine.data?.data ?? []).map((group) => trpc.groups.get.queryOptions({ id: group.id })),
  });
  // All or nothing: the options do not grow one by one while the roles arrive.
  if (!mine.data || details.some((query) => query.isPending)) return [];
  return details.flatMap(({ data }) =>
    data && (data.myRole === 'OWNER' || data.myRole === 'ADMIN')
      ? [{ id: data.id, name: data.name }]
      : [],
  );
}
