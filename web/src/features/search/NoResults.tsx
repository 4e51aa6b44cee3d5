import type { SearchResponse, TimeWindow } from '../../../../shared/api';
import { EmptyState } from '../../ui/EmptyState';
import { formatCount } from '../../ui/format';
import { visibleText } from '../../ui/visible-text';
import { inWindow } from '../../ui/window-text';
import { longestWord, removeFilter } from './query-text';

interface Props {
  response: SearchResponse;
  q: string;
  setQuery: (q: string) => void;
  setWindow: (w: TimeWindow) => void;
  onSearchAll: () => void;
}

/**
 * A search that found no session. Either every match was read (a query to change: a wider window, a shorter word,
 * a filter less), or the first page stopped at its first matches (a common word, newest first) and its filters kept
 * none of them: then matches further on were never read, and "no sessions match" would not be true (a repository
 * whose sessions are older than the word's first 6,000 matches): it says how far it read and offers to read all.
 */
export function NoResults({ response, q, setQuery, setWindow, onSearchAll }: Props) {
  const filters = Object.entries(response.query.filters).flatMap(([k, vs]) => vs.map((v) => [k, v] as const));
  const removeButtons = filters.map(([k, v]) => (
    <button key={`${k}:${v}`} type="button" className="btn" onClick={() => setQuery(removeFilter(q, k, k === 'ref' ? undefined : v))}>
      Remove {k}:{visibleText(v)}
    </button>
  ));
  if (!response.totals.exact) {
    return (
      <EmptyState title={`No session among the first ${formatCount(response.totals.scannedEvents)} matches of ${visibleText(q)}${inWindow(response.query.window)}.`}>
        <p>A common word is ranked from its newest matches; the filters kept none of those. Older matches were not read yet.</p>
        <div className="empty-state-actions">
          <button type="button" className="btn" onClick={onSearchAll}>
            Search all matches
          </button>
          {removeButtons}
        </div>
      </EmptyState>
    );
  }
  const word = longestWord(q);
  const shorter = word && Array.from(word).length > 4 ? Array.from(word).slice(0, Math.max(3, Math.ceil(Array.from(word).length * 0.6))).join('') : null;
  return (
    <EmptyState title={`No sessions match ${visibleText(q)}${inWindow(response.query.window)}.`}>
      <p>Every word must appear in the same message, response or tool call; part of a word is enough.</p>
      <div className="empty-state-actions">
        {response.query.window !== 'all' && (
          <button type="button" className="btn" onClick={() => setWindow('all')}>
            Search all time
          </button>
        )}
        {shorter && word && (
          <button type="button" className="btn" onClick={() => setQuery(q.replace(word, shorter))}>
            Try a shorter word: {visibleText(shorter)}
          </button>
        )}
        {removeButtons}
      </div>
    </EmptyState>
  );
}
