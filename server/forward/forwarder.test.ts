import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ForwardStatus } from '../../shared/api';
import { exportFixtureFiles, PARENT, T0 } from '../export/export-fixture';
import { sessionSpans } from '../export/session-spans';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { startReceiver, type Receiver } from '../test-support/otlp-receiver';
import { Forwarder } from './forwarder';
import { WAIT_MS } from '../test-support/until';

// Forwarding to a collector through a real OTLP/HTTP receiver that decodes the protobuf: a backfill, a restart
// (nothing resent), a live append (only the new spans), a 429 answered by a later retry, a 400 (dropped, counted,
// not retried forever), and OTLP/JSON.

let fx: FixtureDb;
let rx: Receiver;
const forwarders: Forwarder[] = [];

beforeAll(async () => {
  fx = await fixtureDb(exportFixtureFiles());
});
afterAll(() => fx.cleanup());
afterEach(async () => {
  for (const f of forwarders.splice(0)) f.stop();
  await rx?.close();
});

function forwarder(url: string, protocol: 'http/protobuf' | 'http/json' = 'http/protobuf', content = false) {
  const statuses: ForwardStatus[] = [];
  const f = new Forwarder(fx.dbPath, { endpoint: url, protocol, headers: { 'x-test': '1' }, content }, (s) => statuses.push(s));
  forwarders.push(f);
  return { f, statuses, idle: () => waitFor(() => statuses.at(-1)?.state === 'idle') };
}

async function waitFor(ok: () => boolean, ms = WAIT_MS) {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const expected = () => sessionSpans(fx.db, PARENT)!.spans.map((s) => s.spanId).sort();

describe('Forwarder', () => {
  it('backfill: every span once, decoded from protobuf; a restart sends nothing again', async () => {
    rx = await startReceiver();
    const a = forwarder(rx.url);
    a.f.kick();
    await a.idle();
    expect(rx.spans.map((s) => s.spanId).sort()).toEqual(expected());
    expect(rx.spans).toHaveLength(19);
    expect(new Set(rx.spans.map((s) => s.traceId))).toEqual(new Set([sessionSpans(fx.db, PARENT)!.traceId]));
    expect(rx.requests.every((r) => r.contentType === 'application/x-protobuf')).toBe(true);
    const chat = rx.spans.find((s) => s.attributes['gen_ai.operation.name'] === 'chat')!;
    expect(chat.attributes).toMatchObject({ 'gen_ai.request.model': 'gpt-4.1', 'gen_ai.usage.input_tokens': 18000, 'openinference.span.kind': 'LLM' });
    // no content without --otlp-content
    expect(Object.keys(chat.attributes)).not.toContain('gen_ai.input.messages');
    expect(rx.spans.find((s) => s.name === 'read_file')!.attributes['gen_ai.tool.call.result']).toBeUndefined();
    expect(a.statuses.at(-1)).toMatchObject({ state: 'idle', sentSpans: 19, droppedSpans: 0, pending: 0 });

    const b = forwarder(rx.url);
    b.f.kick();
    await b.idle();
    expect(rx.spans).toHaveLength(19);
    expect(b.statuses.at(-1)).toMatchObject({ sentSpans: 19 });
  });

  it('a live append sends only the new span', async () => {
    rx = await startReceiver();
    const url = rx.url.replace('/v1/traces', '/live/v1/traces'); // another endpoint: a cursor of its own
    const a = forwarder(url);
    a.f.kick();
    await a.idle();
    expect(rx.spans).toHaveLength(19);
    fs.appendFileSync(
      path.join(fx.logsDir(), PARENT, 'main.jsonl'),
      line({ ts: T0 + 20_000, dur: 500, sid: PARENT, type: 'tool_call', name: 'list_dir', spanId: '00000000000000aa', parentSpanId: '0000000000000001', status: 'ok', attrs: { args: '{}', result: 'src/' } }),
    );
    await fx.reindex();
    a.f.kick();
    await waitFor(() => rx.spans.length === 20);
    await a.idle();
    expect(rx.spans.at(-1)).toMatchObject({ name: 'list_dir' });
    const user = rx.spans.find((s) => s.attributes['chronoscope.type'] === 'user_message')!;
    expect(rx.spans.at(-1)!.parentSpanId).toBe(user.spanId);
    expect(new Set(rx.spans.map((s) => s.spanId)).size).toBe(20);
  });

  it('a 429 is retried later and lands once; a 400 is dropped and counted, not retried', async () => {
    rx = await startReceiver();
    rx.failNext(429);
    const a = forwarder(rx.url.replace('/v1/traces', '/retry/v1/traces'));
    a.f.kick();
    await a.idle();
    expect(rx.requests.map((r) => r.status)).toEqual([429, 200]);
    expect(new Set(rx.spans.map((s) => s.spanId)).size).toBe(rx.spans.length);
    expect(a.statuses.some((s) => s.state === 'retrying' && s.lastError?.message === 'the collector answered 429')).toBe(true);

    rx.failNext(400);
    const b = forwarder(rx.url.replace('/v1/traces', '/refuses/v1/traces'));
    b.f.kick();
    await b.idle();
    expect(b.statuses.at(-1)).toMatchObject({ state: 'idle', droppedSpans: 20, sentSpans: 0, lastError: { message: 'the collector refused the spans: 400' } });
  }, 20_000);

  it('OTLP/JSON, with content when asked', async () => {
    rx = await startReceiver();
    const a = forwarder(rx.url.replace('/v1/traces', '/json/v1/traces'), 'http/json', true);
    a.f.kick();
    await a.idle();
    expect(rx.requests[0].contentType).toBe('application/json');
    expect(rx.spans).toHaveLength(20);
    expect(rx.spans.find((s) => s.name === 'read_file')!.attributes['gen_ai.tool.call.result']).toBe('export function retry() { while (true) {} }');
  });
});
