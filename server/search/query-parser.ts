import { NUL_REFUSAL } from '../../shared/api/common';
import { FILTER_KEYS, type FilterKey } from '../../shared/search-filters';
import { foldWhitespace } from './indexed-text';

/**
 * The search query language. Whitespace separates required words (AND); "double quotes" make one phrase
 * whose words match across any run of whitespace; `-word` excludes; `key:value` narrows by a filter. Every
 * character is literal text otherwise: FTS5 syntax (`*`, `:`, `(`, `NEAR`, `AND`, `OR`, `NOT`) means nothing
 * here, so a pasted identifier or path finds what grep finds.
 */

export { FILTER_KEYS, type FilterKey } from '../../shared/search-filters';

/** `type:` values and the event types (or failures) each stands for. */
export const TYPE_FILTERS = {
  user: ['user_message'],
  response: ['agent_response'],
  tool: ['tool_call'],
  llm: ['llm_request'],
  error: [], // any failed event (status error), whatever its type
  discovery: ['discovery', 'generic'],
  hook: ['hook'],
  subagent: ['subagent', 'child_session_ref'],
} as const satisfies Record<string, readonly string[]>;
export type TypeFilter = keyof typeof TYPE_FILTERS;

export interface QueryTerm {
  /** the literal text, whitespace folded like the index */
  text: string;
  exclude: boolean;
  phrase: boolean;
  /** which index answers it: trigrams (3+ characters) or one token per CJK character (1–2 CJK characters) */
  index: 'trigram' | 'cjk';
}

export interface RefFilter {
  type: 'pr' | 'issue' | 'commit' | null;
  value: string;
}

export interface ParsedQuery {
  terms: QueryTerm[];
  repo: string[];
  branch: string[];
  type: TypeFilter[];
  tool: string[];
  model: string[];
  status: ('error' | 'ok')[];
  file: string[];
  ref: RefFilter[];
  /** which product wrote the session: VS Code (debug logs) or the Copilot CLI */
  source: ('vscode' | 'cli')[];
}

/** A query that cannot run; the message says what to change. */
export class QuerySyntaxError extends Error {}

const WS = /\s/;
const CJK_CHAR = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;

/** Shortest non-CJK term: FTS5 trigrams cannot answer fewer than three characters (see classifyTerm). */
export const MIN_TERM_CHARS = 3;

/**
 * A term of 3+ characters is a trigram phrase. 1–2 characters answer from the per-character CJK index when
 * every character is Chinese, Japanese or Korean. Anything else that short is refused: a trigram index holds
 * no 1–2 character keys, expanding them through fts5vocab prefixes still misses matches at the very end of a
 * text (and texts shorter than 3 characters), and reading every row instead is the scan this index exists to
 * avoid; a Latin 1–2 character substring also matches a large share of all events, which no one needs ranked.
 */
export function classifyTerm(text: string): QueryTerm['index'] | null {
  const chars = Array.from(text);
  if (chars.length >= MIN_TERM_CHARS) return 'trigram';
  return chars.every((c) => CJK_CHAR.test(c)) ? 'cjk' : null;
}

function tooShort(text: string, exclude: boolean): QuerySyntaxError {
  if (!exclude && (text === 'OR' || text === '||')) {
    return new QuerySyntaxError(
      `"${text}" is not an operator here: every word is required (AND). Search for one word at a time, or put "${text}" inside a quoted phrase.`,
    );
  }
  return new QuerySyntaxError(
    `"${exclude ? '-' : ''}${text}" is too short: words need at least ${MIN_TERM_CHARS} characters (1 or 2 are enough in Chinese, Japanese or Korean). ` +
      `Add a character, or quote it with its neighbour, e.g. "${text} …".`,
  );
}

/** A quoted stretch starting at `open` (a `"`), `""` inside standing for one quote; null when never closed. */
function readQuoted(s: string, open: number): { text: string; end: number } | null {
  let out = '';
  let i = open + 1;
  while (i < s.length) {
    if (s[i] === '"') {
      if (s[i + 1] === '"') {
        out += '"';
        i += 2;
        continue;
      }
      return { text: out, end: i + 1 };
    }
    out += s[i];
    i++;
  }
  return null;
}

function readWord(s: string, start: number): { text: string; end: number } {
  let i = start;
  while (i < s.length && !WS.test(s[i])) i++;
  return { text: s.slice(start, i), end: i };
}

const REF_TYPES: Record<string, RefFilter['type']> = { pr: 'pr', pull: 'pr', issue: 'issue', issues: 'issue', commit: 'commit' };

/** `ref:` values: 123, #123, pr#123, pr/123, issue:7, a commit sha or its prefix, or a GitHub PR/issue/commit URL. */
export function parseRefValue(raw: string): RefFilter {
  const url = /github\.com\/[^/\s]+\/[^/\s]+\/(pull|issues|commit)\/([0-9a-f]+)/i.exec(raw);
  if (url) return { type: REF_TYPES[url[1].toLowerCase()] ?? null, value: url[2] };
  const typed = /^(pr|pull|issues?|commit)[#/:]?#?(.+)$/i.exec(raw);
  if (typed) return { type: REF_TYPES[typed[1].toLowerCase()] ?? null, value: typed[2] };
  return { type: null, value: raw.replace(/^#/, '') };
}

function addFilter(q: ParsedQuery, key: FilterKey, rawValue: string): void {
  const values = key === 'file' || key === 'ref' ? [rawValue] : rawValue.split(',').filter((v) => v !== '');
  for (const v of values) {
    switch (key) {
      case 'type': {
        const t = v.toLowerCase();
        // own keys only: `in` would find __proto__, constructor, toString… on Object.prototype
        if (!Object.hasOwn(TYPE_FILTERS, t)) throw new QuerySyntaxError(`type:${v} is not a type: use one of ${Object.keys(TYPE_FILTERS).join(', ')}.`);
        if (!q.type.includes(t as TypeFilter)) q.type.push(t as TypeFilter);
        break;
      }
      case 'status': {
        const st = v.toLowerCase();
        if (st !== 'error' && st !== 'ok') throw new QuerySyntaxError(`status:${v} is not a status: use status:error or status:ok.`);
        if (!q.status.includes(st)) q.status.push(st);
        break;
      }
      case 'source': {
        const src = v.toLowerCase();
        if (src !== 'cli' && src !== 'vscode') throw new QuerySyntaxError(`source:${v} is not a source: use source:cli (Copilot CLI) or source:vscode.`);
        if (!q.source.includes(src)) q.source.push(src);
        break;
      }
      case 'ref': {
        const ref = parseRefValue(v);
        if (ref.value === '') throw new QuerySyntaxError(`ref:${v} names no reference: use e.g. ref:1234, ref:pr#1234 or ref:3f2a9c1.`);
        q.ref.push(ref);
        break;
      }
      default:
        q[key].push(v);
    }
  }
}

/** Parses the query text. Throws QuerySyntaxError with a message that says what to fix. */
export function parseQuery(input: string): ParsedQuery {
  const q: ParsedQuery = { terms: [], repo: [], branch: [], type: [], tool: [], model: [], status: [], file: [], ref: [], source: [] };
  if (input.includes('\u0000')) throw new QuerySyntaxError(`${NUL_REFUSAL[0].toUpperCase()}${NUL_REFUSAL.slice(1)}.`);
  const s = input;
  let i = 0;
  while (i < s.length) {
    if (WS.test(s[i])) {
      i++;
      continue;
    }
    let exclude = false;
    // `-x` excludes; a lone `-` and `--flag` stay literal text (CLI flags are a common thing to look for).
    if (s[i] === '-' && i + 1 < s.length && !WS.test(s[i + 1]) && s[i + 1] !== '-') {
      exclude = true;
      i++;
    }
    const filter = /^([A-Za-z]+):/.exec(s.slice(i, i + 12));
    const key = filter?.[1].toLowerCase();
    if (filter && key && (FILTER_KEYS as readonly string[]).includes(key)) {
      const at = i + filter[0].length;
      const quoted = s[at] === '"' ? readQuoted(s, at) : null;
      const value = quoted ?? readWord(s, at);
      const v = foldWhitespace(value.text);
      if (exclude) throw new QuerySyntaxError(`filters cannot be excluded: remove the "-" before ${key}:, or exclude a word instead.`);
      if (v === '') throw new QuerySyntaxError(`${key}: needs a value, e.g. ${filterExample(key as FilterKey)}.`);
      addFilter(q, key as FilterKey, v);
      i = value.end;
      continue;
    }
    // A quote opens a phrase at the start of a word, when it is closed later; otherwise it is a literal quote.
    const quoted = s[i] === '"' ? readQuoted(s, i) : null;
    const token = quoted ?? readWord(s, i);
    i = token.end;
    const text = foldWhitespace(token.text);
    if (text === '') continue;
    const index = classifyTerm(text);
    if (index === null) throw tooShort(text, exclude);
    q.terms.push({ text, exclude, phrase: quoted !== null, index });
  }
  return q;
}

function filterExample(key: FilterKey): string {
  return {
    repo: 'repo:acme/api',
    branch: 'branch:main',
    type: 'type:tool',
    tool: 'tool:run_in_terminal',
    model: 'model:gpt-4.1',
    status: 'status:error',
    file: 'file:src/retry.ts',
    ref: 'ref:1234',
    source: 'source:cli',
  }[key];
}

export function positiveTerms(q: ParsedQuery): QueryTerm[] {
  return q.terms.filter((t) => !t.exclude);
}

/** Filters that only events have: when present, session titles, files and refs cannot match on their own. */
export function hasEventFilters(q: ParsedQuery): boolean {
  return q.type.length > 0 || q.tool.length > 0 || q.model.length > 0 || q.status.length > 0;
}

/** The query back as text, filters last (for the CLI header and the page title). */
export function formatQuery(q: ParsedQuery): string {
  const quote = (v: string) => (/[\s"]/.test(v) || v === '' ? `"${v.replace(/"/g, '""')}"` : v);
  const parts = q.terms.map((t) => `${t.exclude ? '-' : ''}${t.phrase || /\s/.test(t.text) ? `"${t.text.replace(/"/g, '""')}"` : t.text}`);
  for (const k of FILTER_KEYS) {
    const vals = k === 'ref' ? q.ref.map((r) => (r.type ? `${r.type}#${r.value}` : r.value)) : (q[k] as string[]);
    for (const v of vals) parts.push(`${k}:${quote(v)}`);
  }
  return parts.join(' ');
}
