import type Database from 'better-sqlite3';
import { matchExpression, textMatches, trigramPhrase } from './fts-match';
import { foldWhitespace } from './indexed-text';
import { classifyTerm, positiveTerms, type ParsedQuery, type QueryTerm, type RefFilter } from './query-parser';
import { statement } from '../db/statements';
import { newestRowids, type Capped, type LinePlace } from './newest-rowids';
import type { IdSegment } from '../db/id-order';
import { NON_ASCII_PATH, NON_ASCII_TITLE, schemaHas, SESSION_TITLES_INDEX } from '../db/schema';

/**
 * Matches that are not events: a session's id/title/label (`meta`), the paths it touched (`file`) and the
 * PR/issue/commit refs it produced (`ref`). These tables hold one row per session or per path, so their
 * matches are read whole (capped), and each candidate is checked again in JS against every term, which also
 * applies the 1–2 character CJK terms that their trigram indexes cannot answer.
 */

/** Cap on rows read from each side table (a path fragment like "src" is in every session). */
export const SIDE_CAP = 5000;
/**
 * The cap when every match is asked for (depth=all: the page's "Search all matches", `--depth all`, MCP all_matches):
 * none in practice (an integer, bound to SQL's LIMIT). With SIDE_CAP there, a search for every match of a path
 * fragment touched by more than 5,000 paths still said its totals were a lower bound.
 */
export const ALL_SIDE_ROWS = 2 ** 31;

export interface MetaHit {
  num: number;
  text: string;
}
export interface FileHit {
  id: number;
  sessionId: string;
  path: string;
  eventId: number | null;
}
export interface RefHit {
  id: number;
  sessionId: string;
  type: string;
  value: string;
  eventId: number | null;
}

/** What session_text holds for a session (server/ingest/refresh-session.ts), folded like a query. */
export function metaText(s: { id: string; title: string | null; label: string | null }): string {
  return foldWhitespace([s.id, s.title, s.label].filter((x) => x).join(' '));
}

/** The first required term, for the LIKE/instr fallback when no term has 3+ characters. */
function firstRequired(terms: QueryTerm[]): string {
  return positiveTerms({ terms } as ParsedQuery)[0]?.text ?? '';
}

/**
 * A session stands at the first event of its folder's main session: a child's number is given when its parent's
 * line names it, before its own lines are read (on the bench archive, placed at their own first events, 14,166 of
 * 15,597 sessions stood before the one numbered before them; at their folder's, none). Two seeks: the folder's
 * session by id, its first event by its index by (session, time). 0 for a folder without events.
 */
const SESSION_PLACE: LinePlace = {
  table: 'main.sessions',
  id: 'num',
  line: `coalesce((SELECT e.id FROM sessions f CROSS JOIN events e WHERE f.id = coalesce(sessions.folder_session_id, sessions.id)
    AND e.session_num = f.num ORDER BY e.ts LIMIT 1), 0)`,
};
// CROSS JOIN pins the order: the matched numbers drive (newest first), sessions are probed by number
const metaByNums = (covered: boolean) => `SELECT s.num, s.id, s.title, s.label
  FROM json_each(@nums) j CROSS JOIN sessions s${covered ? ` INDEXED BY ${SESSION_TITLES_INDEX}` : ''} ON s.num = j.value`;
const META_BY_NUMS = metaByNums(true);
const META_BY_NUMS_UNCOVERED = metaByNums(false);

/**
 * Whether the connection's archive has the titles' covering index (one written before it has not, until its writer
 * opens it); an archive that has it has sessions_non_ascii too (both are schema.ts's later indexes, created together).
 */
const hasTitlesIndex = new WeakMap<Database.Database, boolean>();
function titlesCovered(db: Database.Database): boolean {
  let has = hasTitlesIndex.get(db);
  if (has === undefined) {
    has = schemaHas(db, SESSION_TITLES_INDEX);
    hasTitlesIndex.set(db, has);
  }
  return has;
}
// Only 1–2 character terms, which are CJK ones (query-parser.ts refuses shorter words in other scripts): instr over
// the titles and labels that hold a character beyond ASCII, through their partial index (schema.ts NON_ASCII_TITLE),
// which is keyed by number: each line segment's numbers are a range of it. Named: beside the titles' covering
// index, the planner would rather scan that one whole (it holds every column read).
const metaByInstr = (named: boolean) => `SELECT num FROM sessions${named ? ' INDEXED BY sessions_non_ascii' : ''}
  WHERE ${NON_ASCII_TITLE} AND instr(coalesce(title, '') || ' ' || coalesce(label, ''), @term) > 0`;
const META_BY_INSTR = metaByInstr(true);
const META_BY_INSTR_UNNAMED = metaByInstr(false);

type TitleRow = { num: number; id: string; title: string | null; label: string | null };

/** Sessions whose id, title or label match, newest first (newest-rowids.ts): by trigrams, else by instr; at most `max`. */
export function metaHits(db: Database.Database, q: ParsedQuery, max = SIDE_CAP): Capped<MetaHit> {
  const match = matchExpression(q.terms, 'trigram');
  const covered = titlesCovered(db);
  const { ids, capped } =
    match !== null
      ? newestRowids(db, 'SELECT rowid FROM session_text WHERE session_text MATCH @match', { match }, max, SESSION_PLACE)
      : newestRowids(db, covered ? META_BY_INSTR : META_BY_INSTR_UNNAMED, { term: firstRequired(q.terms) }, max, SESSION_PLACE, 'num');
  const rows = ids.length === 0 ? [] : (statement(db, covered ? META_BY_NUMS : META_BY_NUMS_UNCOVERED).all({ nums: JSON.stringify(ids) }) as TitleRow[]);
  return { rows: rows.map((r) => ({ num: r.num, text: metaText(r) })).filter((h) => textMatches(h.text, q.terms)), capped };
}

const FILE_COLUMNS = 'f.id, f.session_id AS sessionId, f.file_path AS path, f.event_id AS eventId';
/** A path stands at the event that first touched it in its session: its row is written with that event. */
const FILE_PLACE: LinePlace = { table: 'main.session_files', line: 'coalesce(event_id, 0)' };
// CROSS JOIN pins the order: the matched ids drive (newest first), session_files is probed by primary key
const FILE_ROWS = `SELECT ${FILE_COLUMNS} FROM json_each(@ids) j CROSS JOIN session_files f ON f.id = j.value`;

/**
 * The paths `head` selects by rowid (file_text's is the path's id, session_files' is its id), newest first (a
 * backfill numbered them newest session first: newest-rowids.ts), at most `cap`.
 */
function newestFiles(db: Database.Database, head: string, params: Record<string, unknown>, cap: number, within: IdSegment[] | null): Capped<FileHit> {
  const { ids, capped } = newestRowids(db, head, params, cap, FILE_PLACE, 'rowid', within);
  return { rows: ids.length === 0 ? [] : (statement(db, FILE_ROWS).all({ ids: JSON.stringify(ids) }) as FileHit[]), capped };
}
const FILES_BY_TRIGRAM = 'SELECT rowid FROM file_text WHERE file_text MATCH @match';
// a 1–2 character (CJK) term: the paths with a character beyond ASCII, through their partial index (NON_ASCII_PATH),
// keyed by id: each line segment's paths are a range of it
const FILES_BY_INSTR = `SELECT rowid FROM session_files WHERE ${NON_ASCII_PATH} AND instr(file_path, @term) > 0`;
// a `file:` filter of 1–2 characters: every path, each segment's a range of the table
const FILES_BY_LIKE = `SELECT rowid FROM session_files WHERE file_path LIKE @pattern ESCAPE '\\'`;

export function fileHits(db: Database.Database, q: ParsedQuery, max = SIDE_CAP, within: IdSegment[] | null = null): Capped<FileHit> {
  const match = matchExpression(q.terms, 'trigram');
  const read = match !== null ? newestFiles(db, FILES_BY_TRIGRAM, { match }, max, within) : newestFiles(db, FILES_BY_INSTR, { term: firstRequired(q.terms) }, max, within);
  return { rows: read.rows.filter((h) => textMatches(foldWhitespace(h.path), q.terms)), capped: read.capped };
}

const HEX = /^[0-9a-f]{4,40}$/i;
const NUMBER = /^\d+$/;

/** A ref stands at the event it came from: its row is written with that event. */
const REF_PLACE: LinePlace = { table: 'main.session_refs', line: 'coalesce(event_id, 0)' };
// CROSS JOIN pins the order: the matched ids drive (newest first), session_refs is probed by primary key
const REF_ROWS = `SELECT r.id, r.session_id AS sessionId, r.ref_type AS type, r.ref_value AS value, r.event_id AS eventId
  FROM json_each(@ids) j CROSS JOIN session_refs r ON r.id = j.value`;
// each segment's rows are a range of ids inside the index's (type, value) entries, which end in the id
const REFS_EQUAL = 'SELECT id FROM session_refs WHERE ref_type = @type AND ref_value = @value';
// Shas are lowercase hex: every continuation sorts below '~', so [v, v~) is the prefix range on the index.
const COMMITS_FROM = "SELECT id FROM session_refs WHERE ref_type = 'commit' AND ref_value >= @value AND ref_value < @upto";

/**
 * Refs whose value is the given one (a number: PR or issue; hex: a commit sha or its prefix), newest first
 * (newest-rowids.ts), at most `max` a type; `capped` when a type had more.
 */
export function refsEqual(db: Database.Database, filter: RefFilter, max = SIDE_CAP, within: IdSegment[] | null = null): Capped<RefHit> {
  const types = filter.type ? [filter.type] : NUMBER.test(filter.value) ? ['pr', 'issue'] : ['pr', 'issue', 'commit'];
  const rows: RefHit[] = [];
  let capped = false;
  for (const type of types) {
    const v = filter.value.toLowerCase();
    const read =
      type === 'commit' && HEX.test(filter.value)
        ? newestRowids(db, COMMITS_FROM, { value: v, upto: `${v}~` }, max, REF_PLACE, 'id', within)
        : newestRowids(db, REFS_EQUAL, { type, value: filter.value }, max, REF_PLACE, 'id', within);
    capped ||= read.capped;
    if (read.ids.length > 0) rows.push(...(statement(db, REF_ROWS).all({ ids: JSON.stringify(read.ids) }) as RefHit[]));
  }
  return { rows, capped };
}

/**
 * Refs matched by the words of a query: a single required word that is a ref value (1234, #1234, a sha
 * prefix). A ref is always written in the text of the event it came from, so the event search finds its
 * session anyway; this adds the `ref` kind when the query is the reference itself.
 */
export function refHits(db: Database.Database, q: ParsedQuery, max = SIDE_CAP, within: IdSegment[] | null = null): Capped<RefHit> {
  const pos = positiveTerms(q);
  const none = { rows: [], capped: false };
  if (pos.length !== 1) return none;
  const v = pos[0].text.replace(/^#/, '');
  if (!NUMBER.test(v) && !(HEX.test(v) && v.length >= 7)) return none;
  return refsEqual(db, { type: null, value: v }, max, within);
}

/** Session ids whose touched paths contain `value` (case-insensitive): trigrams for 3+ characters, else a LIKE. */
export function sessionsWithFile(db: Database.Database, value: string, max = SIDE_CAP, within: IdSegment[] | null = null): Capped<FileHit> {
  if (classifyTerm(value) === 'trigram') return newestFiles(db, FILES_BY_TRIGRAM, { match: trigramPhrase(value) }, max, within);
  return newestFiles(db, FILES_BY_LIKE, { pattern: `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%` }, max, within);
}
