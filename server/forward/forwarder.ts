import type Database from 'better-sqlite3';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ForwardStatus } from '../../shared/api';
import { readableSpans } from '../export/otlp-spans';
import { sessionSpans } from '../export/session-spans';
import { inOneSnapshot } from '../db/one-snapshot';
import { openReadDb } from '../db/open';
import type { ForwardConfig } from './forward-config';
import { readCursor, writeCursor, type CursorState } from './forward-cursor';

/** Events per request: one request is one committed step of the cursor. */
export const BATCH_EVENTS = 500;
const BACKOFF_MIN_MS = 1000;
const BACKOFF_MAX_MS = 60_000;

export type Send = (url: string, init: { method: 'POST'; headers: Record<string, string>; body: Uint8Array }) => Promise<{ status: number; headers: { get(name: string): string | null } }>;

interface BatchRow {
  id: number;
  dup: number;
  /** the session whose log holds the event */
  sid: string;
  /** the top-level session whose folder holds that log: one trace per folder */
  root: string;
}

class Refused extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/**
 * Sends every indexed event to a collector, backfill and live, in events.id order (INTEROP §2): each request
 * carries the spans of the next BATCH_EVENTS events, and once the collector accepts it the cursor moves past
 * them (forward-cursor.ts), so a restart skips nothing and resends at most the request in flight. 429, 5xx and network
 * failures are retried with exponential backoff (Retry-After honoured); another 4xx means the collector will
 * never take those spans: they are counted as dropped and the cursor moves on, or it would stall forever.
 * It reads through a read-only connection of its own, so it sends only what the indexer has committed (never a
 * group a disk-full rollback will undo). The queue is the index itself: memory holds one batch.
 */
export class Forwarder {
  private running = false;
  private again = false;
  private stopped = false;
  private wake: (() => void) | null = null;
  private readonly st;
  private readonly db: Database.Database;
  private cursor: CursorState;
  readonly status: ForwardStatus;

  constructor(
    private readonly dbPath: string,
    private readonly cfg: ForwardConfig,
    private readonly onStatus: (s: ForwardStatus) => void,
    private readonly send: Send = (url, init) => fetch(url, { ...init, body: Buffer.from(init.body) }),
  ) {
    this.db = openReadDb(dbPath, { search: false }); // spans only: no search file attached (its cache is memory)
    const db = this.db;
    this.cursor = readCursor(dbPath, cfg.endpoint);
    this.st = {
      batch: db.prepare(
        `SELECT e.id, e.dup, s.id sid, coalesce(s.folder_session_id, s.id) root FROM events e JOIN sessions s ON s.num = e.session_num
         WHERE e.id > ? ORDER BY e.id LIMIT ?`,
      ),
      pending: db.prepare('SELECT count(*) n FROM events WHERE id > ?'),
    };
    this.status = { endpoint: cfg.endpoint, protocol: cfg.protocol, content: cfg.content, state: 'starting', cursor: this.cursor.eventId, pending: 0, sentSpans: this.cursor.sentSpans, droppedSpans: 0, lastSentAt: null, lastError: null };
  }

  /** New events were committed: send them (or after the current run). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      this.wake?.();
      return;
    }
    this.running = true;
    void this.run().finally(() => {
      this.running = false;
      if (this.stopped) this.db.close();
      if (this.again && !this.stopped) {
        this.again = false;
        this.kick();
      }
    });
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
    if (!this.running) this.db.close();
  }

  /** After each accepted (or refused for good) request: the events through `eventId` are done with. */
  private advance(eventId: number, spans: number): void {
    this.cursor = { eventId, sentSpans: this.cursor.sentSpans + spans };
    writeCursor(this.dbPath, this.cfg.endpoint, this.cursor);
  }

  private report(patch: Partial<ForwardStatus>) {
    Object.assign(this.status, patch);
    this.onStatus({ ...this.status });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }

  private async run(): Promise<void> {
    let backoff = BACKOFF_MIN_MS;
    while (!this.stopped) {
      const cursor = this.cursor.eventId;
      // the batch, its spans' trees and the count still to send, from one state of the index (one-snapshot.ts)
      const read = inOneSnapshot(this.db, () => {
        const rows = this.st.batch.all(cursor, BATCH_EVENTS) as BatchRow[];
        if (rows.length === 0) return null;
        return { through: rows[rows.length - 1].id, body: this.encode(rows), pending: (this.st.pending.get(cursor) as { n: number }).n };
      });
      if (!read) {
        this.report({ state: 'idle', cursor, pending: 0 });
        return;
      }
      const { through, body, pending } = read;
      this.report({ state: this.status.state === 'retrying' ? 'retrying' : 'sending', cursor, pending });
      try {
        await this.post(body.bytes);
        this.advance(through, body.spans);
        backoff = BACKOFF_MIN_MS;
        this.report({ state: 'sending', cursor: through, sentSpans: this.status.sentSpans + body.spans, lastSentAt: Date.now() });
      } catch (err) {
        const refused = err instanceof Refused ? err : new Refused(`network: ${(err as Error).message}`, true);
        this.report({ lastError: { message: refused.message, at: Date.now() } });
        if (!refused.retry) {
          this.advance(through, 0);
          this.report({ droppedSpans: this.status.droppedSpans + body.spans, cursor: through });
          continue;
        }
        this.report({ state: 'retrying' });
        await this.sleep(refused.retryAfterMs ?? backoff);
        backoff = Math.min(BACKOFF_MAX_MS, backoff * 2);
      }
    }
  }

  /** The spans of these events, each session's through its span tree (parents across child logs). */
  private encode(rows: BatchRow[]): { bytes: Uint8Array; spans: number } {
    const ids = new Set(rows.map((r) => r.id));
    const o = { content: this.cfg.content, rawEntry: this.cfg.content };
    const spans = [];
    const sent = new Set<number>();
    for (const root of new Set(rows.map((r) => r.root))) {
      const ss = sessionSpans(this.db, root, (id) => ids.has(id));
      if (!ss) continue;
      for (const s of ss.spans) sent.add(s.entry.id);
      spans.push(...readableSpans(ss, o));
    }
    // During a backfill a child log can be indexed before the ref that links it to its parent's tree: its
    // events are sent from its own tree, in its folder's trace, rather than skipped. Repeats (dup 2) never go.
    const missed = rows.filter((r) => !sent.has(r.id) && r.dup !== 2);
    for (const sid of new Set(missed.map((r) => r.sid))) {
      const root = missed.find((r) => r.sid === sid)!.root;
      const ss = sessionSpans(this.db, sid, (id) => ids.has(id) && !sent.has(id), root);
      if (ss) spans.push(...readableSpans(ss, o));
    }
    const serializer = this.cfg.protocol === 'http/json' ? JsonTraceSerializer : ProtobufTraceSerializer;
    return { bytes: serializer.serializeRequest(spans) ?? new Uint8Array(), spans: spans.length };
  }

  private async post(body: Uint8Array): Promise<void> {
    const res = await this.send(this.cfg.endpoint, {
      method: 'POST',
      headers: { 'Content-Type': this.cfg.protocol === 'http/json' ? 'application/json' : 'application/x-protobuf', ...this.cfg.headers },
      body,
    });
    if (res.status >= 200 && res.status < 300) return;
    const retryAfter = Number(res.headers.get('retry-after'));
    const after = Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(BACKOFF_MAX_MS, retryAfter * 1000) : null;
    if (res.status === 429 || res.status >= 500) throw new Refused(`the collector answered ${res.status}`, true, after);
    throw new Refused(`the collector refused the spans: ${res.status}`, false);
  }
}
