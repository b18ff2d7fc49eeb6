/** The initials shown when a person has no avatar: the first letters of up to two words. */
export function initialsOf(name: string): string {
  const words = name
    .replace(/^@/, '')
    .split(/[\s._-]+/)
    .filter(Boolean);
  return (
    words.length > 1 ? words[0]![0]! + words[1]![0]! : (words[0] ?? '?').slice(0, 2)
  ).toUpperCase();
}

/** A person's avatar (docs/contract/media.md), or their initials when there is none. */
export function Avatar({
  url,
  name,
  size = 32,
}: {
  url: string | null | undefined;
  name: string;
  size?: number;
}) {
  const style = { width: size, height: size };
  return url ? (
    <img
      className="avatar"
      src={url}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      style={style}
    />
  ) : (
    <span className="avatar avatar--initials" aria-hidden="true" style={style}>
      {initialsOf(name)}
    </span>
  );
}
