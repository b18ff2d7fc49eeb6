import { useEffect, useState } from 'react';
import { eventDateTime, fullDateTime, relativeTime } from '../lib/format';

/** The current time, renewed every `everyMs` while mounted (for "há 5 minutos" to move on). */
function useNow(everyMs: number) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * "há 5 minutos", with the date in full on hover (title) and on keyboard focus (shown beside it
 * by CSS, `.reltime:focus::after`), and for screen readers after the relative words.
 */
export function RelativeTime({ iso }: { iso: string }) {
  const now = useNow(30_000);
  const full = fullDateTime(iso);
  return (
    <time className="reltime" dateTime={iso} title={full} data-full={full} tabIndex={0}>
      {relativeTime(iso, now)}
      <span className="visually-hidden"> ({full})</span>
    </time>
  );
}

/** An event's or a match's date: weekday, time and zone (and the reader's time when it differs). */
export function EventTime({ iso }: { iso: string }) {
  return <time dateTime={iso}>{eventDateTime(iso)}</time>;
}
