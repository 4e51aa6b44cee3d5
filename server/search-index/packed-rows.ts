import type { SearchRow } from './search-feed';

/**
 * Search rows as the ingest thread posts them to the search thread (search-thread.ts): each column's strings joined
 * into one string, with their lengths, and the ids in typed arrays whose memory is handed over. Cloning arrays of
 * strings, one header and copy per string, was ~2.5% of the ingest thread's time on the 1.6 GiB backfill (V8
 * profile, issue 19.1); one string per column is one copy, done by the clone, and the arrays move without a copy.
 */
export interface PackedRows {
  ids: Float64Array;
  /** each row's session (sessionKeyOf its id): what its prompt strings are de-duplicated within */
  sessions: Float64Array;
  /** 1: the row's text is strings a later prompt repeats (processLine's `said`) */
  said: Uint8Array;
  text: string;
  textLengths: Uint32Array;
  cjk: string;
  cjkLengths: Uint32Array;
  /** the rows' prompt parts (promptParts), joined: `promptCounts[i]` parts of row i, of `promptLengths` each */
  prompt: string;
  promptLengths: Uint32Array;
  promptCounts: Uint8Array;
}

export class RowPacker {
  private ids: number[] = [];
  private sessions: number[] = [];
  private said: number[] = [];
  private textLengths: number[] = [];
  private cjkLengths: number[] = [];
  private promptLengths: number[] = [];
  private promptCounts: number[] = [];
  // joined as they come: V8 keeps a rope of the pieces and flattens it once, when the message is cloned
  private text = '';
  private cjk = '';
  private prompt = '';
  /** characters of text in the rows held */
  chars = 0;

  get size(): number {
    return this.ids.length;
  }

  add(id: number, sessionKey: number, text: string, cjk: string, said: boolean, parts: readonly string[]): void {
    this.ids.push(id);
    this.sessions.push(sessionKey);
    this.said.push(said ? 1 : 0);
    this.textLengths.push(text.length);
    this.cjkLengths.push(cjk.length);
    this.text += text;
    this.cjk += cjk;
    this.promptCounts.push(parts.length);
    let chars = text.length + cjk.length;
    for (const p of parts) {
      this.promptLengths.push(p.length);
      this.prompt += p;
      chars += p.length;
    }
    this.chars += chars;
  }

  /** The rows held, packed, and the buffers to transfer with them; empties the packer. */
  take(): { rows: PackedRows; transfer: ArrayBuffer[] } {
    const rows: PackedRows = {
      ids: Float64Array.from(this.ids),
      sessions: Float64Array.from(this.sessions),
      said: Uint8Array.from(this.said),
      text: this.text,
      textLengths: Uint32Array.from(this.textLengths),
      cjk: this.cjk,
      cjkLengths: Uint32Array.from(this.cjkLengths),
      prompt: this.prompt,
      promptLengths: Uint32Array.from(this.promptLengths),
      promptCounts: Uint8Array.from(this.promptCounts),
    };
    this.clear();
    const transfer = [rows.ids, rows.sessions, rows.said, rows.textLengths, rows.cjkLengths, rows.promptLengths, rows.promptCounts].map((a) => a.buffer);
    return { rows, transfer: transfer as ArrayBuffer[] };
  }

  clear(): void {
    this.ids = [];
    this.sessions = [];
    this.said = [];
    this.textLengths = [];
    this.cjkLengths = [];
    this.promptLengths = [];
    this.promptCounts = [];
    this.text = '';
    this.cjk = '';
    this.prompt = '';
    this.chars = 0;
  }
}

function split(joined: string, lengths: Uint32Array): string[] {
  const out: string[] = new Array(lengths.length);
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    out[i] = joined.slice(at, at + lengths[i]);
    at += lengths[i];
  }
  if (at !== joined.length) throw new Error(`packed search rows do not add up (${at} of ${joined.length} characters)`);
  return out;
}

const NO_PARTS: readonly string[] = Object.freeze([]);

export function unpackRows(p: PackedRows): SearchRow[] {
  const texts = split(p.text, p.textLengths);
  const cjks = split(p.cjk, p.cjkLengths);
  const parts = split(p.prompt, p.promptLengths);
  const rows: SearchRow[] = new Array(p.ids.length);
  let part = 0;
  for (let i = 0; i < rows.length; i++) {
    const n = p.promptCounts[i];
    rows[i] = { id: p.ids[i], sessionKey: p.sessions[i], text: texts[i], cjk: cjks[i], said: p.said[i] === 1, promptParts: n === 0 ? NO_PARTS : parts.slice(part, part + n) };
    part += n;
  }
  if (part !== parts.length) throw new Error(`packed search rows do not add up (${part} of ${parts.length} prompt parts)`);
  return rows;
}
