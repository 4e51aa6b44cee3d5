import type { Row } from './report';

/**
 * What was tried for each target a run missed: BENCHMARKS.md must say that, not only that it was missed. Each note
 * says what was built (with what it bought), what was measured and not taken, and what is left, in a paragraph a
 * reader can take in; the whole account, step by step with every measurement, is docs/performance-history.md.
 */
const NOTES: readonly (readonly [RegExp, string])[] = [
  [
    /^backfill throughput/,
    'Backfill throughput (issue 19.1), from 7.9 MB/s (218 s, 7% of the ceiling) when the issue was filed. Built, with what ' +
      'each bought: the trigram index in a search file of its own, written by a second thread and caught up from the archive ' +
      'by an "indexed through" mark (a 256 MB corpus 24.1 → 16.9 s), and later the prompts\' trigram rows and their ' +
      'de-duplication on that thread too (the ingest thread 62.5 → 52.9 CPU s at 1.6 GiB under load); cheaper events indexes: ' +
      'ORs of equalities instead of IN lists, span lookups keyed by session first, only the calls slower than 5 s indexed by ' +
      'time and duration (the ingest thread 70.2 / 64.9 → 56.8 / 59.2 CPU s, alternated); fewer full collections in the ingest ' +
      'worker, each of which had V8 compile its hot functions again: a young generation of its own (105.0 / 103.2 → 85.6 / 89.6 s ' +
      'under load), a batch\'s lines held as numbers and --heap-growing-percent=20 at launch (72 forced collections a run → 1); ' +
      'archive pages of 16 KiB (89.3 → 82.9 s); FTS5 merging 16 segments a level (the search thread 49.3 → 36.9 CPU s) and a ' +
      'better hash of its pending terms, patched into SQLite at install (44.6 / 46.3 → 39.2 / 38.8 CPU s); deflate on the libuv ' +
      'pool, the write-ahead log\'s checkpoints on the search thread, the search thread at nice 10. Measured and not taken ' +
      '(within this host\'s spread, or at the cost of another target): a parse thread in front of the writer (the parsed lines ' +
      'cloned back cost more than parsing them), multi-row INSERTs, deflate on a thread of its own, every batch deflated on the ' +
      'pool while its lines are written (Node\'s async deflate costs the calling thread more than it moves), zlib level 1, a 64 MB writer ' +
      'page cache (+46 MB of peak RSS), archive pages of 32 and 64 KiB, FTS5 detail=none, columnsize=0 and other merge ' +
      'policies, two glibc arenas, --single-threaded-gc, SQLite built with profile-guided optimization (~4% of the CPU, for a ' +
      'second build and a training run at every install), foreign keys off, an earlier start of the ingest worker (~0.1 s). ' +
      'What is left: the two cores are 1.8–1.95 busy from the backfill\'s start to its end (per-thread CPU every 0.5 s), about ' +
      'half of it the ingest thread, whose work is spread over many costs (the largest, the events insert, about a fifth of it; ' +
      'then JSON.parse, the lines insert, deflate, the derived rows, the session refreshes), and half the search thread, most ' +
      'of it the trigram inserts (one cache miss a token). 25 MB/s is the middle of this host\'s spread for this code (24.84 to ' +
      '25.17 MB/s in the benches of 2026-12-07); 20% of the ceiling needs each thread\'s work per line cut by a third, which ' +
      'none of the changes measured came near. Every step: docs/performance-history.md, "Backfill throughput".',
  ],
  [
    /^peak RSS/,
    'Peak RSS (issue 19.3), from 479 MB at 1× and 337 MB at 0.25× (1.42×) when the issue was filed. Built: the log tree followed ' +
      'by one fs.watch per folder instead of chokidar, which stat\'ed and watched every file; the ingest worker collects whenever ' +
      'its old generation passes what survived plus its headroom, counting its line buffers, with a young generation of its own; ' +
      '--max-semi-space-size=4, --heap-growing-percent=20 and MALLOC_ARENA_MAX at launch (server/launch-flags.ts); the triage ' +
      'model\'s columns narrowed and paged to an unlinked file (67.5 → 6.4 MB resident at 1.6 GiB); span trees as packed columns; ' +
      '4 MB page caches for the read-only connections; the writer\'s per-session state and caches bounded; malloc_trim through ' +
      'our SQLite build; idle workers that collect and let their buffers go. Measured and not taken: a hard old-generation limit ' +
      'on the worker (one 60 MB line aborted the process), a 6 MB young generation (35% slower), MALLOC_MMAP_THRESHOLD_, the ' +
      'deflate thread (its isolate). What is left at the peak: ~56 MB of mapped files (node\'s and SQLite\'s code), four V8 ' +
      'isolates (~125 MB committed), glibc\'s arenas; single runs have read up to 305 MB beside medians of 292–298, so a ' +
      'median over 300 is within this host\'s spread. Every step: docs/performance-history.md, "Peak RSS".',
  ],
  [
    /^held-out corpus/,
    'Held-out corpus (issue 19, acceptance): a run is the server\'s start (~0.4 s until the backfill is planned), its backfill ' +
      '(~3.9 s) and ~0.15 s until /api/ready, against a JSON.parse pass of ~0.4 s over the same files. It gained what the ' +
      'backfill row gained (5.3% when the issue was filed; 10.8% at best, at 997e3d5) and two changes of its own: the ingest ' +
      'worker and the search thread load without zod and yaml (the backfill planned ~80 ms sooner) and /api/ready is polled ' +
      'every 50 ms instead of 250. Measured and not taken: SQLite with profile-guided optimization (user CPU 5.12–5.17 → ' +
      '4.71–5.04 s, wall 3.22–3.31 → 3.13–3.19 s), the deflate thread (within this host\'s spread), every batch deflated on ' +
      'the pool (slower). What is left: the ingest thread is the critical path from the plan to the end (the search thread ' +
      'finishes ~0.1 s after it; the ingest thread\'s profile: the events insert 1.38 s, JSON.parse 0.73, the lines insert ' +
      '0.59, the derived rows 0.55, the session refreshes 0.53, deflate ~0.5), and the Copilot CLI logs, a ninth of the ' +
      'bytes, take a fifth of the time (events of ~420 bytes: the per-event costs). 15.9% (~2.9 s including the start) needs ' +
      'the ingest thread\'s work cut by about a third, not more overlap. Every step: docs/performance-history.md, "Held-out corpus".',
  ],
  [
    /^time until every session of the newest 7 days/,
    'Newest week (issue 19.2): a backfill plans whole sessions newest first by last write and reads this week\'s logs before ' +
      'the roots\' tree watcher starts; the week counts every log the server reads, Copilot CLI sessions and usage files ' +
      'too. Its time is the ingest thread\'s rate on the week\'s bytes (a third of them Copilot CLI lines: 7.3 MB per CPU s ' +
      'against 12.5 for debug logs) under the first 90 s of query load; one host read 13.1–21.8 s for the same code within an ' +
      'hour, so the row is the median of five runs. Measured and not taken: the backfill\'s threads at nice 5 (a tenth ' +
      'slower under the load), the archive deflate on a thread of its own. Every step: docs/performance-history.md, "Newest week".',
  ],
  [
    /^(search: |triage: |sessions list|session spans|lineage of|queries during the backfill)/,
    'Query rows (issues 3, 5, 6, 19.4): each timed request says Cache-Control: no-cache, so a row times an answer computed on ' +
      'a warm server, not the response cache\'s reused one. Built: the event counts of a page\'s families kept per connection ' +
      'between commits, every FTS5 table merged into one segment once a backfill settles (the phrase 27.5 → 14.8 ms in process), ' +
      'partial indexes of the titles and paths beyond ASCII for 1–2 character CJK terms, the default slow list and its text ' +
      'searches from SQL\'s indexes alone, a commit\'s rows handed to the model as written, and first pages that ' +
      'read each backfill\'s ids newest first. A search\'s time is the FTS5 scan of its first matches, the event counts of its ' +
      'families and the titles and paths; during a backfill, the requests right after a commit are computed beside it on the ' +
      'same two cores. Every step: docs/performance-history.md, "Query rows".',
  ],
  [
    /^(\/api\/health while|\d+ concurrent mixed queries|\/api\/health during those bursts)/,
    'Concurrency (issues 14.6, 19.4): a long phrase is looked up by pieces and verified against the archived text; searches ' +
      'and span trees run in a read worker with its own connection; the other queries take turns on the event loop, quickest ' +
      'first; identical requests in flight are computed once and a 200 reused until the next commit; health reads its facts ' +
      'once per commit; answers cross from the worker as JSON bytes; the triage model warms in small steps. The server says ' +
      'its own share of each health request (Server-Timing, the row\'s "ratio" column): a few ms at p95 against tens of ms ' +
      'seen by the client, which waits for one of two cores that the backfill, the 200-query client and the server\'s threads ' +
      'keep busy. Measured and not taken: the backfill\'s threads at nice 5 (the backfill a tenth slower), the ingest thread ' +
      'yielding while 32 or more queries are in flight, a larger young generation for the main thread (over the peak RSS ' +
      'target). Every step: docs/performance-history.md, "Concurrency".',
  ],
];

/** The notes of the targets `rows` missed, in the order above. */
export function missNotes(rows: readonly Row[]): string[] {
  return NOTES.filter(([re]) => rows.some((r) => re.test(r.measurement) && r.met === false)).map(([, note]) => note);
}
