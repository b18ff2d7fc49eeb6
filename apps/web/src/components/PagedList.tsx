import type { ReactNode } from 'react';
import { formMessage } from '../lib/errors';
import { ErrorMessage } from './Alert';
import { PagedItems } from './PagedItems';

interface PagedQuery<T> {
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  data?: { data: T[]; meta: { totalPages: number } } | undefined;
}

/**
 * A page of a paginated list under a visually hidden heading: the loading line, the error, the
 * empty message, the items and the pager (groups, matches, the feed).
 */
export function PagedList<T>({
  id,
  heading,
  loading,
  empty,
  summary,
  pagesLabel,
  query,
  page,
  onPage,
  children,
}: {
  id: string;
  heading: string;
  loading: string;
  empty: ReactNode;
  /** Shown above the items once they are there (e.g. how many a search found). */
  summary?: ReactNode;
  pagesLabel: string;
  query: PagedQuery<T>;
  page: number;
  onPage: (page: number) => void;
  /** One `<li>` (with its key) per item. */
  children: (item: T) => ReactNode;
}) {
  const { data } = query;
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="visually-hidden">
        {heading}
      </h2>
      {query.isPending ? <p role="status">{loading}</p> : null}
      <ErrorMessage>{query.error ? formMessage(query.error) : null}</ErrorMessage>
      {data && data.data.length === 0 ? <p>{empty}</p> : null}
      {data ? summary : null}
      {data ? (
        <PagedItems
          items={data.data}
          totalPages={data.meta.totalPages}
          pager={{ label: pagesLabel, page, onPage }}
          busy={query.isFetching}
        >
          {children}
        </PagedItems>
      ) : null}
    </section>
  );
}
