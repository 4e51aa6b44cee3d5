import { useId } from 'react';
import { Link } from 'react-router';
import type { MatchKind, SearchHit, SearchSession, SearchSnippet } from '../../../../shared/api';
import { NO_WORKSPACE_LABEL } from '../../../../shared/group-by-repository';
import { Badge } from '../../ui/Badge';
import { SourceBadge } from '../../ui/SourceBadge';
import { formatCount, plural, shortId } from '../../ui/format';
import { HighlightedText } from '../../ui/HighlightedText';
import { RelativeTime } from '../../ui/RelativeTime';
import { visibleText } from '../../ui/visible-text';
import { hitPath, type SearchViewState } from './url';

const KIND_LABEL: Record<MatchKind, string> = {
  turn: 'turn',
  tool: 'tool',
  error: 'error',
  llm: 'model call',
  subagent: 'subagent',
  hook: 'hook',
  discovery: 'discovery',
  other: 'other',
  meta: 'title',
  file: 'file',
  ref: 'ref',
  prompt: 'prompt',
  system_prompt: 'system prompt',
  tools: 'tools',
};

export const kindLabel = (k: MatchKind) => KIND_LABEL[k];

/** One repository's results as the page shows them: the overview's sessions plus any "…and N more" pages. */
export interface ResultGroup {
  repository: string | null;
  sessionCount: number;
  sessions: SearchSession[];
  /** sessions not shown yet */
  more: number;
  loadingMore: boolean;
}

export interface SearchResultsProps {
  groups: ResultGroup[];
  /** index into the flattened rows (groups in order), for keyboard selection */
  selected: number | null;
  onMore: (repository: string | null) => void;
  /** the search shown: every link carries it, for the session page's breadcrumb back and its highlight */
  from?: SearchViewState;
}

/** Results grouped by repository; renders props only (SearchPage fetches). */
export function SearchResults({ groups, selected, onMore, from }: SearchResultsProps) {
  const baseId = useId();
  let row = 0;
  return (
    <div className="search-results">
      {groups.map((g, i) => {
        const headingId = `${baseId}-g${i}`;
        return (
          <section key={g.repository ?? '\u0000other'} className="search-group" aria-labelledby={headingId}>
            <div className="repo-group-header">
              <h2 id={headingId} className={g.repository === null ? 'repo-name is-other' : 'repo-name'}>
                {g.repository !== null ? visibleText(g.repository) : NO_WORKSPACE_LABEL}
              </h2>
              <span className="repo-count">{plural(g.sessionCount, 'session')}</span>
            </div>
            <ul className="search-rows">
              {g.sessions.map((s) => {
                const index = row++;
                return <SearchResultRow key={s.id} session={s} index={index} selected={index === selected} from={from} />;
              })}
            </ul>
            {g.more > 0 && (
              <button type="button" className="btn btn-small search-more" onClick={() => onMore(g.repository)} disabled={g.loadingMore}>
                {g.loadingMore ? 'Loading…' : `…and ${formatCount(g.more)} more`}
              </button>
            )}
          </section>
        );
      })}
    </div>
  );
}

function Snippet({ snippet }: { snippet: SearchSnippet }) {
  return (
    <>
      {snippet.cutStart && '…'}
      <HighlightedText text={snippet.text} ranges={snippet.highlights} />
      {snippet.cutEnd && '…'}
    </>
  );
}

const EVENT_LABEL: Record<string, string> = {
  user_message: 'user',
  agent_response: 'response',
  tool_call: 'tool',
  llm_request: 'model call',
  subagent: 'subagent',
  child_session_ref: 'subagent',
  hook: 'hook',
  discovery: 'discovery',
  generic: 'event',
};

/**
 * What a hit is, in a word or two: "user", "response", "tool read_file", "error tool run_in_terminal", "file";
 * names and unknown types are log text, made visible.
 */
export function hitLabel(h: SearchHit): string {
  return visibleText(hitWords(h));
}

function hitWords(h: SearchHit): string {
  const side = h.kind === 'file' || h.kind === 'ref' || h.kind === 'meta' || h.kind === 'system_prompt' || h.kind === 'tools';
  if (side) {
    const what =
      h.kind === 'file' && h.name
        ? `file ${h.name.split(/[\\/]/).pop()}`
        : h.kind === 'ref' && h.name
          ? h.name
          : (h.kind === 'system_prompt' || h.kind === 'tools') && h.name
            ? h.name // system_prompt_0.json says what it is
            : kindLabel(h.kind);
    return `${what}${h.inSubagent ? ' (subagent)' : ''}`;
  }
  const what =
    h.eventType === null || h.kind === 'prompt' ? kindLabel(h.kind) : Object.hasOwn(EVENT_LABEL, h.eventType) ? EVENT_LABEL[h.eventType] : h.eventType;
  const named = h.eventType === 'tool_call' || h.eventType === 'hook' || h.eventType === 'subagent' ? (h.name ? ` ${h.name}` : '') : '';
  const failed = h.kind === 'error' && h.eventType !== null ? 'error · ' : '';
  return `${failed}${what}${named}${h.inSubagent ? ' (subagent)' : ''}`;
}

export function SearchResultRow({ session: s, index, selected, from }: { session: SearchSession; index: number; selected: boolean; from?: SearchViewState }) {
  const [best, ...others] = s.hits;
  const path = hitPath(s.id, best?.eventId ?? null, from);
  return (
    <li className={selected ? 'search-row is-selected' : 'search-row'} data-row={index} aria-current={selected ? 'true' : undefined}>
      <div className="search-row-head">
        <Link to={path} className={s.title ? 'session-title' : 'session-title is-untitled'} title={visibleText(s.title ?? s.id)}>
          {visibleText(s.title ?? s.id)}
        </Link>
        <SourceBadge source={s.source} />
        <code className="cell-id" title={visibleText(s.id)}>
          {visibleText(shortId(s.id))}
        </code>
        {s.branch && (
          <span className="cell-branch" title={visibleText(s.branch)}>
            {visibleText(s.branch)}
          </span>
        )}
        <RelativeTime ts={s.lastActivity} className="cell-time" />
        <span className="muted">{plural(s.eventCount, 'event')}</span>
      </div>
      <div className="search-kinds" aria-label="Matched in">
        {s.kinds.map((k) => (
          <span key={k.kind} className={`kind-chip kind-${k.kind}`}>
            {kindLabel(k.kind)} <span className="kind-count">{formatCount(k.count)}</span>
          </span>
        ))}
        {s.subagentHits > 0 && (
          <Badge tone="info" title="Matches in subagent sessions started by this one">
            {formatCount(s.subagentHits)} in subagents
          </Badge>
        )}
      </div>
      {best?.snippet && (
        <p className="search-snippet">
          <span className={`hit-kind kind-${best.kind}`}>{hitLabel(best)}</span>
          <Snippet snippet={best.snippet} />
        </p>
      )}
      {others.length > 0 && (
        <div className="search-other-hits">
          <span className="muted">also in</span>
          {others.map((h, i) => (
            <Link key={i} to={hitPath(s.id, h.eventId, from)} className="other-hit">
              {hitLabel(h)}
            </Link>
          ))}
        </div>
      )}
    </li>
  );
}

/** Placeholder rows while the first results load, so that nothing jumps when they arrive. */
export function SearchResultsSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <div className="search-results" aria-busy="true" aria-label="Searching">
      <div className="repo-group-header">
        <span className="skeleton skeleton-heading" />
      </div>
      <ul className="search-rows">
        {Array.from({ length: rows }, (_, i) => (
          <li key={i} className="search-row is-skeleton">
            <span className="skeleton" style={{ width: `${40 + ((i * 37) % 40)}%` }} />
            <span className="skeleton" style={{ width: `${60 + ((i * 17) % 30)}%` }} />
          </li>
        ))}
      </ul>
    </div>
  );
}
