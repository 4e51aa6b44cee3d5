import type Database from 'better-sqlite3';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { familyCte } from '../counts/session-events';
import { VERSION } from '../version';
import { readableSpans } from './otlp-spans';
import { sessionSpanPlan } from './session-spans';

/** VS Code's importer refuses files over 50 MB (INTEROP §1); so do we, naming the size. */
export const MAX_EXPORT_BYTES = 50 * 1024 * 1024;

/**
 * How an export's size was found: `exact`, encoded whole; `entries`, its archived log lines alone (the export holds each
 * entry, and more); `{ first }`, encoded until its first `first` spans passed the limit (the rest not encoded).
 */
export type ExportSizeBasis = 'exact' | 'entries' | { first: number };

export class ExportTooLargeError extends Error {
  /** what is wrong, without what to do: the CLI and the API each say how to split in their own terms */
  readonly size: string;
  /**
   * For an export refused after its first spans: its whole size at the rate of those spans (bytes × spans / first),
   * so that a user knows about how large it is. The bench archive's next three largest families: estimated 98.6, 87.3
   * and 71.1 MB from their first 24,000–26,000 spans; their `--split` parts come to 98.4, 87.3 and 71.1 MB. Null when the
   * size is exact, or known only from the log entries (a span holds its entry and more, by no fixed rate).
   */
  readonly estimatedBytes: number | null;
  /** `bytes`: the size, or what `basis` says it is at least; `spans`: the export's spans (its entries for `entries`) */
  constructor(
    readonly bytes: number,
    readonly spans: number,
    basis: ExportSizeBasis = 'exact',
  ) {
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    const count = (n: number) => n.toLocaleString('en-US');
    const estimated = typeof basis === 'object' && basis.first > 0 ? Math.round((bytes * spans) / basis.first) : null;
    const size =
      basis === 'exact'
        ? `the export is ${mb(bytes)} MB (${count(spans)} spans), over VS Code's 50 MB import limit`
        : basis === 'entries'
          ? `the export is over ${mb(bytes)} MB (its ${count(spans)} log entries alone), over VS Code's 50 MB import limit`
          : `the export is over ${mb(bytes)} MB (its first ${count(basis.first)} of ${count(spans)} spans; about ${mb(estimated ?? bytes)} MB in all at that rate), over VS Code's 50 MB import limit`;
    super(`${size}: use --split to write it in parts`);
    this.size = size;
    this.estimatedBytes = estimated;
  }
}

export interface OtlpDocument {
  resourceSpans: unknown[];
  copilotChat: { exportedAt: string; exporterVersion: string; sessionId: string; sessionTitle: string | null };
}

export interface OtlpExportOptions {
  /** when the file says it was exported; fixed in tests so two exports are byte-identical */
  exportedAt?: number;
  maxBytes?: number;
  /** spans encoded at a time to measure the export, or to make a split export's parts (tests set a small one) */
  sizeBatch?: number;
}

/**
 * Spans read and encoded at a time: a split export's part closes before the batch that would take it over the limit,
 * so a smaller batch fills parts closer to it (the largest family of the bench: batches of 5,000 spans, ~10 MB each,
 * made 13 parts of ~43 MB; of 1,000, 11 of ~52 MB, the limit being 50 MiB); and a whole export over the limit is
 * refused one batch after it passes it. Never the whole export as one string: the bench archive's largest family
 * (254k spans with their prompts) passed V8's longest string ("RangeError: Invalid string length", a 500 after 8.6 s).
 */
const BATCH = 1000;

/**
 * A session and its child logs as one OTLP JSON document, as its bytes (in pieces, in order), encoded by the
 * OpenTelemetry JSON serializer: 32-hex trace id, 16-hex span ids (span-ids.ts), nanosecond times as decimal strings,
 * integer attributes as intValue. The top-level `copilotChat` block is what VS Code's Agent Debug Log import reads
 * first. The bytes JSON.stringify gives for `{ resourceSpans, copilotChat }`; exporting twice gives the same bytes
 * (given exportedAt). Over `maxBytes` (VS Code's 50 MB): ExportTooLargeError, as soon as that is known: before reading
 * a span when the archived log lines alone are over, else once the spans encoded so far are (the bench archive's
 * second family, 98 MB: its 413 came once all 47,281 spans were encoded, 4.0–4.1 s through the server; now after its
 * first 24,000, 1.2–2.1 s). A document under the limit is encoded once (it was encoded twice, then decoded).
 */
export function otlpJsonDocument(db: Database.Database, sessionId: string, o: OtlpExportOptions = {}): Uint8Array[] | null {
  const limit = o.maxBytes ?? MAX_EXPORT_BYTES;
  // Each span carries its archived line (chronoscope.entry): when the lines alone are over the limit, say so before
  // reading any (the bench archive's largest family: 10 s and 1.35 GB of RSS to refuse it by its encoded size).
  const logs = archivedLogBytes(db, sessionId);
  if (logs !== null && logs.bytes > limit) throw new ExportTooLargeError(logs.bytes, logs.entries, 'entries');
  const enc = spanEncoder(db, sessionId, o);
  if (!enc) return null;
  if (enc.length === 0) return enc.empty();
  const batches: EncodedBatch[] = [];
  // what the document holds at least: each batch's spans (its resource and scope are written once, the commas between)
  let atLeast = enc.tail.byteLength;
  for (const b of enc.batches()) {
    batches.push(b);
    atLeast += b.cut?.spans.byteLength ?? b.bytes;
    // refused before the rest is read and encoded; past the last batch, the exact size below says it
    if (atLeast > limit && b.to < enc.length) throw new ExportTooLargeError(atLeast, enc.length, { first: b.to });
  }
  const doc = enc.part(batches);
  const bytes = doc.reduce((n, piece) => n + piece.byteLength, 0);
  if (bytes > limit) throw new ExportTooLargeError(bytes, enc.length);
  return doc;
}

function exportHead(db: Database.Database, rootSessionId: string, o: OtlpExportOptions): OtlpDocument['copilotChat'] {
  const title = (db.prepare('SELECT title FROM sessions WHERE id = ?').get(rootSessionId) as { title: string | null } | undefined)?.title ?? null;
  return { exportedAt: new Date(o.exportedAt ?? Date.now()).toISOString(), exporterVersion: `chronoscope ${VERSION}`, sessionId: rootSessionId, sessionTitle: title };
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const SPANS_OPEN = utf8('"spans":[');
/** how the serializer closes a document of one resource and one scope: its spans, scopeSpans, resourceSpans and itself */
const SPANS_CLOSE = utf8(']}]}]}');

/**
 * A batch's document cut around its spans: what comes before them (the resource and scope, the same for every batch of
 * an export) and the spans themselves, without their brackets. Null when the document has another shape than one
 * resource with one scope (the caller then encodes its part whole).
 */
function cutAroundSpans(doc: Uint8Array): { head: Buffer; spans: Uint8Array } | null {
  const bytes = Buffer.from(doc.buffer, doc.byteOffset, doc.byteLength);
  const at = bytes.indexOf(SPANS_OPEN);
  if (at < 0 || !bytes.subarray(bytes.byteLength - SPANS_CLOSE.byteLength).equals(SPANS_CLOSE)) return null;
  return { head: bytes.subarray(0, at + SPANS_OPEN.byteLength), spans: bytes.subarray(at + SPANS_OPEN.byteLength, bytes.byteLength - SPANS_CLOSE.byteLength) };
}

/** A batch of spans encoded: which (tree positions from..to), its document's size, and that document cut around its spans. */
interface EncodedBatch {
  from: number;
  to: number;
  bytes: number;
  cut: ReturnType<typeof cutAroundSpans>;
}

/**
 * What both exports are made of: the session's spans (sessionSpanPlan, in tree order) read and encoded a batch at a
 * time (`batches`; with `halve`, a batch over the limit by itself is encoded again with fewer spans, down to one), and
 * documents made of such batches (`part`: their spans joined under the first one's resource and scope, or encoded
 * again whole if any has another shape), each ending with the export's `copilotChat` head (`tail`).
 */
function spanEncoder(db: Database.Database, sessionId: string, o: OtlpExportOptions) {
  const plan = sessionSpanPlan(db, sessionId);
  if (!plan) return null;
  const head = exportHead(db, plan.rootSessionId, o);
  const tail = utf8(`,"copilotChat":${JSON.stringify(head)}}`);
  const max = (o.maxBytes ?? MAX_EXPORT_BYTES) - tail.byteLength;
  const batch = o.sizeBatch ?? BATCH;
  const encode = (from: number, to: number) => JsonTraceSerializer.serializeRequest(readableSpans({ ...plan, spans: plan.read(from, to) }, { content: true, rawEntry: true }))!;
  /** a document as the serializer wrote it, with the head spliced in before its last brace */
  const whole = (doc: Uint8Array): Uint8Array[] => [doc.subarray(0, doc.byteLength - 1), tail];
  return {
    length: plan.length,
    tail,
    /** the document of no spans */
    empty: () => whole(JsonTraceSerializer.serializeRequest([])!),
    *batches(halve = false): Generator<EncodedBatch> {
      for (let from = 0; from < plan.length; ) {
        let to = Math.min(plan.length, from + batch);
        let doc = encode(from, to);
        while (halve && doc.byteLength > max && to - from > 1) doc = encode(from, (to = from + Math.ceil((to - from) / 2)));
        yield { from, to, bytes: doc.byteLength, cut: cutAroundSpans(doc) };
        from = to;
      }
    },
    part(batches: EncodedBatch[]): Uint8Array[] {
      const first = batches[0].cut;
      if (first === null || batches.some((b) => b.cut === null || !b.cut.head.equals(first.head))) return whole(encode(batches[0].from, batches[batches.length - 1].to));
      const out: Uint8Array[] = [first.head];
      batches.forEach((b, k) => out.push(...(k > 0 ? [utf8(',')] : []), b.cut!.spans));
      out.push(SPANS_CLOSE.subarray(0, SPANS_CLOSE.byteLength - 1), tail);
      return out;
    },
    /** the limit for a document's batches together (each batch's size counts its resource and scope again) */
    max,
  };
}

/**
 * The export in parts of at most `maxBytes` each (`--split`), as the bytes of each part's JSON document, made one at a
 * time as they are taken: consecutive spans in tree order (a span's parent may sit in an earlier part), a part closed
 * before the batch that would pass the limit. What is held at once is a part's bytes and a batch's spans, whatever the
 * size of the session (the bench archive's largest family, 254k spans, held every span with its line: 3.4 GB of RSS).
 * Each part is the bytes JSON.stringify gives for `{ resourceSpans, copilotChat }`, and the bytes the serializer gives
 * for the part's spans encoded at once.
 */
export function otlpJsonParts(db: Database.Database, sessionId: string, o: OtlpExportOptions = {}): Iterable<Uint8Array[]> | null {
  const enc = spanEncoder(db, sessionId, o);
  if (!enc) return null;
  return (function* () {
    if (enc.length === 0) {
      yield enc.empty();
      return;
    }
    let pending: EncodedBatch[] = [];
    let pendingBytes = 0;
    for (const b of enc.batches(true)) {
      if (pending.length > 0 && pendingBytes + b.bytes > enc.max) {
        yield enc.part(pending);
        pending = [];
        pendingBytes = 0;
      }
      pending.push(b);
      pendingBytes += b.bytes;
    }
    yield enc.part(pending);
  })();
}

/**
 * What the exported entries of a session and its child logs hold at least: the bytes read of their log files, less
 * their bad lines and fragments (not exported), the lines repeated inside one file (dup 2: the export leaves them out,
 * as the tree does) and two bytes a line for its line break; each entry is written whole as a JSON string
 * (chronoscope.entry), quotes and escapes on top. Null for an unknown session.
 */
function archivedLogBytes(db: Database.Database, sessionId: string): { bytes: number; entries: number } | null {
  const row = db
    .prepare(
      `WITH RECURSIVE ${familyCte(' WHERE id = ?')},
         repeats(n, bytes) AS (SELECT count(*), coalesce(sum(l.length), 0)
           FROM family JOIN sessions s ON s.id = family.id JOIN events e ON e.session_num = s.num AND e.dup = 2 JOIN lines l ON l.id = e.id)
       SELECT count(DISTINCT family.id) sessions, coalesce(sum(f.events), 0) - (SELECT n FROM repeats) entries,
         coalesce(sum(f.offset - 2 * (f.events + f.bad_lines + f.fragments)
           - (SELECT coalesce(sum(l.length), 0) FROM lines l WHERE l.file_id = f.id AND l.kind > 0)), 0) - (SELECT bytes FROM repeats) bytes
       FROM family LEFT JOIN files f ON f.session_id = family.id`,
    )
    .get(sessionId) as { sessions: number; bytes: number; entries: number };
  return row.sessions === 0 ? null : { bytes: row.bytes, entries: row.entries };
}
