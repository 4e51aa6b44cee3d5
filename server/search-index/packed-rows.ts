/**
 * Search rows as the ingest thread posts them to the search thread (search-thread.ts): each column's strings joined
 * into one string, with their lengths, and the ids in typed arrays whose memory is handed over. Cloning arrays of
 * strings, one header and copy per string, was ~2.5% of the ingest thread's time on the 1.6 GiB backfill (V8
 * profile, issue 19.1); one string per column is one copy, done by the clone, and the arrays move without a copy.
 */
export interface PackedRows {
  ids: Float64Array;
  /** > 0: a prompt string's row (prompt_docs.id), first sent by the event of the same index; 0: the event's text */
  docs: Float64Array;
  text: string;
  textLengths: Uint32Array;
  cjk: string;
  cjkLengths: Uint32Array;
}

export interface UnpackedRows {
  ids: number[];
  texts: string[];
  cjks: string[];
  docs: number[];
}

export class RowPacker {
  private ids: number[] = [];
  private docs: number[] = [];
  private textLengths: number[] = [];
  private cjkLengths: number[] = [];
  // joined as they come: V8 keeps a rope of the pieces and flattens it once, when the message is cloned
  private text = '';
  private cjk = '';
  /** characters of text in the rows held */
  chars = 0;

  get size(): number {
    return this.ids.length;
  }

  add(id: number, text: string, cjk: string, doc: number): void {
    this.ids.push(id);
    this.docs.push(doc);
    this.textLengths.push(text.length);
    this.cjkLengths.push(cjk.length);
    this.text += text;
    this.cjk += cjk;
    this.chars += text.length + cjk.length;
  }

  /** The rows held, packed, and the buffers to transfer with them; empties the packer. */
  take(): { rows: PackedRows; transfer: ArrayBuffer[] } {
    const rows: PackedRows = {
      ids: Float64Array.from(this.ids),
      docs: Float64Array.from(this.docs),
      text: this.text,
      textLengths: Uint32Array.from(this.textLengths),
      cjk: this.cjk,
      cjkLengths: Uint32Array.from(this.cjkLengths),
    };
    this.clear();
    return { rows, transfer: [rows.ids.buffer, rows.docs.buffer, rows.textLengths.buffer, rows.cjkLengths.buffer] as ArrayBuffer[] };
  }

  clear(): void {
    this.ids = [];
    this.docs = [];
    this.textLengths = [];
    this.cjkLengths = [];
    this.text = '';
    this.cjk = '';
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

export function unpackRows(p: PackedRows): UnpackedRows {
  return { ids: Array.from(p.ids), texts: split(p.text, p.textLengths), cjks: split(p.cjk, p.cjkLengths), docs: Array.from(p.docs) };
}
