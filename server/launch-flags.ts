/**
 * How the server's process is started (issue 19.3: peak RSS; 19.1: throughput). These settings are read once, when
 * the process starts, so no code inside it can set them; every launcher passes them: bin/chronoscope.js's first line,
 * `npm start` (scripts/start-server.mjs), the bench's server (bench/measure/server-process.ts) and the browser
 * tests' (e2e/playwright.config.ts). launch-flags.test.ts checks that they agree.
 *
 * - `--max-semi-space-size=4`: V8 sizes every isolate's young generation by how fast it allocates, up to two
 *   16 MB semi-spaces on the main thread (settable on node's command line only; a cap set at run time did not
 *   hold, docs/CONTRIBUTING.md). V8 takes the flag over the workers' `resourceLimits` either way (8 MB semi-spaces
 *   raised the search thread's young generation from its limit of 8 MB to 16), so it sets every isolate's but the
 *   ingest worker's, which is made with the flag lifted (server/memory/young-generation.ts: at 4 MB it promoted
 *   most of each batch, and the backfill paid for it in full collections).
 * - `--heap-growing-percent=20`: V8 collects an isolate's old generation once it has grown to 1.2× what survived the
 *   last collection, instead of up to 4× when its collector looks fast next to the code (node's heap limit here is
 *   GBs). The ingest worker's heap watch (heap-watch.ts) forces a full collection at 48 MB, and each forced one costs
 *   ~0.18 CPU s (V8 recompiles the ingest's hot functions after it): whether V8's own limit fell under 48 MB decided
 *   between 4 and 72 forced collections in a 1.6 GiB backfill under the bench's load, 62.3 against 69.3–69.7 s
 *   (a scratch log of each forced collection). With the flag, 3 runs: 1 forced collection each, 62.4 / 65.3 / 65.1 s,
 *   peak RSS 270–271 MB against 272–286. Its cost is more collections of the main thread: /api/health in 100 bursts
 *   of 200 queries, p95 35.2 / 34.5 → 38.0 / 42.1 ms, the queries' p95 72.4 / 81.4 → 76.6 / 82.4 ms.
 * - `MALLOC_ARENA_MAX=1`: glibc gives each thread that mallocs under contention an arena of its own (up to 8 per
 *   core) and keeps what is freed in it; the ingest, search and read threads and the libuv pool's deflates held
 *   12 arenas, 126 MB from the system with 77 MB in use, at the 1.6 GiB backfill's peak. One arena lets what one
 *   thread frees serve the next; the threads' malloc traffic is SQLite's pages and zlib's streams, not a hot path.
 *   Other C libraries (macOS, Windows, musl) ignore the variable.
 *
 * Alternated memory-probe runs (1.6 GiB, query load), peak RSS: 353 / 398 MB with neither, 345 / 329 with the flag,
 * 318 / 303 with the flag and two arenas; then two arenas 315 / 309 against one 310 / 302. Backfill time and CPU
 * per MB within this host's spread in every variant (docs/CONTRIBUTING.md, the memory paragraph).
 * The cost: /api/health during the bench's 200-query bursts, p95 33.6 / 33.6 ms without the flag against 44–58 ms
 * with it (its p50 5 ms either way); V8 applies the flag to every isolate, so the main thread cannot keep a larger
 * young generation than the workers (bench/run.ts, the concurrency note).
 */
export const SERVER_NODE_ARGS: readonly string[] = ['--max-semi-space-size=4', '--heap-growing-percent=20'];
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '1' };

/** The environment the server runs in: the launch settings, then whatever the caller's environment says. */
export function serverEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...SERVER_ENV, ...env };
}
