interface PaginationProps {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  label: string;
}

/** Previous / next with "Página 2 de 5" between; buttons are disabled at the ends. */
export function Pagination({ page, totalPages, onPage, label }: PaginationProps) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pagination" aria-label={label}>
      <button type="button" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        ← Anterior
      </button>
      <span>
        Página {page} de {totalPages}
      </span>
      <button type="button" onClick={() => onPage(page + 1)} disabled={page >= totalPages}>
        Próxima →
      </button>
    </nav>
  );
}
