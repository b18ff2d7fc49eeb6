import type { ReactNode } from 'react';

/** An error the screen reader announces at once. Renders nothing without a message. */
export function ErrorMessage({ children }: { children?: ReactNode }) {
  if (!children) return null;
  return (
    <div className="alert alert--error" role="alert">
      {children}
    </div>
  );
}

/**
 * A polite announcement region (success notes, "3 vagas livres"). It stays mounted so that a
 * screen reader hears its changes.
 */
export function StatusMessage({ children }: { children?: ReactNode }) {
  return (
    <div className={children ? 'alert alert--ok' : 'visually-hidden'} role="status">
      {children}
    </div>
  );
}
