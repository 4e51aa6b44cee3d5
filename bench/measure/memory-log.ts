import fs from 'node:fs';
import type { ThreadSample } from '../../server/memory/thread-memory';

const mb = (b: number) => `${Math.round(b / 2 ** 20)}`;

/** The samples of a memory log (server/memory/thread-memory.ts); a torn last line is skipped. */
export function readMemoryLog(file: string): ThreadSample[] {
  if (!fs.existsSync(file)) return [];
  const out: ThreadSample[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      out.push(JSON.parse(line) as ThreadSample);
    } catch {
      /* torn */
    }
  }
  return out;
}

/**
 * Where the memory was at `at` (the peak the RSS sampler saw): the main thread's sample nearest to it, with the
 * process's resident set by kind and its largest anonymous mappings, and each other thread's latest sample up to
 * then. One line of text, in MB, for the bench's notes and the CONTRIBUTING memory paragraph.
 */
export function memoryAt(samples: ThreadSample[], at: number): string | null {
  const mains = samples.filter((s) => s.thread === 'main' && s.process);
  if (mains.length === 0) return null;
  const main = mains.reduce((best, s) => (Math.abs(s.at - at) < Math.abs(best.at - at) ? s : best));
  const threads = new Map<string, ThreadSample>();
  for (const s of samples) if (s.at <= main.at + 250 && (threads.get(s.thread)?.at ?? -Infinity) < s.at) threads.set(s.thread, s);
  const p = main.process!;
  const parts = [`RSS ${mb(p.rss)} (anonymous ${mb(p.rssAnon)}, file ${mb(p.rssFile)})`];
  for (const [name, s] of [...threads].sort(([a], [b]) => a.localeCompare(b))) {
    const holds = Object.entries(s.holds)
      .filter(([, v]) => v > 0)
      .map(([k, v]) => (k.endsWith('Events') ? `${k} ${v}` : `${k} ${mb(v)}`));
    parts.push(
      `${name}: heap ${mb(s.heap.usedHeapSize)} used of ${mb(s.heap.totalHeapSize)}${s.heap.youngSize === undefined ? '' : ` (young ${mb(s.heap.youngSize)})`}, array buffers ${mb(s.usage.arrayBuffers)}, external ${mb(s.usage.external)}, malloced ${mb(s.heap.mallocedMemory)}` +
        (holds.length ? ` (${holds.join(', ')})` : ''),
    );
  }
  if (p.mappings === false) return parts.join('; ');
  const largest = p.anonLargest.map((a) => `${Math.round(a.kb / 1024)}/${Math.round(a.sizeKb / 1024)}`).join(' ');
  parts.push(`anonymous mappings (resident/size): ${largest}, ${p.anonCount - p.anonLargest.length} more ${Math.round(p.anonRestKb / 1024)}`);
  return parts.join('; ');
}
