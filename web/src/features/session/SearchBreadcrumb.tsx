import { Link } from 'react-router';
import { visibleText } from '../../ui/visible-text';

/** The search's query from its URL parameters (`from`, as the search page wrote them). */
export const searchQueryOf = (from: string) => new URLSearchParams(from).get('q') ?? '';

/** Back to the search that led to this session, its query, window and order as they were. */
export function SearchBreadcrumb({ from }: { from: string }) {
  const q = searchQueryOf(from);
  return (
    <nav className="session-breadcrumb" aria-label="Breadcrumb">
      <Link to={`/search?${new URLSearchParams(from).toString()}`} title={visibleText(q)}>
        ← Search “{visibleText(q)}”
      </Link>
      <span aria-hidden="true"> / </span>
      <span aria-current="page">Session</span>
    </nav>
  );
}
