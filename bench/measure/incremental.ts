import fs from 'node:fs';
import http from 'node:http';
import { timedGet } from '../lib/http';
import { summarize, type Timing } from '../lib/stats';

/**
 * Puts files back as they were (size and mtime) once the server that read the appends has stopped: the corpus is
 * reused by the next run, whose manifest counts and "newest 7 days" (by mtime) must still describe it.
 */
export function snapshotFiles(files: string[]): () => void {
  const before = files.map((f) => ({ f, st: fs.statSync(f) }));
  return () => {
    for (const { f, st } of before) {
      fs.truncateSync(f, st.size);
      fs.utimesSync(f, st.atime, st.mtime);
    }
  };
}

/** Appends at Copilot's cadence (one flush every 4 s, one line per active session) and times write → visible. */
export async function measureAppendLatency(
  base: string,
  sessions: { id: string; file: string }[],
  rounds: number,
  flushEveryMs = 4000,
): Promise<{ api: Timing; sse: Timing; lines: number }> {
  const sseSeen = new Map<string, number>(); // session id → time of the latest `indexed` naming it
  const req = http.get(base + '/api/stream', { agent: false }, (res) => {
    res.setEncoding('utf8');
    let buf = '';
    res.on('data', (chunk: string) => {
      buf += chunk;
      let i: number;
      while ((i = buf.indexOf('\n\n')) !== -1) {
        const msg = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (!msg.startsWith('event: indexed')) continue;
        const data = /data: (.*)/.exec(msg)?.[1];
        if (!data) continue;
        const now = performance.now();
        for (const id of (JSON.parse(data) as { sessionIds: string[] }).sessionIds) sseSeen.set(id, now);
      }
    });
  });
  const apiMs: number[] = [];
  const sseMs: number[] = [];
  let lines = 0;
  try {
    await new Promise((r) => setTimeout(r, 500));
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      const pending = await Promise.all(
        sessions.map(async (s) => {
          const before = ((await timedGet(base, `/api/sessions/${encodeURIComponent(s.id)}`)).body as { eventCount: number }).eventCount;
          return { s, before };
        }),
      );
      const writtenAt = performance.now();
      for (const { s } of pending) {
        const line = { ts: Date.now(), dur: 12, sid: s.id, type: 'tool_call', name: 'read_file', spanId: `bench-${round}-${lines++}`, status: 'ok', attrs: { args: '{}', result: 'bench append' } };
        fs.appendFileSync(s.file, JSON.stringify(line) + '\n');
      }
      await Promise.all(
        pending.map(async ({ s, before }) => {
          for (;;) {
            const d = (await timedGet(base, `/api/sessions/${encodeURIComponent(s.id)}`)).body as { eventCount: number };
            if (d.eventCount > before) break;
            if (performance.now() - writtenAt > 30_000) throw new Error(`append to ${s.id} not visible after 30 s`);
            await new Promise((r) => setTimeout(r, 10));
          }
          apiMs.push(performance.now() - writtenAt);
          // The poll above can see the row before the stream's message arrives: wait for it (a sample is
          // only dropped when no `indexed` names the session within 5 s, which the count below would show).
          for (;;) {
            const seen = sseSeen.get(s.id);
            if (seen !== undefined && seen >= writtenAt) {
              sseMs.push(seen - writtenAt);
              break;
            }
            if (performance.now() - writtenAt > 5_000) break;
            await new Promise((r) => setTimeout(r, 5));
          }
        }),
      );
      const wait = flushEveryMs - (performance.now() - started);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  } finally {
    req.destroy();
  }
  return { api: summarize(apiMs), sse: summarize(sseMs), lines };
}
