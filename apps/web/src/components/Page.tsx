import { useEffect, type ReactNode } from 'react';

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
