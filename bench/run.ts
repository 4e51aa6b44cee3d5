// `npm run bench`: generate or reuse a seeded corpus, measure ingest, queries, live latency, idle CPU and the
// browser against the built server, each beside a baseline run in this same process, and rewrite BENCHMARKS.md.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { removeDatabaseFiles } from '../server/db/open';
import { GENERATOR_VERSION, generateCorpus, type CorpusManifest } from '../server/corpus/generate';
import { parseSize } from '../server/corpus/size';
import { hasCommand, timedCommand } from './lib/command';
import { COMPUTED, timedGet, waitFor } from './lib/http';
import { machineFacts } from './lib/machine';
import { rssSampler, treeCpuSeconds } from './lib/process-tree';
import { diskPeakSampler, indexBytesOnDisk } from './lib/disk-use';
import { median, round, summarize } from './lib/stats';
import { backfillPeakRss } from './measure/backfill-rss';
import { memoryAt, readMemoryLog } from './measure/memory-log';
import { BURST, burstsDuring, healthAlone, healthDuringLongSearches, longPhraseQuery } from './measure/concurrency';
import { measureAppendLatency, snapshotFiles } from './measure/incremental';
import { ftsCeiling } from './measure/fts-ceiling';
import { jsonParseCeiling } from './measure/json-parse-ceiling';
import { newestWeekProbe, type NewestWeekProbe } from './measure/newest-week';
import { HELD_OUT_FILED_RATIO, heldOutRatio } from './measure/held-out';
import { STARTUP_TRACE_PREFIX } from '../server/ingest/startup-trace';
import { queryClasses, type QueryClass } from './measure/query-classes';
import { awaitBackfill, startServerProcess } from './measure/server-process';
import { readIntoPageCache } from './lib/page-cache';
import { corpusRoots } from '../server/corpus/corpus-roots';
import { steadyRss } from './measure/steady-rss';
import { countOf, fmtMs, queryRowMet, queryRowTarget, renderReport, type Row } from './report';

const { values } = parseArgs({
  options: {
    // 1.6 GiB: the generator writes about 1.9 M events a GiB, and the issue asks for at least 3 M.
    size: { type: 'string', default: '1.6g' },
    seed: { type: 'string', default: '42' },
    out: { type: 'string', default: 'BENCHMARKS.md' },
    port: { type: 'string', default: '7391' },
    runs: { type: 'string', default: '30' },
    'skip-browser': { type: 'boolean', default: false },
    'skip-live': { type: 'boolean', default: false },
    cache: { type: 'string', default: '.cache/bench' },
    // `--only memory`: the backfill with its peak RSS at 1× and 0.25×, the steady-state RSS and the query
    // rows (no ceilings, baselines, concurrency, live or browser rows): minutes instead of a quarter hour.
    // `--only concurrency`: just the concurrency rows, on the cached database when it exists (backfilled once
    // otherwise): a before/after of a scheduling change in minutes instead of the whole run.
    // `--only newest`: just the first-searchable and newest-week rows, with the ingest's start-up timeline.
    only: { type: 'string' },
    // An existing corpus (never generated into: it may be another checkout's) and a database path, instead of
    // the ones under --cache: `--corpus ../main/.cache/bench/corpus-1.6g-seed42 --db /tmp/x.db`.
    corpus: { type: 'string' },
    db: { type: 'string' },
  },
});
if (values.only !== undefined && !['memory', 'concurrency', 'newest'].includes(values.only)) throw new Error(`--only takes "memory", "concurrency" or "newest", got "${values.only}"`);
const memoryOnly = values.only === 'memory';

const UNDER_LOAD_MS = 90_000;

const log = (m: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const startedAt = performance.now();
const rows: Row[] = [];
const notes: string[] = [];
const size = parseSize(values.size as string);
const seed = Number(values.seed);
const runs = Number(values.runs);
const corpusDir = path.resolve(values.corpus ?? path.join(values.cache as string, `corpus-${values.size}-seed${seed}`));
const dbPath = path.resolve(values.db ?? path.join(values.cache as string, `bench-${values.size}.db`));

async function ensureCorpus(dir = corpusDir, bytes = size, corpusSeed = seed): Promise<CorpusManifest> {
  const manifestFile = path.join(dir, 'manifest.json');
  const cached = fs.existsSync(manifestFile) ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as CorpusManifest) : null;
  if (cached?.generatorVersion === GENERATOR_VERSION) {
    log(`reusing the corpus in ${dir}`);
    return cached;
  }
  if (cached) log(`the corpus in ${dir} is from generator version ${cached.generatorVersion ?? 1}, not ${GENERATOR_VERSION}`);
  if (values.corpus !== undefined && dir === corpusDir) throw new Error(`--corpus ${dir} holds no corpus of generator version ${GENERATOR_VERSION}: it is read, never written`);
  log(`generating a ${round(bytes / 2 ** 20, 0)} MiB corpus (seed ${corpusSeed}) in ${dir}`);
  fs.rmSync(dir, { recursive: true, force: true });
  const m = await generateCorpus({ outDir: dir, seed: corpusSeed, targetBytes: bytes });
  fs.writeFileSync(manifestFile, JSON.stringify(m));
  return m;
}

/** What was tried for each target this run missed (BENCHMARKS.md must say, not only that it was missed). */
function missNotes(rows: Row[]): string[] {
  const tried: [RegExp, string][] = [
    [
      /^backfill throughput/,
      'Backfill throughput (issue 19.1): built: the trigram index (event_text, event_cjk) in a search file of its own, written by a thread ' +
        'beside the ingest (server/search-index/: rows posted as they are written, committed after the archive\'s group with an ' +
        '"indexed through" mark, caught up from the archive after a crash or a lost file); processLine building one object shape (a 256 MB ' +
        'backfill 21.5 → 18.8 CPU s in one thread); before that: plain INSERTs, grouped 5 s commits with a 16 MB FTS5 hash, the ' +
        'files(session_id) index, no statement journals on the write path (the companion upsert). A 256 MB corpus through the server on an ' +
        'idle machine: 24.1 s before the search thread, 16.9 s after. What is left: the ingest thread is the bottleneck. Its profile ' +
        '(256 MB, the server, idle machine): 17.6 s busy against the search thread\'s 8.3 s; of the 17.6 s, the events, lines, prompt, ' +
        'turn and file inserts and the per-session refresh ~8 s, line parsing and text extraction ~2.5 s, garbage collection 1.7 s ' +
        '(the heap watch\'s full collections, kept for peak RSS), deflate 1.0 s, COMMIT 0.8 s. 25 MB/s needs about a third of that ' +
        'moved to the other core or removed. Then (this stop, per-statement timers and V8 profiles of the ingest worker): the CLI ' +
        'index events_cli_spans had a four-value IN list as its condition, which SQLite evaluates through a temporary table built at ' +
        'every events INSERT (~1 µs an event, a sixth of all events indexes together, measured by re-inserting the 415k events of a ' +
        '256 MB backfill: 0.84 s bare, +0.42 s for that index alone, +0.00 as an OR of equalities) and which no lookup used (a type ' +
        'equality does not imply an IN list: every CLI line read its session\'s whole index): now ORs (SCHEMA_VERSION 18); deflate on ' +
        'the libuv pool while the same batch is parsed (archive-chunks.ts: ~0.9 CPU s per 256 MB off the ingest thread, the pool ' +
        'threads show it); the session refresh in one pass over its events instead of three (within noise). Ingest thread CPU, ' +
        'medians on a machine at load 6–10 (wall times there are not comparable): 256 MB (VS Code only) 12.4 → 11.8 s, the ' +
        'held-out 107 MB (with CLI) 6.2 → 5.3–5.6 s; the search thread 5.2–5.7 and 2.6–2.8 s, unchanged. The 1.6 GiB corpus (one ' +
        'run each, load 7–9): ingest thread 111.6 → 105.2 CPU s, search thread 56.7 → 57.4, the whole process 200 → 205 (zlib\'s ' +
        'async deflate is a stream and a threadpool round trip per chunk, ~2.8× the synchronous CPU on 64 KB of log; one pool job ' +
        'per batch is the next step there; V8\'s four GC helper threads ~30 s). The ingest thread ' +
        'alone bounds the backfill at ~16 MB/s on an idle machine, the process\'s CPU on two cores at ~17: still the bottleneck. ' +
        'Next: the search text extraction and its clone (valueStrings, postMessage: ~1.5 s ' +
        'of ~11 per 256 MB) done by the search thread from the archived line, as its catch-up does, which also needs a parse there; ' +
        'then parsing ahead in a thread of its own. Then (profiles of the whole 1.6 GiB run; each index timed by re-inserting 300,000 ' +
        'events into the finished archive): events_link_span keyed by span id first (1.8 µs an event: now (session_num, span_id) for ' +
        'tool calls and (span_id) for child refs, 0.13 µs) and an IN list of two types (0.75 µs: now an OR, 0.01; SCHEMA_VERSION 19); ' +
        'the lineage\'s start lines by index; session_text rewritten only when its text changed; archive checkpoints on the search ' +
        'thread instead of the writer\'s COMMIT (~8 → ~3 s of the ingest thread); each line parsed only as it is written and the next ' +
        'batch read ahead (V8\'s GC helper threads ~44 → ~22 CPU s); cheaper text tests and one-shot hashes. Old and new code back to ' +
        'back on a slow host: 207.5 → 167.4 s, ingest thread 163.7 → 131.3 CPU s, process 309 → 246. Left: the events insert, ' +
        'the first refresh of each session (~1.1 ms), the prompt trigram inserts, parse; the second core is nearly as full. Tried and dropped earlier: a ' +
        '64 MB page cache, a 256 MB autocheckpoint, dropping the events_ts/events_dur indexes (within noise); FTS5 detail=none, ' +
        'automerge 0 (less CPU on the search thread, which is not the bottleneck). Then (a CPU profile of `index` on the held-out ' +
        'corpus: the ingest thread 94% busy, the search thread 45% idle): the prompt FTS tables (prompt_text, prompt_cjk) moved to the ' +
        'search file and thread (SCHEMA_VERSION 21; its catch-up finds a prompt_docs row from its event\'s line by hash, and refills every ' +
        'prompt row when the archive renumbers prompt_docs); `index` of the held-out corpus, old and new alternating, 5 pairs on a ' +
        'noisy machine: median 7.87 → 7.25 s (new faster in 4 of 5 pairs). Tried and taken out: the search thread niced (10) once ' +
        'this week is searchable (CFS splits a core evenly between it and the ingest thread, the critical path): held-out through ' +
        '`serve`, alternating pairs, 9.63 → 8.90 s (4 pairs; niced from the start 9.94 → 9.24 s, 5 pairs), but /api/health during ' +
        'the 200-query bursts p95 32.6–50.6 ms (median 35.9, 5 runs) → 34.3–63.3 ms (median ~47, 6 runs): the faster ingest left the ' +
        'main thread more to do per second on the shared core. The health target is kept. Then (profiles of the whole ' +
        'process with perf, per thread, and V8\'s per thread; docs/CONTRIBUTING.md has the numbers): the search thread\'s FTS5 ' +
        'merges were 40% of its work (16 segments a level instead of 4: its replayed rows 49.3 → 36.9 CPU s); V8\'s helper threads ' +
        'spent 12.9 of their 21 CPU s compiling the ingest\'s hot functions again after each forced full collection (each kills the ' +
        'hidden classes of objects no line holds, and V8 drops the code that named them): the batch ring took line and chunk buffers ' +
        'off the heap watch\'s count, and its headroom follows the process\'s RSS (96 MB well under a 256 MB budget, 16 MB near it); ' +
        'the archive is made with 16 KiB pages (89.3 → 82.9 s); workspace.yaml read without the YAML parser. Without query load the ' +
        '1.6 GiB backfill now takes 75–82 s (21–23 MB/s, 104.8 s before on the same host). Under this row\'s load it takes 15–20 s ' +
        'longer: the main thread\'s triage syncs and the read worker\'s searches take turns with the ingest thread for the two cores, ' +
        'and the process sits near its RSS budget. Left: the events insert (~19 s, its indexes are the query rows\') and processLine ' +
        '(~11 s) on the ingest thread; one of them must leave it (a parse thread, or text extraction on the search thread) for 25 MB/s. ' +
        'Then (docs/CONTRIBUTING.md, "The ingest worker\'s young generation"): under this row\'s load V8\'s helper threads spent ~10 of ' +
        'their 17 CPU s recompiling the ingest\'s hot functions after the heap watch\'s full collections, which came so often because ' +
        'the launch flag --max-semi-space-size=4 (for the main thread) also set the ingest worker\'s young generation: 303 MB promoted for ' +
        'the 430 MB quarter corpus. The ingest worker now gets its own 24 MB (server/memory/young-generation.ts: 149 MB promoted), the ' +
        'heap watch counts the old generation only, and the last SHA-1 digest is kept alive (its C++-made Buffer\'s map died at each ' +
        'collection, and four hot functions\' code with it). Old and new code alternated on one host under this load: 105.0 / 103.2 → ' +
        '85.6 / 89.6 s (163 → 136–141 CPU s); 16 MB semi-spaces were no clearly faster for 10–15 MB more peak RSS. Left as before: ' +
        'the events insert and processLine on the ingest thread, and this load\'s own ~25 CPU s on the two cores. ' +
        'Then (docs/CONTRIBUTING.md, "Under the query load"): the ingest thread spends ~10 CPU s more under this load than without it ' +
        '(67 → 77 s at 1.6 GiB; 14.9 → 16.0 s at 0.25×), spread evenly over every function of its profile, not one cost; its ' +
        'collections are as many (19 against 15 full ones at 0.25×); a busy-loop process beside a backfill slowed its wall time, not its ' +
        'CPU. Two glibc arenas instead of one took the ingest and search threads\' voluntary context switches from 8–16 k and 12–26 k ' +
        'to ~3 k each (0.25×, no load: 18.8 → 18.1 s, medians of 3) but under this load at 1× 94.3 / 89.8 s against 95.4 / 87.7 s: not ' +
        'taken. Found and fixed on the way: under this load the archive\'s write-ahead log grew to ~1 GB before it restarted (a query ' +
        'still reading it when each group began); the row "index on disk at its largest" shows it now (LogRestart, ' +
        'server/db/write-ahead-log.ts: 1026 / 1005 → 375 / 311 MB, the backfill 99.6 / 83.2 against 99.6 / 87.6 s). And the search ' +
        'thread\'s largest cost was FTS5\'s own hash of pending terms, whose chains averaged 5.5 entries a trigram: SQLite is rebuilt at ' +
        'install with a better hash (scripts/patch-sqlite.mjs; README): under this load, alternated, search thread 44.6 / 46.3 → 39.2 / 38.8 ' +
        'CPU s, the backfill 92.6 / 90.3 → 87.2 / 87.4 s. Still missing ~15 s: the ingest thread alone is ~72 CPU s under this load. ' +
        'Then (the stop after): a parse thread in front of the writer, measured before building it, loses in its obvious form (the ' +
        'parsed lines cloned back cost more than parsing them; held-out note, docs/CONTRIBUTING.md); the events indexes are 1.84 of ' +
        'the 3.82 µs an events insert costs, each needed by a query; zlib level 1 and --retain-maps-for-n-gc=1000 changed nothing ' +
        'measurable. Then (docs/CONTRIBUTING.md, "What grows with the archive"): per MB of logs the ingest thread costs more at 1.6 GiB ' +
        'than at 0.25× (V8 profiles of both, no load: 45 → 58 ms/MB with the profiler on), mostly the events insert into larger ' +
        'indexes (writeEvent\'s own time 9.2 → 14.1 ms/MB), GC (2.2 → 4.3) and refreshes (4.3 → 6.1). Measured and not taken: a 64 MB ' +
        'writer page cache (ingest thread 74.2 → 69.8 CPU s, wall 85.5 → 83.7 s, +46 MB peak RSS against the 300 MB target); 32 and ' +
        '64 KiB archive pages (within noise); moving event text off the ingest thread (its upper bound, every non-message event\'s text ' +
        'skipped: ingest thread 14.5–15.2 → 14.4–14.9 CPU s at 0.25×, ~2%). Then (the stop after): the archive\'s chunks deflated on a ' +
        'thread of their own, handed over through shared memory as each batch is read and taken after its lines and events are written ' +
        '(the first batch of each file is deflated on the ingest thread, ~5% of it, the rest round-trip through the libuv pool, ~2%): ' +
        'built, then taken out (docs/CONTRIBUTING.md, "The archive\'s deflate on a thread of its own"): 0.25× without load, ingest / ' +
        'search thread CPU 1.77 → 1.65, but three whole benches with it read 91, 86 and 89.2 s here (the gain within this host\'s ' +
        'spread) and its isolate put the backfill\'s peak RSS at 293, 284 and 301 MB. Kept: the backfill is reported done before its ' +
        'write-ahead log is folded (357 ms at the end of the 0.25× backfill). Measured and not taken: the search thread at nice 10 (the ' +
        'ingest thread\'s time runnable but waiting for a core 16.0–18.6 → 12.6–14.9 s at 1.6 GiB under load, the wall time within ' +
        'this host\'s spread, +8 MB peak RSS). Then (the stop after, docs/CONTRIBUTING.md, "The slow indexes"): re-inserting events ' +
        'into finished archives priced the indexes of every event by duration (events_dur: 0.8 µs an event at 0.25×, 1.7 at 1×), by ' +
        'time (events_ts: 0.5 and 1.0) and of every model call by TTFT (events_ttft: ~0.6 at 1×), each insert landing on a random ' +
        'page of a B-tree as large as the corpus: now only the calls slower than 5 s are indexed by duration and time, usage\'s ' +
        'requests have a small index of their own, and a lower threshold or the TTFT sort is a pass over the triage model ' +
        '(SCHEMA_VERSION 22). 1.6 GiB under load, alternated: ingest thread 70.2 / 64.9 → 56.8 / 59.2 CPU s, wall 92.7 / 83.3 → ' +
        '75.9 / 80.0 s. And a session\'s refresh reads the sums its writer kept instead of its events (session-totals.ts; ingest / ' +
        'search thread CPU 1.73 → 1.70 at 0.25×, 3 pairs; and kept for the sessions the writer\'s cache dropped before their refresh, most ' +
        'of a commit group\'s: the refresh\'s own time at 0.25× 1,171 → 665 profile ticks); search rows posted to the search thread as one ' +
        'string per column (the post 3.8 → 2.1% of the ingest thread). And the search thread now runs at nice 10 (server/search-index/' +
        'thread-priority.ts: with the bench\'s load, 1.6 GiB, alternated: 68.3 / 72.2 → 66.3 / 71.3 s, the ingest thread\'s wait for ' +
        'a core 9.4 / 10.2 → 5.5 / 6.2 s; /api/health p95 in 100 bursts 29.0 / 46.2 → 34.7 / 28.8 ms). Then (the stop after, ' +
        'docs/CONTRIBUTING.md, "Where the ingest thread waits"): under this row\'s load the ingest thread waits ~5 s for room under ' +
        'the search thread\'s in-flight bound and ~3 s for read-ahead deflates, but taking a wait away grew its CPU seconds by about ' +
        'as much; measured and not taken: an 8 M-character bound (67.3 s against 71.9, peak RSS 322 MB), search rows as UTF-8 ' +
        '(waits for room 4.0–4.5 → 1.2–1.5 s, wall no better), the first batch\'s deflate not awaited (ingest thread −4% at 0.25×, ' +
        'wall no better), 16-row INSERTs (the B-trees cost, not the statements), FTS5 automerge 64 (search thread −5%). Then (the ' +
        'stop after, docs/CONTRIBUTING.md, "Start-up, cold logs"): the row now ends when search has caught up too (/api/ready ' +
        'waits for it); this host pages out files untouched for a minute, so the corpus is partly cold at each run (as found ' +
        'against freshly read: 79.2 / 74.8 → 74.8 / 70.1 s), but reading the next files ahead on the pool did not win it back ' +
        '(a cold read costs CPU, not waiting); --single-threaded-gc was ~4 s faster in two pairs but put peak RSS at 302–305 MB. ' +
        'Then (the stop after, docs/CONTRIBUTING.md, "What the ingest worker promotes"): a batch\'s lines held as numbers and the ' +
        'session\'s known strings as 53-bit keys (promoted at 0.25× 175 → 81–85 MB) and --heap-growing-percent=20 at launch (the heap ' +
        'watch\'s forced collections 72–73 → 1 a run): 25.7 MB/s in the bench at 997e3d5 on that host. Then (the stop after, on a ' +
        'new host of the same kind, docs/CONTRIBUTING.md, "A new host"): the same code read 69.7 / 74.3 / 75.5 s here (23.1 MB/s, ' +
        'the JSON.parse ceiling within 1.4% of the other host\'s) and the CPU a MB of one backfill moved by up to ±10% within the ' +
        'hour; the search rows\' in-flight bound at 4 M characters (the ingest thread running 84.4% of the wall instead of 80.7%, three ' +
        'alternated rounds under this load, peak RSS 268–278 against 270–272 MB). Measured and not taken there: groups of 160 MB, the ' +
        'search thread at nice 19, every batch deflated on the ingest thread (each within this host\'s spread). The events insert ' +
        'replayed alone into an empty table with its indexes costs 2.55 µs a row from the first row to the 3.2 millionth (the ' +
        'backfill\'s profile: ~4.1): the indexes do not grow dearer with the archive. 25 MB/s here needs ~8% less of the ingest ' +
        'thread\'s work; the 20% share, about half of it (the designs are in docs/CONTRIBUTING.md, none built). Then (the stop ' +
        'after, docs/CONTRIBUTING.md, "What is left of the ingest thread\'s work"): promptStrings without its Set and a line\'s parsed ' +
        'JSON kept for its own derivations (~1.7% of the ingest thread\'s profile at 0.25×, too little for this host\'s walls to show); ' +
        'measured and not taken: writeBatch in three passes, --single-threaded-gc again (its peak RSS fits now, the backfill was ' +
        'slower), FTS5\'s hash at 2 MB, the read-ahead batches deflated on the ingest thread again. The search thread\'s trigram ' +
        'inserts cost one cache miss a token. Then (the stop after, on another new host whose JSON.parse ceiling reads ~200 MB/s; ' +
        'docs/CONTRIBUTING.md, "The prompts on the search thread"): a model call\'s prompt is handed to the search thread as ' +
        'written, which walks it and decides which strings its session has not indexed yet (server/search-index/session-prompts.ts; ' +
        'prompt_docs moved to the search file, SEARCH_VERSION 19, SCHEMA_VERSION 23). memory-probe under this row\'s load, ' +
        'alternated: ingest thread 62.5 → 52.9 CPU s, search thread 39.3 → 44.1, the backfill 75.4 → 70.0 s; the ingest then ' +
        'waited ~10 s for the search thread, and the rows in flight went from 4 to 6 M characters (four alternated rounds: 69.9 → ' +
        '67.9 s on average, peak RSS +~4 MB). The three runs of this row are now within 2 s of the 68.7 s that 25 MB/s needs; the ' +
        '20% share (~49 s) is not within reach of this design: the two cores are ~1.65 busy and the ingest thread alone is ~52 CPU s. ' +
        'Then (the stop after, docs/CONTRIBUTING.md, "What the two cores do during a backfill"): per-thread CPU every 0.5 s of a 0.25× ' +
        'backfill read 1.8–1.95 cores busy from start to end (89% of two cores over the run): the targets need less work, not more ' +
        'overlap. Measured and not taken: FTS5 columnsize=0 on the search file (its thread 15.2 / 15.8 / 16.5 → 15.7 / 15.4 / 16.0 CPU s ' +
        'alternated); not built: skipping the prompt messages a call repeats from the one before (~1.7% of the process). Then (the ' +
        'stop after, on another new host, nothing tried for this row): per thread, /proc, the 1.6 GiB corpus without load 100.1 s wall ' +
        '(ingest thread 83.1 CPU s, search thread 68.8); memory-probe with this row\'s load 104.9 s, 178 CPU s (ingest 84.0, running ' +
        '80% of the wall, waiting for a core 9.5 s, blocked 11.3 s; search 71.3; main 6.8; read worker 4.3). Under that load both threads cost ' +
        '~1.6× the CPU seconds they did on the host of the prompts\' stop above (52.9 / 44.1), whose JSON.parse ceiling read ~200 MB/s against ' +
        '~165 here (113 in the last stop\'s bench, whose backfill took 105.4 s as here): even ' +
        'with the two cores overlapped perfectly (155 CPU s / 2 = 78 s) 25 MB/s (68.7 s) needs an eighth of the work gone here. ' +
        'Then (the stop after, docs/CONTRIBUTING.md, "SQLite built with profile-guided optimization"): `--cpu-prof` of `index` at 0.25× ' +
        'put both threads busy for the whole wall (ingest 15.8 s: the events insert 2.6, JSON.parse 1.4, the lines insert 1.2; search ' +
        '15.5 s: the trigram inserts 8.1); SQLite built with GCC\'s profile-guided optimization (trained on a 40 MB corpus of another ' +
        'seed) saved ~4% of the process\'s CPU on the held-out corpus (4 alternated pairs): not taken for a second build and a training ' +
        'run in every install. 20% of the ceiling still needs each thread\'s work per line cut by a third.',
    ],
    [
      /^peak RSS/,
      'Peak RSS: found and fixed this run: chokidar stat\'ed and watched every file (77 MB of heap for the 19,131 files of this ' +
        'corpus, 128 MB at its peak): files are now followed by one fs.watch per log folder; and the ingest worker\'s heap grew to ' +
        '~120 MB of parse garbage (it keeps < 15 MB): it now collects after every 32 MB backfilled, with a 24 MB young generation. ' +
        'Before them this file said 672 MB at 1× and 468 MB at 0.25× (1.44× for 4× the logs). ' +
        'Tried and dropped: a hard old-generation limit on the worker (64 MB: 306 MB at 0.25×, but one 60 MB line made V8 abort the ' +
        'whole process, not the worker), a 6 MB young generation (35% slower), a fixed main-thread semi-space (no change). What is ' +
        'left, from /proc/PID/smaps at 0.25×: 43 MB of node binary, ~50 MB main malloc arena (read connection), ~63 MB worker ' +
        'arena (16 MB page cache, 16 MB FTS5 hash, statements, line buffers), ~135–170 MB of V8 heaps and typed arrays. ' +
        'Then (issue 19.3): the triage model\'s columns narrowed to what their values need (float32 while exact, 1–2 byte ' +
        'indexes; 17.0 → 11.4 MB at 256 MB, 69.7 MB at 1.6 GB), the session directory and span-tree caches bounded, a collection ' +
        'and shrink_memory when the backfill ends, a 16 MB young generation for the read worker, a 1 MB cache for quick_check. ' +
        'What is left at 1.6 GB after the query rows (process.memoryUsage per thread): the read worker\'s span tree of the ' +
        'largest session (254k events: 124 MB of live heap, +224 MB RSS when built), the triage model (70 MB, linear in the ' +
        'corpus: a bound needs it on disk or paged, not done), three V8 heaps of 40–70 MB, ~200 MB of native memory (page caches ' +
        'of 16 MB per connection, the FTS5 hash, glibc arenas that keep what they freed). Since then: span trees as packed ' +
        'columns (a 265k-event family 107.9 → 32.7 MB of heap and array buffers) and a 4 MB page cache for the read-only ' +
        'connections (main, read worker, forwarder; the writer keeps 16 MB). This stop (issue 19.3): the triage model\'s ' +
        'columns paged to an unlinked temporary file (67.5 → 6.4 MB resident at 1.6 GB; uncached passes 10–60% slower, cached rows ' +
        'unchanged); the ingest worker collects whenever its heap passes what survived plus 32 MB (it had grown to 237 MB between ' +
        'the collections once per commit group: 1× peak 599 → 415 MB in the engineer\'s runs, 0.25× 318 → 300); the triage model ' +
        're-reads only the sessions a commit changed. Why 1× still grows: what survives in the ingest worker grows with the folders ' +
        'of the corpus (27 MB at 0.25×, 61–75 MB at 1×: chokidar\'s folder tree, the per-folder watchers and the backfill plan of ' +
        '4,221 folders and 15,597 files), V8 keeps more heap committed than it uses, and the search thread adds an isolate, its page ' +
        'cache and the FTS5 hash. MALLOC_ARENA_MAX=2 saved ~20 MB (within noise) and is not set. The memory notes above say where ' +
        'the memory was at each peak (CHRONOSCOPE_MEMORY_LOG). Then (heap snapshots of the ingest worker, bench/measure/memory-probe.ts): ' +
        'of the 62 MB it kept at the end of the 1× backfill, the store\'s turn state of every session ever written (15.9 MB) and the CLI ' +
        'linker\'s memory of every CLI session (1.7 MB) are now bounded to the 256 most recent sessions, and the backfill\'s listing and plan ' +
        '(5.9 MB at 900 MB) are no longer held to its end; batches of 512 KB instead of 1 MB promote less (256 MB corpus: ' +
        'peak 311–339 → 300–307 MB, no more CPU; the stop-mid-batch bug they exposed is fixed); each line parsed only as it is ' +
        'written (a batch\'s parsed entries no longer survive scavenges); one reused read buffer. What is left: ~20 MB of code and modules and what grows with the ' +
        'folders followed (chokidar\'s tree and the per-folder watchers, ~6 MB) in the ingest worker, its heap watch\'s 32 MB of headroom ' +
        'and 16 MB young generation; the main thread\'s 32 MB young generation (V8\'s default, settable only on node\'s command line; ' +
        'capping it at run time through --semi-space-growth-factor did not hold); glibc arenas that keep what they freed (at the 1× peak ' +
        '126 MB from the system, 77 MB in use). Tried and dropped: the writer\'s page cache at 8 MB (within noise), the store\'s known ' +
        'strings capped at 4 M characters instead of 16 M (what survived at the 1× peak did not fall). At the 1× peak the ingest worker ' +
        'still keeps 53–65 MB after a collection under the query load (48 MB in a snapshot at 900 MB without it, 24 MB at 0.25×): not ' +
        'yet explained; and five glibc arenas of 20–64 MB (164 MB together) hold what the threads freed. Found since: the 0.25× run had ' +
        'had no query load at all (awaitBackfill made each request inside `onLoad?.(…)`, skipped without an onLoad; fixed, with a test): its ' +
        'peak had no read worker and no triage model, so the 1.44× of the runs before compared unlike runs; with the load, `--only memory` ' +
        'read 451 MB at 1× and 391 MB at 0.25× (1.15×). What keeps even the 0.25× run far above 300 MB is the isolates under query load ' +
        '(main, ingest, search, read: ~200 MB of V8 heaps committed, about half of it in use) and their glibc arenas; without query load ' +
        'the 1× backfill peaks at ~330 MB. Tried this stop and dropped: a 48 MB ingest young generation (no CPU change), the known ' +
        'strings at 4 M characters again (330 → 333 MB). Then (the memory log): the ingest worker\'s array buffers (every ' +
        'line\'s bytes) swung between 2 and 54 MB between collections, uncounted by its heap watch: it now counts them, read ' +
        'from the allocator (V8\'s external_memory is brought up to date only by the next collection), and takes what ' +
        'survived at the check after a collection, once the sweeper has freed them (`--only memory`, two rounds alternating ' +
        'with the code before: 1× 449 / 442 → 410 / 422 MB, 0.25× 397 / 378 → 354 / 363 MB; the backfill 138 / 122 → 149 / 164 s ' +
        'at 1× but 42 / 37 → 30 / 28 s at 0.25×, within this host\'s spread). Then (heap snapshots of the ingest worker at the 1× ' +
        'peak: 63k promises, 14.6k stat requests, 29k stat arrays, 53k path strings, 785 readdirp streams): the 53–65 MB "not yet ' +
        'explained" was chokidar\'s start-up walk of the folder tree, which watched all 3,712 folders of the tree, the session folders ' +
        'among them (FolderWatch watched those already), and stat\'ed the tree\'s entries all at once, then kept ~19 MB. The tree is now followed by ' +
        'server/ingest/tree-watch.ts, one fs.watch per folder above the logs folders (45 on this corpus), and chokidar is gone ' +
        '(`memory-probe.ts --load`, 1.6 GiB, alternated: peak RSS 403 / 400 → 378 / 382 MB; the ingest worker\'s heap at the peak ' +
        '112 / 101 → 56 / 57 MB, what survived a collection 73 / 49 → 28 / 30 MB). Then the two settings only the process\'s ' +
        'start can take, in server/launch-flags.ts and every launcher (bin/chronoscope.js, npm start, this bench\'s server): ' +
        '`--max-semi-space-size=4` (the main thread\'s young generation 32 → 8 MB, which the "fixed main-thread semi-space" ' +
        'tried before had not reached: it was set at run time) and `MALLOC_ARENA_MAX` (glibc\'s arena per busy thread keeps ' +
        'what that thread freed), and the ingest heap watch\'s headroom 32 → 16 MB. `memory-probe.ts --load`, 1.6 GiB, alternated ' +
        'rounds: neither 353 / 398 MB; the flag 345 / 329; the flag and two arenas 318 / 303, again 315 / 309; with the 16 MB ' +
        'headroom 304 / 303; with one arena 310 / 302; all three 288 MB (idle after 270, under load 261). CPU per MB within the ' +
        'host\'s spread (165–186 ms/MB across the variants, the last run the highest). Then (the row after the backfill, under ' +
        'the query rows\' load): one class set it, the span tree of the largest family (254k events, +138 MB of RSS on its first ' +
        'request; every other class ≤ 8 MB). Its load\'s chunks left large objects that only a full collection frees, and its three ' +
        'owner maps held ~40 MB more: the read worker now collects between the chunks and after such a build, and the maps are typed ' +
        'arrays (docs/CONTRIBUTING.md, "Memory after the backfill"): the build\'s RSS +185 → +115 MB, this row on a finished archive ' +
        '446 / 410 → 340 / 341 MB alternated. What is left over 300 MB there: the tree itself (~28 MB of columns, kept for the next ' +
        'window), the build\'s transient typed arrays, and glibc\'s arena, which keeps what the threads freed. ' +
        'MALLOC_MMAP_THRESHOLD_=131072 at launch was tried for that arena and taken out (docs/CONTRIBUTING.md: 10–30 MB less under ' +
        'load in alternated probes, 7–12 MB more idle, and three whole benches could not tell it apart: 352 MB with it, 332 and 353 without). ' +
        'Since the FTS5 merge after a backfill (server/db/fts-compaction.ts), the row under query load runs while the search thread ' +
        'merges its file (~16 s of its 30): 348 MB in the bench at ec8910e against 325 at 4e8fbd8, within the spread above; a ' +
        'scratch probe of the merge without query load saw the server\'s RSS at 216–217 MB throughout it. Then (2026-12-07, ' +
        'docs/CONTRIBUTING.md, "What an idle worker keeps"): the memory log showed the ingest worker holding 38 MB of heap and 14 MB of ' +
        'batch buffers, and the search thread 17 MB of heap, for ~40 s after the backfill, through this row; both now collect, let go of ' +
        'their buffers and trim 6 s after their last work (a collection then also shrinks the young generation the backfill grew): ' +
        '`--only memory` after it, this row 276 MB (318 and 320 in the two benches before), idle after the backfill 182 MB (223, 231).',
    ],
    [
      /^held-out corpus/,
      'Held-out corpus (issue 19, acceptance): the same server and code as the backfill row, no query load, a fresh database; ' +
        'the time counts the server\'s start (~0.45 s until the backfill is planned: ~0.2 s to load the server, ~0.1 s to start the ingest worker, ~0.1 s to list and plan the corpus) and ends when /api/ready says the ' +
        'backfill is idle. Its ingest thread is ~85% busy (4.0 of ~4.6 s; --cpu-prof: the events insert 1.1 s at 5.6 µs a row, lines ' +
        '0.5 s, processLine ~0.9 s of which JSON.parse ~0.4, the session refreshes ~0.45 s, deflate ~0.35 s, garbage collection ~0.45 s) ' +
        'and the search thread ~2.2 s beside it. Everything that sped up the 1.6 GiB backfill applies here too (this stop: the young ' +
        'generation: 5.34–5.57 → 5.13–5.42 s, 4 alternated pairs; 5.6–6.0 → 5.4–5.5 s with 16 MB semi-spaces), but 15.9% of a JSON.parse pass that now runs at 250–270 MB/s ' +
        'here means ~2.5 s including the start, half of today\'s: it needs the per-line work of the ingest thread halved (a parse thread ' +
        'feeding the writer, fewer events indexes). Measured before building the parse thread (docs/CONTRIBUTING.md, "A parse thread in ' +
        'front of the writer"): on this corpus processLine takes 1.1–1.35 s, but its results cloned back to the writer are 216 MB and ' +
        '1.0–2.3 s to deserialize; only columns and text may cross (30 MB, 65 ms), so the prompt de-duplication and every derivation ' +
        'that reads attrs must move with the parse. Not built. Since: /api/ready is polled every 50 ms here too (it was 250 ms without ' +
        'a load, which added 125 ms on average to each run: bench/measure/server-process.ts POLL_MS). Then: the fold after "idle" of the ' +
        'backfill row (the fold was ~85 ms of each run here); the deflate thread tried there read 7.1 / 8.0 / 8.8% against 7.3 / 8.5 / ' +
        '8.5% without it (the bench\'s own held-out measurement, alternated three times: this host\'s spread) and was taken out. ' +
        'Then (the stop after): the slow indexes, the writer\'s sums for the refresh and the search thread at nice 10 of the backfill ' +
        'row; alternated with the code before them (scratch/heldout-ab.ts, the bench\'s own measurement): 8.7 → 9.6% after the ' +
        'first, 10% in the bench at 34565c4. At 105 MB the indexes it dropped are small and cheap; what is left is the per-line ' +
        'work of the ingest thread, as above. Then: the ingest worker and the search thread load without zod and yaml (the backfill ' +
        'is planned ~80 ms sooner, "planned" 368–422 → 288–331 ms in the startup trace) and the run ends when search has caught up ' +
        '(~0.1 s later than /api/ready said before): 6 alternated rounds read 9.0–9.9% either way. Then (the stop after): the line ' +
        'table and the known strings\' keys (3.80–3.95 → 3.74–3.78 s alternated), 10.8% in the bench at 997e3d5; on the new host of ' +
        'the stop after that, 9.2% at d5de30f (a held-out run of 4.3 s, up to 5.8 s once its files were paged out). Then (the stop ' +
        'after): the two small cuts of the backfill row\'s note (~1.7% of the ingest thread); a held-out run here is ~0.5 s of start, ' +
        '~4.3 CPU s of ingest thread and ~0.2 s from "idle" to /api/ready, so 15.9% (~2.9 s) needs the ingest thread\'s work per line halved. ' +
        'Then (the stop after): the prompts walked by the search thread (the backfill row\'s note). On this corpus it moved little ' +
        'of the ingest thread\'s work (memory-probe, 3 rounds alternated with the code before: ingest thread 3.6–3.8 → 3.4–3.7 CPU ' +
        's, search thread 1.7–1.9 → 2.2–2.5) and the runs stayed within this host\'s spread (4.4 / 4.4 / 4.6 against 4.3 / 4.7 / 4.3 s). ' +
        'Then (the stop after): each pair now starts with the files read into the page cache (bench/lib/page-cache.ts); before, the ' +
        'first pair\'s JSON.parse pass could read them from disk while its backfill read them warm (one pair read 27.7% against 9.4% ' +
        'and 11% in the bench before). Then (the stop after, another new host, nothing tried for this row): 9.4% in three pairs of ' +
        'scratch runs of this measurement (7.48 / 7.03 / 6.05 s against 0.70 / 0.56 / 0.58 s); per thread at /api/ready: ingest 5.76 ' +
        'CPU s, search 4.67, ~12.5 CPU s of process in a ~7 s run (~89% of two cores): 15.9% needs the two threads\' work halved, not ' +
        'more overlap. V8 profile of the ingest thread there: the events insert (writeEvent) 1.38 s, JSON.parse (parseLine) 0.73, the ' +
        'lines insert 0.59, deriveFromEvent 0.55, the session refreshes 0.53, deflate ~0.5 (most files are one batch, deflated on the ' +
        'thread); of the search thread: the trigram inserts ~5.7 s of its 8.9 under the profiler, the prompt walk ~2. Then (the stop ' +
        'after): SQLite built with profile-guided optimization (the backfill row\'s note): the held-out `index`, 4 alternated pairs, user ' +
        'CPU 5.12–5.17 → 4.71–5.04 s, wall 3.22–3.31 → 3.13–3.19 s; not taken.',
    ],
    [
      /^time until every session of the newest 7 days/,
      'Newest week (issue 19.2): the week is now every log the server reads (Copilot CLI sessions and their usage files too: most ' +
        'of its sessions are CLI ones); the row counted only the VS Code sessions before (47 sessions, 126 MB). Fixed: usage files ' +
        'are keyed by their session (keyed by their folder, all 1,071 were one session as new as the newest and were read first); ' +
        'the roots\' tree watcher starts once this week is read (its walk took 1–2 s before the first read); the ancestor walk skips ' +
        'session-state folders; the trigram insert is on the search thread. What is left is the ingest thread\'s rate on this week\'s ' +
        'bytes, a third of them Copilot CLI lines (7.3 MB per CPU s against 12.5 for debug logs: short lines, many small sessions), ' +
        'under the query load of the first 90 s (`node dist/bench/run.js --only newest` times it alone, with the start-up phases). ' +
        'On this machine the same code measured 13.1–21.8 s within one hour of `--only newest` runs, so the row is now the median of ' +
        'five runs (the main backfill\'s and four more on fresh databases, each under the same query load). Where the week\'s ingest ' +
        'CPU goes (per-statement timers, one run, 12.3 CPU s): the events insert 2.2 s (6.8 µs an event; in memory 4.3 µs with its 12 ' +
        'indexes, 2.2 µs without any, none above 0.2 s alone), the first refresh of its 1,805 sessions 1.3 s (0.77 ms each: their ' +
        'events grouped by type and model 0.35, the CLI facts 0.31, lineage 0.30, turn FTS rows 0.26), the derived rows 1.0 s, the ' +
        'lines insert 0.7 s, the prompt trigram rows 0.5 s; the line parse, normalization and text extraction 1.6 s. Tried and taken ' +
        'out: the backfill\'s threads at nice 5, yielding to HTTP (queries p95 a little lower, but the backfill under this load a ' +
        'tenth slower); the archive deflate on a thread of its own instead of the libuv pool (the ingest thread\'s share of it is ' +
        'the pool thread taking the core, not dispatch: 70–130 against 50–70 ms per 106 MB). Since: the week counts every session ' +
        'of the newest 7 days by today\'s date, so a corpus generated days before the run holds fewer of them (211 sessions in the ' +
        'file of 1e06d5e, 6.53 s) than one generated the same day (914, 170 MB). `--only newest` on one host within an hour, 914 ' +
        'sessions: 1e06d5e 19.7–21.0 s (3 runs), with the prompt index on the search thread 15.7–22.3 s (9 runs).',
    ],
    [
      /^(search: |triage: |sessions list|session spans|lineage of|queries during the backfill)/,
      'Query rows (issues 3, 5, 6, 19.4): each timed request says Cache-Control: no-cache, so a row times the answer computed ' +
        '(on a warm server: page cache, prepared statements, the session directory), not the response cache\'s reused one ' +
        '(server/http/response-cache.ts). From the response cache (042444d, 2026-12-01) until the stop that added the header, ' +
        'every row after its first request timed the reused answer (p50 ~0.5 ms); the row of queries during the backfill now ' +
        'gives the requests the server computed, beside all of them. Computed on the host of that stop, on the archive of the ' +
        'bench before it (20 runs each): identifier fragment p50 42.6 / p95 55.9 ms, 1- and 2-character CJK ~31–34 / 39–43, ' +
        'phrase 24.4 / 26.3, lineage of the largest family 25.0 / 36.6. Where a search\'s time went (--cpu-prof, 40 runs of ' +
        '"Reconnect"): the FTS5 scan of the first 6,000 matches ~23 ms, the event counts of the page\'s families ~11 ms (now ' +
        'kept per connection between two commits: server/counts/session-events.ts; 42.6 / 55.9 → 31.7 / 36.4 ms), titles and ' +
        'paths ~8 ms; a CJK query of 1–2 characters reads every session title and touched path (instr; ~9 and ~11 ms on ' +
        '59k paths and 19k sessions: trigrams cannot answer it, and a CJK index of titles and paths would be a derived-table ' +
        'rebuild for every user). Before the response cache (088d882, another host) these rows read, computed: identifier ' +
        'fragment 25.8 / 32.4 ms, CJK 29.1 / 32.6–34.0, lineage 12.9 / 25.2. During the backfill the computed requests are ' +
        'those right after a commit (a commit ends reuse). Their slowest were the triage model\'s: each waited for the model to ' +
        'sync the commit group (~100,000 events read back through SQL and JSON and added: ~70 ms of CPU, 100–180 ms on two cores ' +
        'the backfill keeps busy; /api/events?min=5000 computed p95 ~135–145 ms, and with it answered without the model, ' +
        '/api/errors/groups the same). Now the default slow list and text searches come from SQL\'s indexes alone ' +
        '(server/triage/events.ts eventListNeedsModel: the slow list\'s computed p95 ~9–15 ms), and the model adds each ' +
        'commit\'s rows as the ingest wrote them, handed over after its COMMIT (server/triage/commit-rows.ts; the main ' +
        'thread\'s CPU in this backfill 7.0–7.5 → 5.8–6.2 s). Scratch runs of the 1.6 GiB backfill with this load, ' +
        'alternated (the slow list already without the model → and the rows handed over): every computed request p95 ' +
        '117.0 / 113.4 → 78.5 / 77.5 ms, /api/errors/groups 145.1 / 126.1 → 99.1 / 83.0; the search p50 ~57 / p95 ~94–100 ms ' +
        'beside the backfill. Before the response cache every request of this load was computed, most of them with the model ' +
        'warm: p95 78.8 ms then, on another host. Then (the stop after): every FTS5 table is merged into one segment once a ' +
        'backfill settles (server/db/fts-compaction.ts; the backfill, merging only 16 segments a level, leaves event_text in ' +
        '44): on the bench archive, in process, 40 runs each, the phrase 27.5 → 14.8 ms, the identifier fragment 30.4 → 25.2, ' +
        'the rare word 1.4 → 0.4; over HTTP, computed, 20 each: phrase p50 / p95 36.4 / 48.2 → 18.6 / 24.6 ms, identifier ' +
        'fragment 35.1 / 48.6 → 30.1 / 39.1 (the bench at ec8910e: phrase 18.9 / 21.1, identifier fragment 29.7 / 41.4, ' +
        'identifier + type:tool 38.7 / 40.5). The merge of the search file is ~16 s of the search thread after the 1.6 GiB ' +
        'backfill (run during the steady-state RSS row; serve\'s quick_check of the search file pauses it: a reader keeps ' +
        'the log from restarting, and the merge waits rather than grow it past 64 MB). And a 1–2 character CJK term reads ' +
        'only the titles and paths that hold a character beyond ASCII, through two partial indexes (server/db/schema.ts ' +
        'NON_ASCII_TITLE; in process 盘 26.9 → 19.2 ms). Then (2026-12-07): these rows had timed first pages that read ' +
        'the oldest matches. A backfill gives ids to whole sessions newest first, and the scan read by descending id: ' +
        '"identifier + type:tool + 30d" read 12,000 matches older than its window in its 25 ms and showed no session of ' +
        'the 105 that have one (4,521 events). The scan now reads each backfill\'s ids upwards (server/db/id-order.ts) ' +
        'and stops at 8,000 matches read (the clock at 25 ms a safety net): 78 sessions, in process p50 ~22–24 ms against ' +
        '~29 for the empty page before; the identifier fragment and the common word read their newest 6,000 matches, ' +
        'in process as fast as before (alternated: 27.6–29.7 against 30.0–30.6 ms, 16.8–17.1 against 18.2–19.2).',
    ],
    [
      /^(\/api\/health while|\d+ concurrent mixed queries|\/api\/health during those bursts)/,
      'Concurrency (issues 14.6, 19.4): done: a long phrase is looked up by up to 8 pieces of 12 characters and verified against the ' +
        'archived text (a 1,998-character phrase on a 512 MB corpus: 2.6–3.5 s in one FTS5 call before, 140 ms for the whole search after, ' +
        'partial and marked so when verification runs past the budget); search and span trees run in a worker thread with its own connection; the other ' +
        'queries take turns, one per turn of the event loop, the quickest route first, so health waits for one query, not for all that arrived before it; ' +
        'identical GET requests in flight are computed once and a 200 is reused until the next commit or for 1 s (server/http/response-cache.ts), ' +
        'reused answers handed out one per turn; health reads its database facts once per commit; the bench samples health from a process of its ' +
        'own (in the burst client\'s process its timings held that client\'s event loop). Compare each health row with its baseline (health alone on ' +
        'the same machine in the same run): on a shared two-core machine the scheduler alone can cost more than the target. What is left for 200 at ' +
        'once: with the answers reused, a burst costs its 200 HTTP exchanges on the main thread (~0.4–1 ms of CPU each, a third of it writev of ' +
        '20–90 kB bodies), beside the backfill on the other core; distinct queries are still served one after another (one read worker, one main ' +
        'thread). Not tried: more read workers (no third core; a connection and a session directory each against the 300 MB RSS target), ' +
        'shortest-first order inside the read worker. Since (issue 19.4): the triage model warms 2,000 event ids a turn, not 20,000 ' +
        '(a step held the loop 100–240 ms while commits arrived); reused answers are written without building a fetch Response; GETs skip ' +
        'bodyLimit, which built a fetch Request for each (60 bursts: health p95 45–80 → 27–39 ms). The backfill\'s threads at nice 5 ' +
        'were tried and taken out: queries p95 113–162 → 99–108 ms, but the backfill a tenth slower under the first 90 s of load. ' +
        'Then (issue 19.3) the launch settings of server/launch-flags.ts traded some of this row for peak RSS: `--only concurrency` ' +
        'on one host within 20 minutes, /api/health during the bursts p95 with --max-semi-space-size=4 and MALLOC_ARENA_MAX=1 ' +
        '76.6 (load average 3.5), 49.9, 58.2, 44.1 ms; with two arenas 71.6, 44.0; without the flag (V8\'s 32 MB young generation ' +
        'on the main thread, 16 on the read worker) 33.6, 33.6; a semi-space of 8 MB 46.6, 46.8 (peak RSS 324 MB); without the flag ' +
        'but the workers\' young generations capped at 12 MB 76.4 (peak RSS 315 MB). The flag caps every isolate (V8 takes it over ' +
        'the workers\' resourceLimits), so the main thread cannot keep a larger young generation than the workers. Kept for ' +
        'the 300 MB peak; the bursts\' p50 is 5 ms either way, and what sets the p95 (the main thread\'s old-generation pauses or ' +
        'the read worker\'s collections taking the shared core) is not yet known. Then: the triage model\'s warm-up had stopped ' +
        'stepping after its first call (its promise was kept settled when the model was already current), so every triage request after ' +
        'a commit loaded the whole commit group in its own snapshot, 180–250 ms with the loop held; fixed, and a handler whose snapshot ' +
        'finds the model more than one step behind waits for the warm-up again (server/triage/keep-warm.ts inTriageSnapshot): 100 ' +
        'bursts on one host, alternated, health p95 36.2 / 33.1 / 40.3 / 39.8 / 50.2 → 26.7 / 27.1 / 41.9 / 43.2 / 27.6 / 36.1 ms. ' +
        'Then the deflate thread tried for the backfill row (taken out again for its memory): whole benches with it read this row at ' +
        '50.1 and 54.8 ms, and 43.7 ms with the thread at nice 10, while 100-burst probes alternated with the code before it could not ' +
        'tell them apart (medians of 5: 35.4 against 36.5 ms). One run of this row reads the host\'s spread (p95 of ~190 samples: ' +
        'its 10th slowest). Then (the stop after, a slower host: this row read 57.8 ms in a whole bench and 38–62 ms in eleven ' +
        'runs of the bursts): where the time goes. The server now says its share of each health request in a Server-Timing header, ' +
        'from the accept of its connection to the answer (server/http/server-timing.ts), and this row\'s "ratio" column shows it: ' +
        'p95 7.5 ms in the server against 51.0 ms seen by the client in the same run. A probe of the server\'s event loop found ' +
        'no turn longer than 12 ms around the slow requests, which had waited 40–110 ms before the accept: the client waiting ' +
        'for one of two cores that the backfill, the 200-query client and the server\'s threads keep busy (per-thread schedstat ' +
        'over the bursts: the main thread ran 3.6 s and waited runnable 3.4 s of 8.6 s). Measured and not taken: the ingest ' +
        'thread yielding 10 ms between its passes while 32 or more queries are in flight (the main thread\'s wait for a core did ' +
        'not fall, health p95 56.9 / 51.2 / 60.7 against 43.2 / 44.6 / 62.3 ms alternated).',
    ],
  ];
  return tried.filter(([re]) => rows.some((r) => re.test(r.measurement) && r.met === false)).map(([, note]) => note);
}

const ratio = (ours: number, base: number) => (Number.isFinite(ours) && Number.isFinite(base) && ours > 0 ? `${round(base / ours, 1)}× faster` : '—');

/** Each request's answer computed (COMPUTED), and checked to be. */
async function timeQueries(base: string, classes: QueryClass[], n: number): Promise<Map<string, { p50: number; p95: number; status: number; found: number | null }>> {
  const out = new Map<string, { p50: number; p95: number; status: number; found: number | null }>();
  for (const q of classes) {
    let status = 0;
    let found: number | null = null;
    for (let i = 0; i < 2; i++) {
      // warm the page cache and statements; a search says how many sessions it found
      const r = await timedGet(base, q.path, { headers: COMPUTED });
      status = r.status;
      const totals = (r.body as { totals?: { sessions?: number } } | null)?.totals;
      found = q.path.startsWith('/api/search') && typeof totals?.sessions === 'number' ? totals.sessions : null;
    }
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = await timedGet(base, q.path, { headers: COMPUTED });
      if (r.cache !== 'miss') throw new Error(`${q.path}: answered from the response cache (${r.cache}), not computed`);
      ms.push(r.ms);
    }
    const s = summarize(ms);
    out.set(q.name, { p50: s.p50, p95: s.p95, status, found });
  }
  return out;
}

/** The baseline's time; how many lines jq selected (so its counts need no second pass), how many files rg listed. */
async function baseline(q: QueryClass, files: string[]): Promise<{ ms: number; count: number }> {
  if (!q.baseline) return { ms: NaN, count: NaN };
  if (q.baseline.tool === 'rg') {
    const t: number[] = [];
    let listed = 0;
    for (let i = 0; i < 3; i++) {
      const r = await timedCommand('rg', q.baseline.args);
      t.push(r.ms);
      listed = r.stdout.split('\n').filter(Boolean).length;
    }
    return { ms: median(t), count: listed };
  }
  // jq skips unparseable lines like we do (fromjson?), over every log file, once (it takes seconds per GB).
  // Thousands of files overflow one command line (E2BIG): jq runs over batches, one after another, times summed.
  const filter = `fromjson? | select(type == "object") | ${q.baseline.args[0]} | 1`;
  let ms = 0;
  let count = 0;
  for (let i = 0; i < files.length; i += 500) {
    const r = await timedCommand('jq', ['-R', filter, ...files.slice(i, i + 500)]);
    ms += r.ms;
    count += r.stdout.split('\n').filter(Boolean).length;
  }
  return { ms, count };
}

/** Backfills of the 0.25× corpus for its peak RSS: one run's peak moved by 10–15 MB between runs on one host. */
const QUARTER_RUNS = 3;

/**
 * The RSS bound must hold independent of corpus size: the same backfill at a quarter of the size, on a corpus
 * generated with the same seed, by a second server on another port while the first one idles; `QUARTER_RUNS` of
 * them, each into a fresh database.
 */
async function measureQuarterRss(loadPaths: string[]): Promise<{ mb: number; runs: { seconds: number; peakRss: number; atPeak: string | null }[] }> {
  const dir = path.resolve(values.cache as string, `corpus-${values.size}-quarter-seed${seed}`);
  const m = await ensureCorpus(dir, Math.round(size / 4));
  const probe = '/api/search?q=' + encodeURIComponent(m.notable.identifiers[0]);
  const runs = [];
  for (let i = 0; i < QUARTER_RUNS; i++) {
    log(`backfill of the 0.25× corpus (peak RSS, ${i + 1} of ${QUARTER_RUNS})`);
    runs.push(await backfillPeakRss({ corpusDir: dir, dbPath: `${dbPath}.quarter`, port: Number(values.port) + 1, loadPaths: [probe, ...loadPaths], loadMs: UNDER_LOAD_MS }));
  }
  return { mb: m.bytes / 1e6, runs };
}

/** The run whose peak RSS is the median of the runs' (the middle one of an odd count). */
function medianPeakRun<T extends { peakRss: number }>(runs: T[]): T {
  return [...runs].sort((a, b) => a.peakRss - b.peakRss)[Math.floor((runs.length - 1) / 2)];
}

/** Issue 19's held-out acceptance: a ~100 MB corpus of another seed, its backfill rate against a JSON.parse pass (held-out.ts). */
async function measureHeldOut(): Promise<Row> {
  const heldSeed = seed + 1000;
  const dir = path.resolve(values.cache as string, `corpus-heldout-100m-seed${heldSeed}`);
  const m = await ensureCorpus(dir, 100 * 2 ** 20, heldSeed);
  log('held-out corpus: JSON.parse pass and backfill, 3 alternations');
  const r = await heldOutRatio({ corpusDir: dir, files: m.files.map((f) => f.path), dbPath: `${dbPath}.heldout`, port: Number(values.port) + 3, runs: 3 });
  const mb = m.bytes / 1e6;
  const target = 3 * HELD_OUT_FILED_RATIO;
  return {
    measurement: `held-out corpus (${round(mb, 0)} MB, seed ${heldSeed}, not the corpus tuned on): backfill rate as a share of a JSON.parse pass over the same files (median of 3 alternations)`,
    ours: `${round(mb / r.median.backfillSeconds)} MB/s (${round(r.median.backfillSeconds)} s)`,
    baseline: `JSON.parse ${round(r.median.ceilingSeconds, 2)} s (runs: ${r.runs.map((x) => `${round(100 * x.ratio, 1)}%`).join(', ')})`,
    ratio: `${round(100 * r.median.ratio, 1)}% (filed at ${round(100 * HELD_OUT_FILED_RATIO, 1)}%: ${round(r.median.ratio / HELD_OUT_FILED_RATIO, 2)}×)`,
    target: `≥ 3× the filed share (≥ ${round(100 * target, 1)}%)`,
    met: r.median.ratio >= target,
  };
}

/**
 * No request holds the event loop (issues 14.6, 19.4): health while four 2,000-character phrase searches run on
 * the idle server, then bursts of 200 mixed queries during a backfill of the same corpus by a second server
 * into a fresh database (the first backfill's own rows stay undisturbed).
 */
async function measureConcurrency(base: string, m: CorpusManifest): Promise<Row[]> {
  const out: Row[] = [];
  const phrase = longPhraseQuery(dbPath);
  if (phrase === null) notes.push('no event with 2,000 characters of indexed text: the long-phrase row was not measured');
  else {
    log('health alone (5 s), then while 4 searches for a 2,000-character phrase run (20 s)');
    const alone = await healthAlone(base, 5);
    const r = await healthDuringLongSearches(base, phrase, { streams: 4, seconds: 20 });
    out.push({
      measurement: `/api/health while 4 searches for a ${phrase.length}-character phrase run (${r.search.runs} searches, HTTP ${r.statuses.join('/')})`,
      ours: `p50 ${fmtMs(r.health.p50)} / p95 ${fmtMs(r.health.p95)}`,
      baseline: `health alone: p50 ${fmtMs(alone.p50)} / p95 ${fmtMs(alone.p95)}`,
      ratio: `the searches: p50 ${fmtMs(r.search.p50)} / p95 ${fmtMs(r.search.p95)}`,
      target: 'p95 ≤ 50 ms',
      met: r.health.p95 <= 50 && r.statuses.every((s) => s === 200),
    });
  }
  log(`bursts of ${BURST} concurrent mixed queries during a backfill (second server, fresh database)`);
  const cdb = `${dbPath}.concurrency`;
  removeDatabaseFiles(cdb);
  const second = await startServerProcess({ roots: corpusRoots(corpusDir), dbPath: cdb, port: Number(values.port) + 2 });
  let backfilling = true;
  // Its polls fail once it is stopped below: handled from the start (a rejection met while stop() was awaited had no
  // handler yet, and ended the whole bench).
  const done = awaitBackfill(second.base, performance.now(), { loadPaths: [], loadMs: 0 })
    .then(() => void (backfilling = false))
    .catch(() => undefined);
  const mixed = [
    '/api/search?q=' + encodeURIComponent(m.notable.identifiers[0]),
    '/api/events?min=5000&sort=dur',
    '/api/errors/groups',
    `/api/sessions/${encodeURIComponent(m.notable.bigSessionId)}/spans?offset=0&limit=200`,
  ];
  // The first 3 s of the backfill without bursts: health under the backfill alone, for comparison.
  const backfillOnly = await healthAlone(second.base, 3);
  const b = await burstsDuring(second.base, mixed, { done: () => !backfilling, maxBursts: 100 });
  // the rest of its backfill measures nothing (on 1.6 GiB, a quarter of an hour): its polls fail once it stops
  await second.stop();
  await done;
  removeDatabaseFiles(cdb);
  notes.push(`The ${BURST} concurrent mixed queries by path: ${[...b.byPath].map(([p, t]) => `\`${p.length > 60 ? p.slice(0, 57) + '…' : p}\` p50 ${fmtMs(t.p50)} / p95 ${fmtMs(t.p95)}`).join('; ')}.`);
  out.push({
    measurement: `${BURST} concurrent mixed queries during the backfill (search, slow, errors, spans; ${b.bursts} bursts, ${b.queries.runs} requests, ${b.computed} of them computed, the others joined to an identical one or reused; ${b.failed} 5xx)`,
    ours: `p50 ${fmtMs(b.queries.p50)} / p95 ${fmtMs(b.queries.p95)}`,
    baseline: '—',
    ratio: '—',
    target: 'p95 ≤ 300 ms',
    met: b.bursts > 0 && b.failed === 0 && b.queries.p95 <= 300,
  });
  out.push({
    measurement: `/api/health during those bursts (${b.health.runs} requests)`,
    ours: `p50 ${fmtMs(b.health.p50)} / p95 ${fmtMs(b.health.p95)}`,
    baseline: `the backfill's first 3 s, no bursts: p50 ${fmtMs(backfillOnly.p50)} / p95 ${fmtMs(backfillOnly.p95)}`,
    // the server's share (Server-Timing: from the accept of the connection to the answer); the rest is the client's
    // wait for a core and the kernel's (server/http/server-timing.ts)
    ratio: b.healthInServer ? `in the server: p50 ${fmtMs(b.healthInServer.p50)} / p95 ${fmtMs(b.healthInServer.p95)}` : '—',
    target: 'p95 ≤ 50 ms',
    met: b.health.runs > 0 && b.health.p95 <= 50,
  });
  return out;
}

/**
 * The server on a fresh database, timed from its start to the first search that finds a session and to every
 * session of the newest 7 days fully indexed, with the query load of the first 90 s; then until the backfill is
 * done, or (`untilWeekDone`) the week is.
 */
async function timedBackfill(
  manifest: CorpusManifest,
  o: { untilWeekDone: boolean; onStderrLine?: (line: string) => void; env?: NodeJS.ProcessEnv; memoryLog?: string; db?: string; port?: number },
) {
  const db = o.db ?? dbPath;
  removeDatabaseFiles(db);
  const week = newestWeekProbe(manifest, db);
  let newestWeekMs = NaN;
  readIntoPageCache(corpusDir); // as the ceiling read them (bench/lib/page-cache.ts)
  const t0 = performance.now();
  const server = await startServerProcess({ roots: corpusRoots(corpusDir), dbPath: db, port: o.port ?? Number(values.port), onStderrLine: o.onStderrLine, env: o.env, memoryLog: o.memoryLog });
  const rss = o.untilWeekDone ? null : rssSampler(server.child.pid as number);
  const disk = o.untilWeekDone ? null : diskPeakSampler(db);
  const probeWord = manifest.notable.identifiers[0];
  let firstSearchableMs = NaN;
  const underLoad: number[] = [];
  // the same four requests again and again, as a dashboard polls them: most are the server's reused answer until the
  // next commit (server/http/response-cache.ts); the row's figure is of those it computed
  const underLoadComputed: number[] = [];
  const loadClasses = ['/api/search?q=' + encodeURIComponent(probeWord), '/api/events?min=5000&sort=dur', '/api/sessions?limit=100', '/api/errors/groups'];
  // Query load for the first 90 s only: it shares the two cores with the indexer, and the throughput below is
  // of the backfill itself. 90 s of requests is thousands of samples for "queries during the backfill".
  await awaitBackfill(server.base, t0, {
    loadPaths: loadClasses,
    loadMs: UNDER_LOAD_MS,
    onLoad: (ms, cache) => {
      underLoad.push(ms);
      if (cache === 'miss') underLoadComputed.push(ms);
    },
    onPoll: async () => {
      if (Number.isNaN(newestWeekMs) && week.done()) newestWeekMs = performance.now() - t0;
      if (!Number.isNaN(firstSearchableMs)) return;
      const s = await timedGet(server.base, loadClasses[0]);
      const total = (s.body as { totalSessions?: number; total?: number; groups?: unknown[] } | null) ?? {};
      if (s.status === 200 && ((total.totalSessions ?? total.total ?? 0) > 0 || (Array.isArray(total.groups) && total.groups.length > 0))) firstSearchableMs = performance.now() - t0;
    },
    until: () => o.untilWeekDone && !Number.isNaN(newestWeekMs) && !Number.isNaN(firstSearchableMs),
  });
  return { server, rss, disk, week, t0, firstSearchableMs, newestWeekMs, underLoad, underLoadComputed, loadClasses };
}

/** Runs of "this week is indexed", the main backfill's included: one run moved by 13–22 s on this machine within an hour. */
const WEEK_RUNS = 5;

/**
 * This week's time again, `WEEK_RUNS - 1` times, each a fresh server and database timed as the main run is (the
 * same query load of the first 90 s), stopped once the week is done. Run while the main server is idle, as the
 * 0.25× run is.
 */
async function moreWeekRuns(manifest: CorpusManifest): Promise<number[]> {
  const out: number[] = [];
  for (let i = 1; i < WEEK_RUNS; i++) {
    log(`newest week again (${i + 1} of ${WEEK_RUNS}), fresh database`);
    const db = `${dbPath}.week`;
    const b = await timedBackfill(manifest, { untilWeekDone: true, db, port: Number(values.port) + 4 });
    await b.server.stop();
    removeDatabaseFiles(db);
    out.push(b.newestWeekMs);
  }
  return out;
}

/**
 * Whole backfills of the corpus: the first (which the rows after it query) and these, each into a fresh database
 * under the same query load. One run of it moved by 10–15% within an hour on this machine (BENCHMARKS.md notes), so
 * the throughput row is the median of the runs, each listed; so is the peak RSS row (one run's peak moved by 10–15 MB,
 * set by when the four isolates' collections fell: in one run the ingest worker's heap grew by 15 MB for 0.2 s, the
 * process's RSS by 23 MB, late in the backfill, where the corpus's largest lines are).
 */
const BACKFILL_RUNS = 3;

async function moreBackfillRuns(manifest: CorpusManifest): Promise<{ seconds: number; peakRss: number }[]> {
  const out: { seconds: number; peakRss: number }[] = [];
  for (let i = 1; i < BACKFILL_RUNS; i++) {
    log(`backfill again (${i + 1} of ${BACKFILL_RUNS}), fresh database`);
    const db = `${dbPath}.backfill`;
    const b = await timedBackfill(manifest, { untilWeekDone: false, db, port: Number(values.port) + 5 });
    const seconds = (performance.now() - b.t0) / 1000;
    out.push({ seconds, peakRss: b.rss?.stop() ?? NaN });
    b.disk?.stop();
    await b.server.stop();
    removeDatabaseFiles(db);
  }
  return out;
}

/** The two rows of "newest first": the first searchable session and this week's sessions (the median of the runs given). */
function newestFirstRows(b: { week: NewestWeekProbe; firstSearchableMs: number }, weekRunsMs: number[], whole: string): Row[] {
  const weekMs = median(weekRunsMs);
  const runs = weekRunsMs.length > 1 ? ` (median of ${weekRunsMs.length} runs: ${weekRunsMs.map(fmtMs).join(', ')})` : '';
  return [
    { measurement: 'time until the first session is searchable', ours: fmtMs(b.firstSearchableMs), baseline: '—', ratio: '—', target: '—', met: null },
    {
      measurement: `time until every session of the newest 7 days is indexed (${b.week.describe()}; backfill newest sessions first)`,
      ours: fmtMs(weekMs) + runs,
      baseline: whole,
      ratio: '—',
      target: '≤ 15 s',
      met: weekMs <= 15_000,
    },
  ];
}

/**
 * `--only newest`: just the time to this week's sessions, with the ingest's start-up phases (the worker's
 * CHRONOSCOPE_TRACE_STARTUP lines) as notes: a before/after of the start-up path in a minute.
 */
async function onlyNewest(manifest: CorpusManifest): Promise<void> {
  const trace: string[] = [];
  const b = await timedBackfill(manifest, {
    untilWeekDone: true,
    env: { CHRONOSCOPE_TRACE_STARTUP: '1' },
    onStderrLine: (line) => {
      if (line.startsWith(STARTUP_TRACE_PREFIX)) trace.push(line.slice(STARTUP_TRACE_PREFIX.length).trim());
    },
  });
  // The last commits' lines may still be in the pipe when the probe saw them.
  await new Promise((r) => setTimeout(r, 200));
  await b.server.stop();
  rows.push(...newestFirstRows(b, [b.newestWeekMs], '— (--only newest: one run, stopped once the week is done)'));
  notes.push(`Start-up of the ingest (ms since the server process started; the probe saw the week done at ${fmtMs(b.newestWeekMs)} after spawning it): ${trace.join('; ')}.`);
}

/** `--only concurrency`: the server on the cached database (catching up, or backfilling it when there is none). */
async function onlyConcurrency(manifest: CorpusManifest): Promise<void> {
  if (!fs.existsSync(dbPath)) log(`no database at ${dbPath}: backfilling it first`);
  const server = await startServerProcess({ roots: corpusRoots(corpusDir), dbPath, port: Number(values.port) });
  await awaitBackfill(server.base, performance.now(), { loadPaths: [], loadMs: 0 });
  try {
    rows.push(...(await measureConcurrency(server.base, manifest)));
  } finally {
    await server.stop();
  }
  notes.push(...missNotes(rows));
}

async function main() {
  const facts = machineFacts();
  if (!fs.existsSync('dist/server/main.js')) throw new Error('run `npm run build` first (npm run bench does)');
  const manifest = await ensureCorpus();
  if (values.only === 'newest') {
    await onlyNewest(manifest);
    writeReport(facts, manifest);
    return;
  }
  if (values.only === 'concurrency') {
    await onlyConcurrency(manifest);
    writeReport(facts, manifest);
    return;
  }
  const files = manifest.files.map((f) => f.path);
  const corpusMb = manifest.bytes / 1e6;

  let ceiling = { mbPerSecond: NaN };
  let fts = { parseSeconds: NaN, ftsSeconds: NaN, textBytes: NaN };
  if (!memoryOnly) {
    log('ceiling: bare read + JSON.parse of every line');
    const warmStart = performance.now();
    const warm = readIntoPageCache(files);
    notes.push(
      `Every timed pass over the logs (the ceilings, each backfill, each held-out pair) starts with them read once, untimed, into the page cache (bench/lib/page-cache.ts): ` +
        `this host drops file pages unread for a few minutes, and the pass that came first after a pause read from disk. ` +
        `Before this bench's ceiling that read took ${fmtMs(performance.now() - warmStart)} for ${round(warm.bytes / 1e6, 0)} MB.`,
    );
    ceiling = jsonParseCeiling(files);
    log('ceiling of a trigram FTS5 design: our line processing, then a bare FTS5 insert of the same text');
    fts = ftsCeiling(files, `${dbPath}.fts-ceiling`);
  }

  log('backfill through the server (fresh database)');
  const memoryLog = `${dbPath}.memory.jsonl`;
  fs.rmSync(memoryLog, { force: true });
  const b = await timedBackfill(manifest, { untilWeekDone: false, memoryLog });
  const { server, week, underLoad, underLoadComputed, firstSearchableMs, newestWeekMs, loadClasses, t0 } = b;
  const rss = b.rss!;
  const backfillS = (performance.now() - t0) / 1000;
  const peakRss = rss.stop();
  const peakDisk = b.disk!.stop();
  const atPeak = memoryAt(readMemoryLog(memoryLog), rss.peakAt());
  if (atPeak) notes.push(`Memory at the backfill's peak (1×, MB): ${atPeak}.`);
  // filled in once the other whole backfills are done (below, with the main server idle): their median
  const throughputRow: Row = { measurement: '', ours: '', baseline: '', ratio: '', target: '≥ 25 MB/s and ≥ 20% of ceiling', met: null };
  rows.push(throughputRow);
  const unavoidableRow: Row = { measurement: '', ours: '', baseline: '', ratio: '', target: '—', met: null };
  if (!memoryOnly) rows.push(unavoidableRow);
  // filled in once the other whole backfills are done: the median of the runs' peaks
  const peakRow: Row = { measurement: '', ours: '', baseline: '—', ratio: '—', target: '≤ 300 MB', met: null };
  rows.push(peakRow);
  // measured once the server has settled (below, after the idle RSS row): what the disk holds for a user
  const sizeRow: Row = { measurement: 'database size (archive and search file, with their write-ahead logs, once the server is idle) / log size', ours: '', baseline: '', ratio: '', target: '≤ 1.5×', met: null };
  rows.push(sizeRow);
  rows.push({
    measurement: 'index on disk at its largest during the backfill (archive and search file with their write-ahead logs) / log size',
    ours: `${round(peakDisk / 1e6, 0)} MB`,
    baseline: `${round(corpusMb, 0)} MB of logs`,
    ratio: `${round(peakDisk / manifest.bytes, 2)}×`,
    target: '—',
    met: null,
  });
  const weekRow = rows.length; // filled in once the week's other runs are done (below, with the main server idle)
  const ul = summarize(underLoad);
  const ulc = summarize(underLoadComputed);
  rows.push({
    measurement: `queries during the backfill's first 90 s (search, slow, sessions, errors, polled: ${underLoad.length} requests, ${underLoadComputed.length} of them computed, the rest reused until the next commit)`,
    ours: `computed: p50 ${fmtMs(ulc.p50)} / p95 ${fmtMs(ulc.p95)}`,
    baseline: `every request: p50 ${fmtMs(ul.p50)} / p95 ${fmtMs(ul.p95)}`,
    ratio: '—',
    target: 'p95 ≤ 100 ms',
    met: underLoadComputed.length > 0 && ulc.p95 <= 100,
  });

  const { classes, notes: classNotes } = queryClasses(dbPath, manifest, corpusDir);
  notes.push(...classNotes);
  log('steady-state RSS: idle, then under the query rows\' requests');
  const steady = await steadyRss({ base: server.base, pid: server.child.pid as number, paths: classes.map((q) => q.path) });
  const mib = (b: number) => `${round(b / 2 ** 20, 0)} MB`;
  rows.push({ measurement: 'RSS of the server process tree after the backfill, idle (10 s, 5 s after it ended)', ours: `median ${mib(steady.idle.median)}, max ${mib(steady.idle.max)}`, baseline: `peak during that backfill ${mib(peakRss)}`, ratio: '—', target: '≤ 300 MB', met: steady.idle.max <= 300 * 2 ** 20 });
  // the archive and its search file (server/search-index/search-db.ts), each with its write-ahead log
  const dbBytes = indexBytesOnDisk(dbPath);
  Object.assign(sizeRow, { ours: `${round(dbBytes / 1e6, 0)} MB`, baseline: `${round(corpusMb, 0)} MB of logs`, ratio: `${round(dbBytes / manifest.bytes, 2)}×`, met: dbBytes <= 1.5 * manifest.bytes });
  const atLoadPeak = memoryAt(readMemoryLog(memoryLog), steady.underLoad.peakAt);
  if (atLoadPeak) notes.push(`Memory at the peak under query load after the backfill (1×, MB): ${atLoadPeak}.`);
  rows.push({ measurement: `peak RSS after the backfill under query load (every query row's request in turn for 20 s, each computed: ${steady.underLoad.requests} requests)`, ours: mib(steady.underLoad.peak), baseline: `idle ${mib(steady.idle.median)}`, ratio: '—', target: '≤ 300 MB', met: steady.underLoad.peak <= 300 * 2 ** 20 });

  const quarter = await measureQuarterRss(loadClasses.slice(1));
  const quarterRss = medianPeakRun(quarter.runs);
  if (quarterRss.atPeak) notes.push(`Memory at the backfill's peak (0.25×, the run of the median peak, MB): ${quarterRss.atPeak}.`);
  const quarterRow: Row = { measurement: '', ours: '', baseline: '', ratio: '', target: '≤ 300 MB, and 1× ≤ 1.15× of it', met: null };
  rows.push(quarterRow);

  const wholeRuns = [{ seconds: backfillS, peakRss }, ...(memoryOnly ? [] : await moreBackfillRuns(manifest))];
  const backfillRuns = wholeRuns.map((r) => r.seconds);
  const peakMedian = medianPeakRun(wholeRuns).peakRss;
  const eachPeak = (runs: { peakRss: number }[]) => (runs.length > 1 ? ` (median of ${runs.length} runs: ${runs.map((r) => mib(r.peakRss)).join(', ')})` : '');
  Object.assign(peakRow, {
    measurement: `peak RSS of the server process tree during backfill${wholeRuns.length > 1 ? ' (each whole backfill\'s own peak)' : ''}`,
    ours: `${mib(peakMedian)}${eachPeak(wholeRuns)}`,
    met: peakMedian <= 300 * 2 ** 20,
  });
  Object.assign(quarterRow, {
    measurement: `peak RSS at 0.25× the corpus (${round(quarter.mb, 0)} MB, same query load; backfill ${quarter.runs.map((r) => `${round(r.seconds)} s`).join(', ')})`,
    ours: `${mib(quarterRss.peakRss)}${eachPeak(quarter.runs)}`,
    baseline: `${mib(peakMedian)} at 1×`,
    ratio: `${round(peakMedian / quarterRss.peakRss, 2)}× at 4× the logs`,
    met: quarterRss.peakRss <= 300 * 2 ** 20 && peakMedian <= 1.15 * quarterRss.peakRss,
  });
  const medianS = median(backfillRuns);
  const mbps = corpusMb / medianS;
  const eachRun = backfillRuns.length > 1 ? `; median of ${backfillRuns.length} runs: ${backfillRuns.map((x) => `${round(x)} s`).join(', ')}` : '';
  Object.assign(throughputRow, {
    measurement: `backfill throughput (${round(corpusMb, 0)} MB, ${manifest.totals.events.toLocaleString('en')} events, ${manifest.totals.files} files)`,
    // two decimals: one rounded 24.97 MB/s to "25 MB/s" beside the ≥ 25 MB/s target
    ours: `${round(mbps, 2)} MB/s (${round(medianS, 2)} s${eachRun})`,
    baseline: memoryOnly ? '— (--only memory)' : `JSON.parse ceiling ${round(ceiling.mbPerSecond)} MB/s`,
    // which half of the target a "no" is (it needs both)
    ratio: memoryOnly ? '—' : `${round((100 * mbps) / ceiling.mbPerSecond, 1)}% of ceiling (≥ 25 MB/s: ${mbps >= 25 ? 'yes' : 'no'}; ≥ 20%: ${mbps >= 0.2 * ceiling.mbPerSecond ? 'yes' : 'no'})`,
    // issue 19: both cores (issue 9 had asked 50 MB/s and 40% of one core's ceiling)
    met: memoryOnly ? null : mbps >= 25 && mbps >= 0.2 * ceiling.mbPerSecond,
  });
  Object.assign(unavoidableRow, {
    measurement: `the unavoidable part: our line processing, then a bare trigram FTS5 insert of its ${round(fts.textBytes / 1e6, 0)} MB of searchable text (one thread, nothing else stored)`,
    ours: `${round(mbps)} MB/s`,
    baseline: `${round(fts.parseSeconds)} s + ${round(fts.ftsSeconds)} s = ${round(corpusMb / (fts.parseSeconds + fts.ftsSeconds))} MB/s; the FTS5 insert alone ${round(corpusMb / fts.ftsSeconds)} MB/s`,
    ratio: `${round((100 * mbps * (fts.parseSeconds + fts.ftsSeconds)) / corpusMb, 0)}% of it`,
  });
  rows.splice(weekRow, 0, ...newestFirstRows(b, [newestWeekMs, ...(memoryOnly ? [] : await moreWeekRuns(manifest))], `whole backfill ${round(medianS)} s`));

  if (!memoryOnly) rows.push(...(await measureConcurrency(server.base, manifest)));
  if (!memoryOnly) rows.push(await measureHeldOut());

  // jq reads the debug logs' lines, where a slow call or an error is one line; a Copilot CLI call is a start and a
  // completion line (its duration is derived), so the like-for-like count is of the VS Code sessions. The CLI
  // sessions' counts are checked against the generator's manifest in server/ingest/cli/cli-corpus.test.ts.
  const counts = (await timedGet(server.base, '/api/triage/counts?source=vscode')).body as { slow: { raw: number; unique: number }; errors: { raw: number; unique: number } } | null;

  log(`query latencies (${runs} runs each)`);
  const timings = await timeQueries(server.base, classes, runs);
  const haveRg = await hasCommand('rg');
  const haveJq = await hasCommand('jq');
  const jqCounts = new Map<string, number>();
  for (const q of classes) {
    const t = timings.get(q.name)!;
    const usable = !memoryOnly && q.baseline && ((q.baseline.tool === 'rg' && haveRg) || (q.baseline.tool === 'jq' && haveJq));
    if (usable) log(`baseline for ${q.name}`);
    const base = usable ? await baseline(q, files) : { ms: NaN, count: NaN };
    const b = base.ms;
    if (q.baseline?.tool === 'jq') jqCounts.set(q.baseline.args[0], base.count);
    const rgFiles = usable && q.baseline?.tool === 'rg' ? base.count : null;
    rows.push({
      measurement: q.name + (t.status !== 200 ? ` (HTTP ${t.status})` : ''),
      ours: `p50 ${fmtMs(t.p50)} / p95 ${fmtMs(t.p95)}${t.found !== null ? ` (${countOf(t.found, 'session')})` : ''}`,
      baseline: q.baseline
        ? usable
          ? `${q.baseline.tool} ${fmtMs(b)}${rgFiles !== null ? ` (${countOf(rgFiles, 'file')})` : ''}`
          : memoryOnly
            ? '— (--only memory)'
            : `${q.baseline.tool} not installed: not compared`
        : '—',
      ratio: ratio(t.p95, b),
      target: queryRowTarget(q.baseline?.tool ?? null, q.target),
      met: queryRowMet({ tool: q.baseline?.tool ?? null, status: t.status, p95: t.p95, target: q.target, baselineMs: usable ? b : null, found: t.found, baselineFound: rgFiles }),
    });
  }
  const slowJq = jqCounts.get('select(.dur > 5000)');
  const errJq = jqCounts.get('select(.status == "error")');
  if (!memoryOnly && counts && slowJq !== undefined && errJq !== undefined) {
    rows.push({ measurement: 'count of slow events (dur > 5000) of the VS Code sessions equals jq over their logs', ours: `${counts.slow.raw} (${counts.slow.unique} unique)`, baseline: `jq ${slowJq}`, ratio: '—', target: 'equal', met: counts.slow.raw === slowJq });
    rows.push({ measurement: 'count of errors (status error) of the VS Code sessions equals jq over their logs', ours: `${counts.errors.raw} (${counts.errors.unique} unique)`, baseline: `jq ${errJq}`, ratio: '—', target: 'equal', met: counts.errors.raw === errJq });
  }

  let restoreCorpus = () => {};
  if (!values['skip-live'] && !memoryOnly) {
    log('idle CPU over 60 s');
    const pid = server.child.pid as number;
    const c0 = treeCpuSeconds(pid);
    await new Promise((r) => setTimeout(r, 60_000));
    const idlePct = ((treeCpuSeconds(pid) - c0) / 60) * 100;
    rows.push({ measurement: 'server CPU over 60 idle seconds', ours: `${round(idlePct, 2)}% of one core`, baseline: '—', ratio: '—', target: '≤ 1%', met: idlePct <= 1 });

    log('append → visible: 200 lines across 10 sessions, a flush every 4 s');
    const active = manifest.files.filter((f) => f.kind === 'main' && !f.partialTail).slice(0, 10).map((f) => ({ id: f.sessionId, file: f.path }));
    restoreCorpus = snapshotFiles(active.map((a) => a.file));
    const live = await measureAppendLatency(server.base, active, 20);
    rows.push({ measurement: `append → visible through the API (${live.api.runs} lines)`, ours: `p50 ${fmtMs(live.api.p50)} / p95 ${fmtMs(live.api.p95)}`, baseline: '—', ratio: '—', target: 'p95 ≤ 1 s', met: live.api.p95 <= 1000 });
    rows.push({ measurement: `append → SSE \`indexed\` (${live.sse.runs} lines)`, ours: `p50 ${fmtMs(live.sse.p50)} / p95 ${fmtMs(live.sse.p95)}`, baseline: '—', ratio: '—', target: 'p95 ≤ 1 s', met: live.sse.p95 <= 1000 });
  }

  if (!values['skip-browser'] && !memoryOnly) {
    log('browser: session view of the biggest session');
    try {
      const mod = (await import('./browser/session-view')) as { measureSessionView: (base: string, id: string) => Promise<{ ttiMs: number; fps: number; domRows: number }> };
      const b = await mod.measureSessionView(server.base, manifest.notable.bigSessionId);
      rows.push({ measurement: 'session view: time to interactive (biggest session)', ours: fmtMs(b.ttiMs), baseline: '—', ratio: '—', target: '≤ 1.5 s', met: b.ttiMs <= 1500 });
      rows.push({ measurement: 'session view: frames per second while scrolling', ours: `${round(b.fps, 0)} fps (DOM rows ≤ ${b.domRows})`, baseline: '—', ratio: '—', target: '≥ 50 fps', met: b.fps >= 50 });
    } catch (err) {
      notes.push(`browser measurement failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    log('browser: cold load of the sessions page');
    try {
      const mod = (await import('./browser/first-row')) as typeof import('./browser/first-row');
      const r = await mod.measureFirstRow(server.base);
      rows.push({
        measurement: `time to first sessions row, cold load (new browser context, no cache; median of ${r.runs.length})`,
        ours: fmtMs(r.ms),
        baseline: `${round(r.scriptBytes / 1e3, 0)} kB of JS, ${round(r.styleBytes / 1e3, 0)} kB of CSS downloaded`,
        ratio: '—',
        target: '—',
        met: null,
      });
    } catch (err) {
      notes.push(`cold-load measurement failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  await server.stop();
  restoreCorpus();
  notes.push(...missNotes(rows));
  writeReport(facts, manifest);
}

function writeReport(facts: ReturnType<typeof machineFacts>, manifest: CorpusManifest): void {
  const report = renderReport({
    facts,
    corpus: `${round(manifest.bytes / 1e6, 0)} MB in ${manifest.totals.files} files, ${manifest.totals.events.toLocaleString('en')} events, ${manifest.totals.sessions} sessions, ${manifest.workspaces.length} workspaces (seed ${seed}, \`${corpusDir}\`)`,
    when: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    command: `npm run bench -- --size ${values.size}${values.only ? ` --only ${values.only}` : ''}${values.corpus ? ` --corpus ${values.corpus}` : ''}${values.db ? ` --db ${values.db}` : ''}`,
    rows,
    notes,
    seconds: (performance.now() - startedAt) / 1000,
  });
  fs.writeFileSync(values.out as string, report);
  process.stdout.write(report);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
