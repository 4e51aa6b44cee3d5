/**
 * Waiting in tests for something the server does in the background (a watcher event, a retry, a refill).
 *
 * The default wait is generous on purpose: a test only waits that long when it is failing, and on the CI machine's
 * busy days a watcher event took more than 10 s to reach the API, where it takes ~100 ms on an idle machine.
 */
export const WAIT_MS = 40_000;

/** Probes every `everyMs` until `ok` holds and returns that value; throws with the last value after `timeoutMs`. */
export async function until<T>(probe: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs = WAIT_MS, everyMs = 50): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(v)?.slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
