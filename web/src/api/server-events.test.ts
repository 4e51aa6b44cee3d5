import { describe, expect, it, vi } from 'vitest';
import { createServerEvents, type EventSourceLike } from './server-events';

class FakeSource implements EventSourceLike {
  readyState = 0;
  onopen: ((ev: Event) => unknown) | null = null;
  onerror: ((ev: Event) => unknown) | null = null;
  closed = false;
  listeners = new Map<string, (ev: MessageEvent) => void>();
  addEventListener(type: string, l: (ev: MessageEvent) => void) {
    this.listeners.set(type, l);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  emit(type: string, data: unknown) {
    this.listeners.get(type)?.({ data: JSON.stringify(data) } as MessageEvent);
  }
  fail(readyState: number) {
    this.readyState = readyState;
    this.onerror?.(new Event('error'));
  }
}

function setup() {
  const sources: FakeSource[] = [];
  const timers: { fn: () => void; ms: number }[] = [];
  const events = createServerEvents({
    url: '/api/stream',
    connect: () => {
      const s = new FakeSource();
      sources.push(s);
      return s;
    },
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    clearTimer: () => {},
  });
  return { events, sources, timers };
}

const PROGRESS = { state: 'running', filesDone: 1, filesTotal: 4, bytesDone: 10, bytesTotal: 40 };

describe('createServerEvents', () => {
  it('opens one connection for all subscribers and fans out indexed messages', () => {
    const { events, sources } = setup();
    const a = vi.fn();
    const b = vi.fn();
    events.onIndexed(a);
    const offB = events.onIndexed(b);
    expect(sources).toHaveLength(1);
    sources[0].open();
    sources[0].emit('indexed', { sessionIds: ['s1'], events: 3, at: 1 });
    offB();
    sources[0].emit('indexed', { sessionIds: ['s2'], events: 1, at: 2 });
    expect(a.mock.calls.map((c) => c[0].sessionIds)).toEqual([['s1'], ['s2']]);
    expect(b).toHaveBeenCalledTimes(1);
  });

  it('keeps the latest valid progress and notifies state subscribers; ignores malformed messages', () => {
    const { events, sources } = setup();
    const changed = vi.fn();
    events.subscribeState(changed);
    sources[0].open();
    expect(events.getStatus()).toBe('open');
    sources[0].emit('progress', PROGRESS);
    sources[0].emit('progress', { state: 'bogus' });
    sources[0].listeners.get('progress')?.({ data: 'not json' } as MessageEvent);
    expect(events.getProgress()).toEqual(PROGRESS);
    expect(changed).toHaveBeenCalledTimes(2); // status → open, then progress
  });

  it('reconnects with backoff when the browser gives up, and announces a resync once open again', () => {
    const { events, sources, timers } = setup();
    const resync = vi.fn();
    events.onResync(resync);
    sources[0].open();
    // the first open too: what the page fetched before the stream was open may already be stale
    expect(resync).toHaveBeenCalledTimes(1);
    resync.mockClear();
    sources[0].fail(2);
    expect(sources[0].closed).toBe(true);
    expect(events.getStatus()).toBe('reconnecting');
    expect(timers.map((t) => t.ms)).toEqual([1000]);
    timers[0].fn();
    sources[1].fail(2);
    expect(timers.map((t) => t.ms)).toEqual([1000, 2000]);
    timers[1].fn();
    sources[2].open();
    expect(events.getStatus()).toBe('open');
    expect(resync).toHaveBeenCalledTimes(1);
  });

  it('lets the browser retry a dropped connection by itself, and still resyncs after it', () => {
    const { events, sources, timers } = setup();
    const resync = vi.fn();
    events.onResync(resync);
    sources[0].open();
    sources[0].fail(0);
    expect(timers).toHaveLength(0);
    expect(events.getStatus()).toBe('reconnecting');
    sources[0].open();
    expect(resync).toHaveBeenCalledTimes(2);
  });
});
