import { promptHash } from '../ingest/process-line';
import { stringKey, stringKeyOfRange } from '../ingest/string-key';
import { MAX_INDEXED_CHARS, VALUE_SEPARATOR, cjkIndexText, promptStringsOf, promptText } from '../search/indexed-text';

/**
 * Which prompt strings of a session get a row of their own (prompt_docs, and its text in prompt_text / prompt_cjk).
 *
 * Every model call repeats the conversation so far (`inputMessages`), so each distinct string is indexed once per
 * session, with the first call that sent it; and a string the session's own events already said (a user message,
 * a response, a tool call: their text is in event_text) is not indexed again as a prompt.
 *
 * This runs on the search thread, for live rows and for the catch-up from the archive alike, in the order of the
 * events' ids: the ingest thread only hands over each call's prompt as written (promptParts). Walking it there,
 * with a hash and a row for each new string, was ~8% of the ingest thread's time (issue 19.1), the thread that
 * bounds a backfill; the search thread had time to spare.
 *
 * What is remembered of the session being indexed is a 53-bit key per string (stringKey), not the string, up to
 * MAX_KNOWN_CHARS of strings; past that, and after a restart, the unique (session_key, hash) row is what keeps a
 * string from being indexed twice.
 */
export interface PromptDocs {
  /** A prompt_docs row for this text of the session, sent first by `eventId`: its id, or null when it has one. */
  insertDoc(sessionKey: number, hash: Buffer, eventId: number): number | null;
  /** The text of prompt_docs row `doc` (its CJK tokens '' when it has none). */
  insertText(doc: number, text: string, cjk: string): void;
}

/** Characters of strings remembered for the session being indexed. */
const MAX_KNOWN_CHARS = 16 * 1024 * 1024;

/** A session's key in prompt_docs: its id's stringKey, which (unlike sessions.num) a rebuild of the archive keeps. */
export const sessionKeyOf = (sessionId: string): number => stringKey(sessionId);

export class SessionPrompts {
  private session = -1;
  private keys = new Set<number>();
  private chars = 0;

  constructor(private readonly docs: PromptDocs) {}

  /**
   * One event of session `sessionKey`, in id order. `text` is its indexed text (processLine's), `said` whether its
   * strings are ones a later prompt repeats (processLine's `said`), `parts` its prompt (promptParts).
   */
  index(sessionKey: number, eventId: number, text: string, said: boolean, parts: readonly string[]): void {
    if (!said && parts.length === 0) return;
    if (sessionKey !== this.session) this.forget(sessionKey);
    // The text is the said strings folded and joined by VALUE_SEPARATOR, which folding leaves alone: each piece,
    // trimmed, is its string as promptText folds it. A text at the cap does not hold them all (processLine).
    if (said && text.length < MAX_INDEXED_CHARS) this.rememberPieces(text);
    if (parts.length === 0) return;
    for (const raw of promptStringsOf(parts)) {
      // a string sent before, as written: most of a call's strings, known without folding them
      const rawKey = stringKey(raw);
      if (this.keys.has(rawKey)) continue;
      this.remember(rawKey, raw.length);
      const t = promptText(raw);
      if (t === '') continue;
      const key = t === raw ? rawKey : stringKey(t);
      if (key !== rawKey) {
        // another string that folds to the same text, said or sent before
        if (this.keys.has(key)) continue;
        this.remember(key, t.length);
      }
      const doc = this.docs.insertDoc(sessionKey, promptHash(t), eventId);
      if (doc !== null) this.docs.insertText(doc, t, cjkIndexText(t));
    }
  }

  /** Nothing remembered (a rolled-back group took its rows with it; a catch-up reads the archive afresh). */
  forget(session = -1): void {
    this.session = session;
    this.keys = new Set();
    this.chars = 0;
  }

  /** The key of each piece of `text` between two VALUE_SEPARATORs, trimmed (folded text: its only spaces are ' '). */
  private rememberPieces(text: string): void {
    let start = 0;
    while (start <= text.length) {
      let end = text.indexOf(VALUE_SEPARATOR, start);
      if (end === -1) end = text.length;
      let a = start;
      let b = end;
      while (a < b && text.charCodeAt(a) === 0x20) a++;
      while (b > a && text.charCodeAt(b - 1) === 0x20) b--;
      this.remember(stringKeyOfRange(text, a, b), b - a);
      start = end + 1;
    }
  }

  private remember(key: number, chars: number): void {
    if (this.chars > MAX_KNOWN_CHARS) return;
    this.keys.add(key);
    this.chars += chars;
  }
}
