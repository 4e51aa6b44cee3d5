import { lazy, Suspense, type ComponentType } from 'react';
import { Spinner } from '../ui/Spinner';

// Pages other than the first one (Sessions) are separate chunks, loaded when first visited, and so is the lineage
// graph inside the session view: the charts and graph libraries weigh more than the rest of the app together.

const RELOADED_AT = 'chronoscope:chunk-reload-at';
/** A second failure within this long of a reload is not cured by reloading again: it is shown. */
const RELOAD_WINDOW_MS = 10_000;

export interface ChunkRecovery {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  reload(): void;
  now(): number;
}

/**
 * Loads a page's module. A failed chunk is almost always a tab opened before the server was rebuilt (the old
 * hashed file is gone): one reload fetches the new index.html and its chunks. If that does not cure it, the
 * error says what happened instead of reloading forever.
 */
export async function loadChunk<M>(load: () => Promise<M>, recovery: ChunkRecovery): Promise<M> {
  try {
    return await load();
  } catch (err) {
    const last = Number(recovery.storage.getItem(RELOADED_AT) ?? 0);
    if (recovery.now() - last > RELOAD_WINDOW_MS) {
      recovery.storage.setItem(RELOADED_AT, String(recovery.now()));
      recovery.reload();
      return new Promise<M>(() => {}); // the page goes away
    }
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`This page's code could not be loaded from the Chronoscope server (${reason}). Is the server still running? Reload to try again.`);
  }
}

const browserRecovery: ChunkRecovery = {
  storage: { getItem: (k) => sessionStorage.getItem(k), setItem: (k, v) => sessionStorage.setItem(k, v) },
  reload: () => window.location.reload(),
  now: () => Date.now(),
};

/** React.lazy over one named export of a chunk, recovering from a stale chunk as loadChunk does. */
export function lazyComponent<P extends object, K extends string, M extends Record<K, ComponentType<P>>>(load: () => Promise<M>, name: K) {
  return lazy(() => loadChunk(load, browserRecovery).then((m) => ({ default: m[name] as ComponentType<P> })));
}

/** A route element for a page in its own chunk, with a light fallback while it loads. */
export function lazyPage<K extends string, M extends Record<K, ComponentType>>(load: () => Promise<M>, name: K) {
  const Page = lazyComponent<object, K, M>(load, name);
  return (
    <Suspense fallback={<PageLoading />}>
      <Page />
    </Suspense>
  );
}

/** Shown only when loading takes long enough to notice (CSS delays it), so a fast load does not flash. */
function PageLoading() {
  return (
    <section className="page page-loading" aria-busy="true">
      <Spinner label="Loading page" />
    </section>
  );
}
