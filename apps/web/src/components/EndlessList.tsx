import { useEffect, useRef, type ReactNode } from 'react';
import { formMessage } from '../lib/errors';
import { ErrorMessage } from './Alert';

interface InfiniteQuery<T> {
  isPending: boolean;
  error: unknown;
  data?: { pages: Array<{ data: T[] }> } | undefined;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * An endless list over a cursor-paged query (TanStack's infinite query, `meta.nextCursor`):
 * the next page loads as the end of the list comes near the screen, and a "Carregar mais"
 * button does the same for a keyboard or when the observer is not there.
 */
export function EndlessList<T>({
  id,
  heading,
  loading,
  empty,
  query,
  children,
}: {
  id: string;
  heading: string;
  loading: string;
  empty: ReactNode;
  query: InfiniteQuery<T>;
  /** One `<li>` (with its key) per item. */
  children: (item: T) => ReactNode;
}) {
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const more = hasNextPage && !isFetchingNextPage && !query.error;
  useEffect(() => {
    const target = sentinel.current;
    if (!target || !more || !('IntersectionObserver' in window)) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [more, fetchNextPage]);

  const items = query.data?.pages.flatMap((page) => page.data);
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="visually-hidden">
        {heading}
      </h2>
      {query.isPending ? <p role="status">{loading}</p> : null}
      <ErrorMessage>{query.error ? formMessage(query.error) : null}</ErrorMessage>
      {items && items.length === 0 ? <p>{empty}</p> : null}
      <ul className="plain-list" aria-busy={isFetchingNextPage}>
        {items?.map(children)}
      </ul>
      <div ref={sentinel} className="endless__end">
        {isFetchingNextPage ? <p role="status">Carregando mais…</p> : null}
        {more ? (
          <button type="button" onClick={() => void fetchNextPage()}>
            Carregar mais
          </button>
        ) : null}
        {items && items.length > 0 && !hasNextPage ? (
          <p className="meta">Você chegou ao fim.</p>
        ) : null}
      </div>
    </section>
  );
}
