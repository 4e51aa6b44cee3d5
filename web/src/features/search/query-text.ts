/**
 * Editing the query text from the filter chips: the text in the box stays the one source of truth (what the
 * URL holds and the server parses), chips add or remove `key:value` words in it.
 */

export const TYPE_CHIPS = ['user', 'response', 'tool', 'llm', 'error', 'discovery', 'hook'] as const;
export type TypeChip = (typeof TYPE_CHIPS)[number];

/** A value as the query language writes it: quoted (quotes doubled) when it has a space or a quote. */
export function quoteValue(v: string): string {
  return /[\s"]/.test(v) || v === '' ? `"${v.replace(/"/g, '""')}"` : v;
}

// key:value or key:"quoted value", as a whole word (the server's parser reads filters the same way).
const filterWord = (key: string) => new RegExp(`(^|\\s)${key}:("(?:[^"]|"")*"|\\S*)`, 'gi');

/** The values of one filter written in the text (comma lists split). */
export function filterValues(q: string, key: string): string[] {
  const out: string[] = [];
  for (const m of q.matchAll(filterWord(key))) {
    const raw = m[2].startsWith('"') && m[2].endsWith('"') && m[2].length >= 2 ? m[2].slice(1, -1).replace(/""/g, '"') : m[2];
    out.push(...(key === 'file' || key === 'ref' ? [raw] : raw.split(',')).filter((v) => v !== ''));
  }
  return out;
}

function tidy(q: string): string {
  return q.replace(/\s{2,}/g, ' ').trim();
}

/** Removes every `key:…` word (or only the one value when given) from the text. */
export function removeFilter(q: string, key: string, value?: string): string {
  if (value === undefined) return tidy(q.replace(filterWord(key), ' '));
  const keep = filterValues(q, key).filter((v) => v.toLowerCase() !== value.toLowerCase());
  const without = tidy(q.replace(filterWord(key), ' '));
  return keep.length === 0 ? without : tidy(`${without} ${key}:${keep.map(quoteValue).join(',')}`);
}

/** Adds `key:value` at the end (once). */
export function addFilter(q: string, key: string, value: string): string {
  if (filterValues(q, key).some((v) => v.toLowerCase() === value.toLowerCase())) return q;
  return tidy(`${q} ${key}:${quoteValue(value)}`);
}

export function toggleFilter(q: string, key: string, value: string): string {
  return filterValues(q, key).some((v) => v.toLowerCase() === value.toLowerCase()) ? removeFilter(q, key, value) : addFilter(q, key, value);
}

/** The longest word of the text that is not a filter: what "try a shorter word" is about. */
export function longestWord(q: string): string | null {
  const words = q
    .replace(/(^|\s)-?[a-z]+:("(?:[^"]|"")*"|\S*)/gi, ' ')
    .replace(/"/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '' && !w.startsWith('-'));
  return words.sort((a, b) => b.length - a.length)[0] ?? null;
}

/** The source the text asks for (`source:cli` / `source:vscode`), 'all' when none or both. */
export function sourceChoice(q: string): 'all' | 'vscode' | 'cli' {
  const values = new Set(filterValues(q, 'source').map((v) => v.toLowerCase()));
  if (values.size !== 1) return 'all';
  const [only] = values;
  return only === 'cli' || only === 'vscode' ? only : 'all';
}

/** The text with its source filter replaced by `choice` ('all' removes it). */
export function withSourceChoice(q: string, choice: 'all' | 'vscode' | 'cli'): string {
  const without = removeFilter(q, 'source');
  return choice === 'all' ? without : addFilter(without, 'source', choice);
}
