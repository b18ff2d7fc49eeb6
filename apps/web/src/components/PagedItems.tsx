import type { ReactNode } from 'react';
import { Pagination } from './Pagination';

/** Which page is shown and how to go to another, with the pager's accessible name. */
export interface Pager {
  label: string;
  page: number;
  onPage: (page: number) => void;
}

/**
 * A page of items as a list (busy while the next page loads) and, once the page has arrived,
 * the pager below it: comments, members, reports and every PagedList.
 */
export function PagedItems<T>({
  items,
  totalPages,
  pager,
  busy = false,
  className = 'plain-list',
  children,
}: {
  items: readonly T[] | undefined;
  /** From the page's metadata; undefined until the page has arrived. */
  totalPages: number | undefined;
  pager: Pager;
  busy?: boolean;
  className?: string;
  /** One `<li>` (with its key) per item. */
  children: (item: T) => ReactNode;
}) {
  return (
    <>
      <ul className={className} aria-busy={busy}>
        {items?.map(children)}
      </ul>
      {totalPages === undefined ? null : <Pagination {...pager} totalPages={totalPages} />}
    </>
  );
}
