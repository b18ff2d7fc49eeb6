/** A choice of a select: what it sends and what it says. */
export interface Choice {
  value: string;
  label: string;
}

/** The `<option>`s of a select: an empty first one when `empty` is given, then one per choice. */
export function Options({ empty, choices }: { empty?: string; choices: readonly Choice[] }) {
  return (
    <>
      {empty === undefined ? null : <option value="">{empty}</option>}
      {choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </>
  );
}
