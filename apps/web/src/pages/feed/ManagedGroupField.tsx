import type { ChangeEvent } from 'react';
import { Field } from '../../components/Field';
import { Options } from '../../components/Options';
import { useManagedGroups } from './useManagedGroups';

/**
 * The group to act in the name of (a post's author, a match's organiser): one the user manages,
 * or none. A post or match already in a group the user does not manage (a site ADMIN editing)
 * keeps that option. Nothing shows for someone who manages no group.
 */
export function ManagedGroupField({
  label,
  none,
  hint,
  current,
  error,
  control,
}: {
  label: string;
  /** The empty choice: acting as oneself. */
  none: string;
  hint?: string;
  current: { id: string | null; name: string | null } | undefined;
  error: string | undefined;
  control: { value: string; onChange: (event: ChangeEvent<HTMLSelectElement>) => void };
}) {
  const managed = useManagedGroups();
  const kept = current?.id && current.name && !managed.some((g) => g.id === current.id);
  const groups = kept ? [{ id: current.id!, name: current.name! }, ...managed] : managed;
  if (groups.length === 0) return null;
  return (
    <Field label={label} name="groupId" error={error} hint={hint}>
      {(c) => (
        <select {...c} {...control}>
          <Options empty={none} choices={groups.map((g) => ({ value: g.id, label: g.name }))} />
        </select>
      )}
    </Field>
  );
}
