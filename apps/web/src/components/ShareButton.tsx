import { useState } from 'react';
import { Icon } from './Icon';

/**
 * Shares a page of the app: the phone's share sheet (Web Share API) where there is one, else
 * the link copied to the clipboard, said in a status line. `path` is the page's address.
 */
export function ShareButton({
  title,
  path,
  label,
  compact = false,
}: {
  title: string;
  path: string;
  label: string;
  /** The icon alone (on a card, beside the other actions); its name still says what it does. */
  compact?: boolean;
}) {
  const [note, setNote] = useState<string | null>(null);
  async function share() {
    const url = new URL(path, window.location.origin).href;
    setNote(null);
    if (navigator.share) {
      try {
        await navigator.share({ title, url });
        return;
      } catch (error) {
        // Closing the share sheet is no failure; anything else falls back to copying.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setNote('Link copiado.');
    } catch {
      setNote(`Copie o link: ${url}`);
    }
  }
  return (
    <>
      <button
        type="button"
        className={compact ? 'small with-icon icon-button' : 'small with-icon'}
        aria-label={`Compartilhar ${label}`}
        onClick={() => void share()}
      >
        <Icon name="share" />
        {compact ? null : 'Compartilhar'}
      </button>
      <span role="status" className="meta">
        {note}
      </span>
    </>
  );
}
