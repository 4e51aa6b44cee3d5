import { useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import type { SearchResponse, TimeWindow } from '../../../../shared/api';
import { notYetSearchableNote } from '../../../../shared/not-yet-searchable';
import { ApiRequestError } from '../../api/client';
import { useLiveInvalidation } from '../../api/useLiveInvalidation';
import { ErrorInline } from '../../ui/ErrorInline';
import { formatCount, plural } from '../../ui/format';
import { Segmented, SOURCE_OPTIONS } from '../../ui/Segmented';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { WINDOW_TEXT } from '../../ui/window-text';
import { moveSelection } from '../../ui/keys/list-selection';
import { useListKeys } from '../../ui/keys/useListKeys';
import { useShortcuts } from '../../ui/keys/useShortcuts';
import { TYPE_CHIPS, filterValues, removeFilter, sourceChoice, toggleFilter, withSourceChoice } from './query-text';
import { assembleGroups, flatRows, groupKey, type GroupPages } from './result-groups';
import { groupPageOptions, searchKeys, searchOptions, type SearchDepth } from './search.queries';
import { NoResults } from './NoResults';
import { SearchResults, SearchResultsSkeleton } from './SearchResults';
import './search.css';
import { useDebouncedValue } from './useDebouncedValue';
import { hitPath, useSearchViewState, type SearchViewState } from './url';

/** Typing pauses this long before the URL (and the request) follows. */
const DEBOUNCE_MS = 180;

const WINDOWS: { value: TimeWindow; label: string; title: string }[] = [
  { value: '24h', label: '24h', title: 'Matches from the last 24 hours' },
  { value: '7d', label: '7d', title: 'Matches from the last 7 days' },
  { value: '30d', label: '30d', title: 'Matches from the last 30 days' },
  { value: '90d', label: '90d', title: 'Matches from the last 90 days' },
  { value: 'all', label: 'All', title: 'All time' },
];
const EDITABLE_FILTERS = ['repo', 'branch', 'tool', 'model', 'file', 'ref', 'status'] as const;

/** `/search`: every session, searched as you type, grouped by repository. */
export function SearchPage() {
  const [state, setState] = useSearchViewState();
  const navigate = useNavigate();
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();

  // The box is local state; the URL follows once typing pauses (replacing the history entry), and the request
  // follows the URL. Back/forward moves the URL: the box follows, unless it is what we just wrote there.
  const [text, setText] = useState(state.q);
  const settled = useDebouncedValue(text, DEBOUNCE_MS);
  const written = useRef(state.q);
  useEffect(() => {
    if (settled === state.q) return;
    written.current = settled;
    setState({ q: settled }, { replace: true });
  }, [settled]); // eslint-disable-line react-hooks/exhaustive-deps -- only a settled change writes the URL
  useEffect(() => {
    if (state.q !== written.current) {
      written.current = state.q;
      setText(state.q);
    }
  }, [state.q]);

  const [depthFor, setDepthFor] = useState<{ key: string; depth: SearchDepth } | null>(null);
  const stateKey = JSON.stringify([state.q, state.window, state.sort]);
  const depth: SearchDepth = depthFor?.key === stateKey ? depthFor.depth : 'first';

  useDocumentTitle(state.q ? `${state.q} · Search` : 'Search');
  useLiveInvalidation(searchKeys.all, { throttleMs: 5000 });

  const results = useQuery(searchOptions(state, depth));
  // A query that cannot run (400) keeps the last results on screen, dimmed, under the hint that says why.
  const lastGood = useRef<SearchResponse | null>(null);
  if (results.data && !results.isPlaceholderData) lastGood.current = results.data;
  const badQuery = results.error instanceof ApiRequestError && results.error.isClientError ? results.error.message : null;
  const shown = results.data ?? (badQuery ? lastGood.current : null);

  // "…and N more": the pages fetched per group, reset when the query changes.
  const [expanded, setExpanded] = useState<{ key: string; cursors: Map<string, { repository: string | null; cursors: string[] }> }>({ key: '', cursors: new Map() });
  const expansions = expanded.key === `${stateKey}${depth}` ? expanded.cursors : new Map<string, { repository: string | null; cursors: string[] }>();
  const pageQueries = useQueries({
    queries: [...expansions.values()].flatMap((e) => e.cursors.map((c) => groupPageOptions(state, depth, e.repository, c))),
  });
  const groups = useMemo(() => {
    const pages = new Map<string, GroupPages>();
    let i = 0;
    for (const [key, e] of expansions) pages.set(key, { pages: e.cursors.map(() => pageQueries[i++]?.data) });
    return assembleGroups(shown?.groups ?? [], pages);
  }, [shown, expansions, pageQueries]);
  const rows = useMemo(() => flatRows(groups), [groups]);

  const onMore = (repository: string | null) => {
    const g = groups.find((x) => x.repository === repository);
    if (!g?.nextCursor) return;
    const next = new Map(expansions);
    const key = groupKey(repository);
    const prev = next.get(key);
    next.set(key, { repository, cursors: [...(prev?.cursors ?? []), g.nextCursor] });
    setExpanded({ key: `${stateKey}${depth}`, cursors: next });
  };

  // Keyboard: `/` focuses the box; ↑/↓ (also from the box) and j/k move; Enter opens the session at the hit.
  const open = (index: number | null) => {
    const s = rows[index ?? 0];
    if (s) navigate(hitPath(s.id, s.hits[0]?.eventId ?? null, state));
  };
  const rowCount = rows.length;
  const { selected, setSelected } = useListKeys({
    title: 'Search results',
    noun: 'session',
    count: rowCount,
    onOpen: open,
    opens: 'Open the session at the match',
    resetKey: stateKey,
    reveal: (i) => document.querySelector(`.search-row[data-row="${i}"]`)?.scrollIntoView({ block: 'nearest' }),
  });
  useShortcuts('Search', [
    {
      keys: ['/'],
      does: 'Focus the search box',
      run: () => {
        inputRef.current?.focus();
        inputRef.current?.select();
      },
    },
  ]);
  const onBoxKey = (e: ReactKeyboardEvent<HTMLInputElement>) => {
    if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && rowCount > 0) {
      e.preventDefault();
      const next = moveSelection(rowCount, selected, e.key);
      setSelected(next);
      if (next !== null) document.querySelector(`.search-row[data-row="${next}"]`)?.scrollIntoView({ block: 'nearest' });
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (text !== state.q) setState({ q: text }, { replace: true });
      else open(selected);
    } else if (e.key === 'Escape') {
      if (text !== '') setText('');
      else inputRef.current?.blur();
    }
  };

  const setQuery = (q: string) => {
    setText(q);
    written.current = q;
    setState({ q }, { replace: true });
  };
  const filters = shown?.query.filters ?? {};
  const typing = text !== state.q || (results.isFetching && results.isPlaceholderData);

  return (
    <section className="page search-page">
      <header className="page-header search-header">
        <h1>Search</h1>
        <div className="search-box">
          <label htmlFor={inputId} className="visually-hidden">
            Search all sessions
          </label>
          <input
            id={inputId}
            ref={inputRef}
            type="search"
            className="input search-input"
            placeholder='Search every session: words, "a phrase", -exclude, repo: type: tool: file: ref:   (press / to focus)'
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onBoxKey}
            autoFocus
            autoComplete="off"
            spellCheck={false}
          />
          <span className="search-busy">{typing && text.trim() !== '' ? <Spinner label="Searching" /> : null}</span>
        </div>
        <div className="page-toolbar">
          <Segmented label="Source" value={sourceChoice(text)} options={SOURCE_OPTIONS} onChange={(v) => setQuery(withSourceChoice(text, v))} />
          <div className="field">
            <span className="field-label" id={`${inputId}-w`}>
              Matches from
            </span>
            <div className="segmented" role="group" aria-labelledby={`${inputId}-w`}>
              {WINDOWS.map((w) => (
                <button key={w.value} type="button" className="segmented-btn" aria-pressed={state.window === w.value} title={w.title} onClick={() => setState({ window: w.value })}>
                  {w.label}
                </button>
              ))}
            </div>
          </div>
          <div className="field">
            <span className="field-label" id={`${inputId}-s`}>
              Order
            </span>
            <div className="segmented" role="group" aria-labelledby={`${inputId}-s`}>
              {(['relevance', 'recent'] as const).map((s) => (
                <button key={s} type="button" className="segmented-btn" aria-pressed={state.sort === s} onClick={() => setState({ sort: s })}>
                  {s === 'relevance' ? 'Relevance' : 'Recent'}
                </button>
              ))}
            </div>
          </div>
        </div>
      </header>

      <div className="search-chips" role="group" aria-label="Filters">
        {TYPE_CHIPS.map((t) => {
          const on = filterValues(text, 'type').some((v) => v.toLowerCase() === t);
          return (
            <button key={t} type="button" className={on ? 'search-chip is-on' : 'search-chip'} aria-pressed={on} onClick={() => setQuery(toggleFilter(text, 'type', t))} title={`type:${t}`}>
              {t}
            </button>
          );
        })}
        {EDITABLE_FILTERS.flatMap((k) =>
          (filters[k] ?? []).map((v) => (
            <button key={`${k}:${v}`} type="button" className="search-chip is-on search-chip-removable" onClick={() => setQuery(removeFilter(text, k, k === 'ref' ? undefined : v))} title={`Remove ${k}:${v}`}>
              {k}:{v} <span aria-hidden="true">×</span>
            </button>
          )),
        )}
      </div>

      {badQuery && (
        <p className="search-hint" role="status">
          {badQuery}
        </p>
      )}
      {shown && shown.notYetSearchable > 0 && (
        <p className="search-hint" role="status">
          {notYetSearchableNote(shown.notYetSearchable)}
        </p>
      )}
      <SearchBody
        state={state}
        text={text}
        results={results}
        shown={shown}
        stale={badQuery !== null || results.isPlaceholderData}
        groups={groups}
        selected={selected}
        onMore={onMore}
        onSearchAll={() => setDepthFor({ key: stateKey, depth: 'all' })}
        setQuery={setQuery}
        setWindow={(window) => setState({ window })}
      />
    </section>
  );
}

interface BodyProps {
  state: SearchViewState;
  text: string;
  results: UseQueryResult<SearchResponse, unknown>;
  shown: SearchResponse | null;
  stale: boolean;
  groups: ReturnType<typeof assembleGroups>;
  selected: number | null;
  onMore: (repository: string | null) => void;
  onSearchAll: () => void;
  setQuery: (q: string) => void;
  setWindow: (w: TimeWindow) => void;
}

function SearchBody({ state, text, results, shown, stale, groups, selected, onMore, onSearchAll, setQuery, setWindow }: BodyProps) {
  if (state.q.trim() === '' && text.trim() === '') return <SearchHelp />;
  if (!shown) {
    if (results.isError && !(results.error instanceof ApiRequestError && results.error.isClientError)) {
      return <ErrorInline what="results" error={results.error} onRetry={() => void results.refetch()} />;
    }
    return results.isError ? null : <SearchResultsSkeleton />;
  }
  const t = shown.totals;
  const atLeast = t.exact ? '' : 'at least ';
  if (t.sessions === 0) return <NoResults response={shown} setQuery={setQuery} setWindow={setWindow} onSearchAll={onSearchAll} q={state.q} />;
  return (
    <div className={stale ? 'is-stale' : undefined}>
      <p className="search-summary" aria-live="polite">
        <strong>
          {atLeast}
          {plural(t.sessions, 'session')}
        </strong>{' '}
        · {atLeast}
        {plural(t.events, 'matching event')} · {plural(shown.repositories.length, 'repository', 'repositories')}
        {state.window !== 'all' && <> · {WINDOW_TEXT[state.window]}</>}
        <span className="muted"> · {shown.tookMs} ms</span>
        {!t.exact && (
          <>
            {' '}
            <span className="muted">(ranked from the first {formatCount(t.scannedEvents)} matches)</span>{' '}
            <button type="button" className="btn btn-small" onClick={onSearchAll}>
              Search all matches
            </button>
          </>
        )}
      </p>
      {results.isError && !(results.error instanceof ApiRequestError && results.error.isClientError) && (
        <ErrorInline what="results" error={results.error} onRetry={() => void results.refetch()} />
      )}
      <SearchResults groups={groups} selected={selected} onMore={onMore} from={state} />
      {shown.nextCursor && (
        <p className="muted search-footer">
          {plural(shown.repositories.length - shown.groups.length, 'more repository', 'more repositories')} match: narrow with repo:NAME to see them.
        </p>
      )}
    </div>
  );
}

function SearchHelp() {
  return (
    <div className="search-help">
      <p>Search every message, response, tool call, error and path of every session — what grep finds, ranked and grouped by repository.</p>
      <ul>
        <li>
          <code>Reconnect</code> part of a word finds <code>wsReconnectLoop</code>; Chinese, Japanese and Korean from one character (<code>落盘</code>, <code>盘</code>)
        </li>
        <li>
          <code>retry backoff</code> both words in one event · <code>"retry with backoff"</code> a phrase, across line breaks · <code>-test</code> excludes
        </li>
        <li>
          <code>repo:acme/api</code> <code>branch:main</code> <code>type:tool</code> <code>tool:run_in_terminal</code> <code>model:gpt-4</code> <code>status:error</code>{' '}
          <code>file:src/retry.ts</code> <code>ref:1234</code>
        </li>
        <li>
          <kbd>/</kbd> search · <kbd>↑</kbd> <kbd>↓</kbd> or <kbd>j</kbd> <kbd>k</kbd> move · <kbd>Enter</kbd> open at the match
        </li>
      </ul>
    </div>
  );
}

