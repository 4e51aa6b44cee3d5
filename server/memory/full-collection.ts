import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * A full garbage collection of the calling thread's isolate, for the threads that bound their own heap: the ingest
 * worker's heap watch, the search thread when a backfill settles, the read worker between a large span tree's load
 * chunks. `--expose-gc` set at run time exposes `gc` only to contexts made after it, hence a context of its own.
 */
export function fullCollection(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}
