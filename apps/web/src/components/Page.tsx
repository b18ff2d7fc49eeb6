import { useEffect, type ReactNode } from 'react';
import { formMessage } from '../lib/errors';
import { ErrorMessage } from './Alert';

/**
 * A page: its title in the tab and as the one h1, which receives the focus after a navigation
 * (see App) so that keyboard and screen-reader users start at the new content.
 */
export function Page({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  useEffect(() => {
    document.title = `${title} · Campus`;
  }, [title]);
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1}>{title}</h1>
        {actions}
      </div>
      {children}
    </>
  );
}

/** A page whose data is still loading (a status line) or failed to load (the error and a way back). */
export function PendingPage({
  title,
  error,
  back,
}: {
  title: string;
  error: unknown;
  back: ReactNode;
}) {
  return (
    <Page title={title}>
      {error ? (
        <>
          <ErrorMessage>{formMessage(error)}</ErrorMessage>
          {back}
        </>
      ) : (
        <p role="status">Carregando…</p>
      )}
    </Page>
  );
}

/**
 * What stands while a page's code or the session is loading, sometimes for seconds (a slow or
 * absent network): a page of its own for assistive technology, named by a level-one heading.
 */
export function Loading({ className }: { className?: string }) {
  return (
    <>
      <h1 className="visually-hidden">Campus</h1>
      <p role="status" className={className}>
        Carregando…
      </p>
    </>
  );
}
