import { BackfillProgress, StreamIndexed } from '../../../shared/api';

/** The part of EventSource this module uses, so that tests can hand in a fake. */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((ev: Event) => unknown) | null;
  onerror: ((ev: Event) => unknown) | null;
  addEventListener(type: string, listener: (ev: MessageEvent) => void): void;
  close(): void;
}

const CLOSED = 2;

export type StreamStatus = 'idle' | 'connecting' | 'open' | 'reconnecting';

export interface ServerEventsOptions {
  url: string;
  connect: (url: string) => EventSourceLike;
  /** delay before the n-th (1-based) reconnect after the browser gave up on the connection */
  retryDelayMs?: (attempt: number) => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (t: unknown) => void;
}

export type ServerEvents = ReturnType<typeof createServerEvents>;

const defaultRetry = (attempt: number) => Math.min(30_000, 1000 * 2 ** (attempt - 1));

/**
 * One EventSource on /api/stream shared by the whole page: the latest backfill progress, the connection
 * status, and `indexed` notifications fanned out to subscribers.
 *
 * Reconnection: after a dropped connection the browser retries by itself (readyState CONNECTING); when the
 * server answered with an error it gives up (readyState CLOSED) and we open a new one with backoff. Either
 * way `indexed` messages may have been missed in between, so every open is announced to `onResync` listeners,
 * which refetch what they show. The first open too: a page fetches its data while the stream connects, and a
 * commit between that fetch and the open would otherwise never reach it (a loaded machine showed a session
 * view that never learned of a line appended right after it loaded).
 */
export function createServerEvents(o: ServerEventsOptions) {
  const retryDelay = o.retryDelayMs ?? defaultRetry;
  const setTimer = o.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = o.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>));

  let source: EventSourceLike | null = null;
  let timer: unknown = null;
  let attempt = 0;
  let everOpened = false;
  let progress: BackfillProgress | null = null;
  let status: StreamStatus = 'idle';
  const indexedListeners = new Set<(m: StreamIndexed) => void>();
  const resyncListeners = new Set<() => void>();
  const stateListeners = new Set<() => void>();

  const notifyState = () => stateListeners.forEach((l) => l());
  const setStatus = (s: StreamStatus) => {
    if (s !== status) {
      status = s;
      notifyState();
    }
  };

  function open() {
    timer = null;
    const es = o.connect(o.url);
    source = es;
    setStatus(everOpened ? 'reconnecting' : 'connecting');
    es.onopen = () => {
      attempt = 0;
      setStatus('open');
      resyncListeners.forEach((l) => l());
      everOpened = true;
    };
    es.onerror = () => {
      if (es !== source) return;
      if (es.readyState === CLOSED) {
        es.close();
        source = null;
        attempt += 1;
        setStatus('reconnecting');
        timer = setTimer(open, retryDelay(attempt));
      } else {
        setStatus('reconnecting');
      }
    };
    es.addEventListener('progress', (ev) => {
      const p = parse(BackfillProgress, ev.data);
      if (p) {
        progress = p;
        notifyState();
      }
    });
    es.addEventListener('indexed', (ev) => {
      const m = parse(StreamIndexed, ev.data);
      if (m) indexedListeners.forEach((l) => l(m));
    });
  }

  function start() {
    if (source || timer !== null) return;
    open();
  }

  return {
    /** Opens the connection if it is not open yet; every subscription calls it. */
    start,
    stop() {
      if (timer !== null) clearTimer(timer);
      timer = null;
      source?.close();
      source = null;
      setStatus('idle');
    },
    onIndexed(fn: (m: StreamIndexed) => void): () => void {
      start();
      indexedListeners.add(fn);
      return () => void indexedListeners.delete(fn);
    },
    onResync(fn: () => void): () => void {
      start();
      resyncListeners.add(fn);
      return () => void resyncListeners.delete(fn);
    },
    /** For useSyncExternalStore: progress and status changes. */
    subscribeState(fn: () => void): () => void {
      start();
      stateListeners.add(fn);
      return () => void stateListeners.delete(fn);
    },
    getProgress: (): BackfillProgress | null => progress,
    getStatus: (): StreamStatus => status,
  };
}

function parse<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, data: unknown): T | null {
  try {
    const r = schema.safeParse(JSON.parse(String(data)));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
