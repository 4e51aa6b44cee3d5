/**
 * The text layer of the SQL console's guard: what can be refused by reading the statement before SQLite sees it.
 * It is not the real guard (the read-only connection and the engine's own verdict, `stmt.reader` and
 * `stmt.readonly`, are; see run-console-query.ts) but it gives clear messages, and it refuses what the engine
 * would quietly accept on a read-only connection: `VACUUM INTO` (writes a new file), `ATTACH` (opens one),
 * `PRAGMA` (changes the connection), and a NUL byte, after which SQLite stops reading the text.
 *
 * Unlike Chronicle's blocklist (FORMAT §5.6), words are matched as tokens outside string literals, quoted
 * identifiers and comments, so `SELECT replace(a,'x','y')` and `LIKE '%update%'` are accepted.
 */

export const MAX_SQL_CHARS = 100_000;

export type RefusalReason =
  | 'empty'
  | 'too_long'
  | 'nul_byte'
  | 'bidi_control'
  | 'multiple_statements'
  | 'not_select'
  | 'forbidden_word'
  | 'write_statement';

export type CheckedSql = { ok: true; sql: string } | { ok: false; reason: RefusalReason; message: string };

interface Token {
  kind: 'word' | 'string' | 'quoted' | 'semicolon' | 'open' | 'close' | 'symbol';
  text: string;
  start: number;
  end: number;
  depth: number;
}

// Characters that make text display in another order than it runs (Trojan Source, CVE-2021-42574).
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;

/**
 * SQLite's whitespace, exactly: JavaScript's \s also matches U+00A0, U+2028, U+FEFF…, which SQLite reads as
 * identifier characters, and the two tokenizers must agree on where a word ends.
 */
const isSpace = (ch: string) => ch === ' ' || (ch >= '\t' && ch <= '\r');

/** SQLite's identifier characters: ASCII letters, digits, `_`, `$`, and every non-ASCII character. */
const isWordChar = (ch: string) => /[A-Za-z0-9_$]/.test(ch) || ch.charCodeAt(0) >= 0x80;

/** Splits SQL into tokens the way SQLite's tokenizer does for everything this guard looks at; comments are dropped. */
export function tokenize(sql: string): { tokens: Token[]; comments: string[] } {
  const tokens: Token[] = [];
  const comments: string[] = [];
  let depth = 0;
  let i = 0;
  const n = sql.length;
  const push = (kind: Token['kind'], start: number, end: number) => tokens.push({ kind, text: sql.slice(start, end), start, end, depth });
  while (i < n) {
    const ch = sql[i];
    if (isSpace(ch)) {
      i++;
    } else if (ch === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      comments.push(sql.slice(i, stop));
      i = stop;
    } else if (ch === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2; // SQLite lets an unterminated comment run to the end
      comments.push(sql.slice(i, stop));
      i = stop;
    } else if (ch === "'" || ch === '"' || ch === '`' || ch === '[') {
      const close = ch === '[' ? ']' : ch;
      let j = i + 1;
      while (j < n) {
        if (sql[j] === close) {
          if (close !== ']' && sql[j + 1] === close) {
            j += 2; // doubled quote inside the literal
            continue;
          }
          break;
        }
        j++;
      }
      const end = Math.min(j + 1, n);
      push(ch === "'" ? 'string' : 'quoted', i, end);
      i = end;
    } else if (ch === ';') {
      push('semicolon', i, i + 1);
      i++;
    } else if (ch === '(') {
      push('open', i, i + 1);
      depth++;
      i++;
    } else if (ch === ')') {
      depth = Math.max(0, depth - 1);
      push('close', i, i + 1);
      i++;
    } else if (isWordChar(ch)) {
      let j = i + 1;
      while (j < n && isWordChar(sql[j])) j++;
      push('word', i, j);
      i = j;
    } else {
      push('symbol', i, i + 1);
      i++;
    }
  }
  return { tokens, comments };
}

/** Never valid in a console statement, wherever they stand (outside literals). */
const FORBIDDEN_WORDS: Record<string, string> = {
  attach: 'ATTACH is not allowed: the console reads this index only',
  detach: 'DETACH is not allowed: the console reads this index only',
  pragma: 'PRAGMA statements are not allowed (to read a pragma, use its table-valued function, e.g. SELECT * FROM pragma_table_info(\'sessions\'))',
  vacuum: 'VACUUM is not allowed: VACUUM INTO would write a copy of the database to a file',
  load_extension: 'load_extension() is not allowed: the console cannot load native code',
};

/**
 * The verbs a WITH clause can lead into besides SELECT (`WITH x AS (…) DELETE FROM t`). Other writes (DROP,
 * CREATE, BEGIN…) cannot follow WITH, and several of them are also legal column aliases (`AS end`), so they are
 * left to the first-word rule and to the engine.
 */
const WRITE_VERBS = new Set(['insert', 'update', 'delete']);

const refuse = (reason: RefusalReason, message: string): CheckedSql => ({ ok: false, reason, message });

export function checkStatementText(input: string): CheckedSql {
  if (input.length > MAX_SQL_CHARS) return refuse('too_long', `the statement is ${input.length} characters; the console accepts at most ${MAX_SQL_CHARS}`);
  if (input.includes('\u0000')) return refuse('nul_byte', 'the statement contains a NUL character, after which SQLite would silently stop reading');
  const { tokens, comments } = tokenize(input);
  const code = tokens.filter((t) => t.kind !== 'string');
  if (code.some((t) => BIDI_CONTROLS.test(t.text)) || comments.some((c) => BIDI_CONTROLS.test(c))) {
    return refuse('bidi_control', 'the statement contains invisible bidirectional control characters outside string literals, so it would not run the way it reads');
  }
  // Trailing semicolons are accepted (Chronicle strips them too); anything after a semicolon is a second statement.
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last].kind === 'semicolon') last--;
  const body = tokens.slice(0, last + 1);
  if (body.length === 0) return refuse('empty', 'the statement is empty');
  if (body.some((t) => t.kind === 'semicolon')) {
    return refuse('multiple_statements', 'only one statement per query: remove the ";" and run the statements one at a time');
  }
  const first = body[0];
  const verb = first.kind === 'word' ? first.text.toLowerCase() : '';
  if (verb !== 'select' && verb !== 'with') {
    const word = verb || first.text;
    if (Object.hasOwn(FORBIDDEN_WORDS, verb)) return refuse('forbidden_word', FORBIDDEN_WORDS[verb]);
    return refuse('not_select', `only a SELECT or WITH statement can run here, not "${word.slice(0, 40)}"`);
  }
  for (let k = 0; k < body.length; k++) {
    const t = body[k];
    if (t.kind !== 'word') continue;
    const w = t.text.toLowerCase();
    // own keys only: `constructor`, `toString`… are column aliases, not Object.prototype's members
    if (Object.hasOwn(FORBIDDEN_WORDS, w)) return refuse('forbidden_word', FORBIDDEN_WORDS[w]);
    // `replace(…)` is the string function and `AS replace` an alias; REPLACE INTO is a write.
    const isReplaceInto = w === 'replace' && body[k + 1]?.kind === 'word' && body[k + 1].text.toLowerCase() === 'into';
    if (t.depth === 0 && (WRITE_VERBS.has(w) || isReplaceInto)) {
      return refuse('write_statement', `this is ${w === 'insert' ? 'an' : 'a'} ${w.toUpperCase()} statement: the console only reads`);
    }
  }
  return { ok: true, sql: input.slice(0, body[body.length - 1].end) };
}
