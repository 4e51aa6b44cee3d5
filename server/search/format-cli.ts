import { WINDOW_WORDS } from '../../shared/time-window';
import type { SearchResponse, SearchSession, SearchSnippet } from '../../shared/api/search';
import { formatCount, plural } from '../../shared/format-numbers';
import { NO_WORKSPACE_LABEL } from '../../shared/group-by-repository';
import { notYetSearchableNote } from '../../shared/not-yet-searchable';


export function relativeTime(ts: number | null, now: number): string {
  if (ts === null) return 'no activity';
  const s = Math.max(0, Math.round((now - ts) / 1000));
  if (s < 60) return 'just now';
  const units: [number, string][] = [
    [60, 'min'],
    [3600, 'h'],
    [86400, 'd'],
    [86400 * 30, 'mo'],
    [86400 * 365, 'y'],
  ];
  let label = `${Math.floor(s / 60)} min`;
  for (const [secs, name] of units) if (s >= secs) label = `${Math.floor(s / secs)}${name === 'min' ? ' min' : name}`;
  return `${label} ago`;
}

/** A snippet on one line; matches wrapped by `mark` (ANSI on a terminal, nothing when piped). */
export function snippetLine(s: SearchSnippet, mark: (t: string) => string): string {
  let out = '';
  let at = 0;
  for (const [a, b] of [...s.highlights].sort((x, y) => x[0] - y[0])) {
    if (a < at) continue;
    out += s.text.slice(at, a) + mark(s.text.slice(a, b));
    at = b;
  }
  out += s.text.slice(at);
  return `${s.cutStart ? '…' : ''}${out}${s.cutEnd ? '…' : ''}`;
}

function sessionLines(s: SearchSession, now: number, mark: (t: string) => string): string[] {
  const kinds = s.kinds.map((k) => `${k.kind} ${formatCount(k.count)}`).join(', ');
  const sub = s.subagentHits > 0 ? ` (${formatCount(s.subagentHits)} in subagents)` : '';
  const best = s.hits[0];
  const lines = [
    `  ${s.id}  ${s.title ?? best?.snippet?.text.slice(0, 80) ?? ''}`,
    `      ${[s.branch, `updated ${relativeTime(s.lastActivity, now)}`, `matched in ${kinds}${sub}`].filter((x) => x).join(' · ')}`,
  ];
  if (best?.snippet) lines.push(`      ${snippetLine(best.snippet, mark)}${best.eventId !== null ? `  [event ${best.eventId}]` : ''}`);
  return lines;
}

/** People's output of `chronoscope search`: Chronicle's shape (FORMAT §5.7), grouped by repository. */
export function formatSearch(query: string, r: SearchResponse, now: number, color: boolean): string {
  const mark = color ? (t: string) => `\u001b[1;33m${t}\u001b[0m` : (t: string) => t;
  const atLeast = r.totals.exact ? '' : 'at least ';
  // A scan cut at its first matches whose filters kept none of them: matches further on were not read, so "at
  // least 0" and "try another word" would both mislead.
  const cutEmpty = !r.totals.exact && r.totals.sessions === 0;
  const counts = cutEmpty
    ? `none in the first ${formatCount(r.totals.scannedEvents)} matching events`
    : `${atLeast}${plural(r.totals.sessions, 'session')}, ${atLeast}${plural(r.totals.events, 'event')}`;
  const out = [`Search results for "${query}" (${counts}, ${WINDOW_WORDS[r.query.window]})`];
  if (r.notYetSearchable > 0) out.push(notYetSearchableNote(r.notYetSearchable));
  if (cutEmpty) {
    out.push('', `No session among the first ${formatCount(r.totals.scannedEvents)} events that match; --depth all reads every match.`);
    return `${out.join('\n')}\n`;
  }
  if (r.groups.length === 0) {
    out.push(
      '',
      'No sessions found. Try a shorter or different word (a substring works: "Reconnect" finds wsReconnectLoop),',
      r.query.window === 'all' ? 'remove a filter, or run `chronoscope index` if the logs are new.' : 'a wider window (--window all), or remove a filter.',
    );
    return `${out.join('\n')}\n`;
  }
  for (const g of r.groups) {
    out.push('', g.repository ?? NO_WORKSPACE_LABEL);
    for (const s of g.sessions) out.push(...sessionLines(s, now, mark));
    if (g.more > 0) out.push(`  …and ${formatCount(g.more)} more (refine your query${g.repository ? `, or --repo ${g.repository}` : ''})`);
  }
  if (r.nextCursor) out.push('', `${plural(r.repositories.length - r.groups.length, 'more repository', 'more repositories')}: narrow with --repo, or use --json for everything.`);
  if (!r.totals.exact) out.push('', `Ranked from the first ${formatCount(r.totals.scannedEvents)} matching events; --depth all reads every match.`);
  return `${out.join('\n')}\n`;
}
