// @ts-check
// The deflate thread (deflate-thread.ts is its ingest side, and states the protocol). Plain JavaScript that needs
// no loader: every ingest writer starts one, tests included, and a worker run through tsx took ~100 ms to start
// against ~16 ms.
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import { workerData } from 'node:worker_threads';
import zlib from 'node:zlib';

/** @type {{ control: SharedArrayBuffer; slots: { arena: SharedArrayBuffer; out: SharedArrayBuffer }[]; layout: Record<string, number>; level: number; nice: number }} */
const input = workerData;
const L = input.layout;
const control = new Int32Array(input.control);
const arenas = input.slots.map((s) => Buffer.from(s.arena));
const outs = input.slots.map((s) => Buffer.from(s.out));
const options = { level: input.level };
// Its work has slack (a batch is taken only once the batch before it is written) and must never take a core from the
// threads that answer queries and /api/health: at nice 10 the scheduler runs it when they do not need the core. On
// Linux a thread's nice value is its own (setpriority with pid 0 is the calling thread); elsewhere the same call
// would lower the whole process, so it is not made.
if (process.platform === 'linux') {
  try {
    os.setPriority(0, input.nice);
  } catch {
    // a sandbox that refuses it: the thread runs at the process's priority
  }
}
// Each deflateRawSync returns a Buffer of its own (16 KB of zlib's output chunk at least), malloc'ed outside V8's
// heap, and a thread that allocates almost nothing else waits long for a scavenge to free them: the process's peak
// RSS rose ~20 MB with this thread. A young-generation collection every few MB of them keeps it to one or two.
v8.setFlagsFromString('--expose-gc');
/** @type {(o: { type: string }) => void} */
const collect = vm.runInNewContext('gc');
const COLLECT_EVERY_BYTES = 4 * 1024 * 1024;
let allocated = 0;

/** Deflates the chunks a slot's descriptor lists, from its arena into its output buffer, and records where each landed. */
function run(/** @type {number} */ slot) {
  const at = L.DESCRIPTORS + slot * L.DESCRIPTOR_INTS;
  const count = control[at + L.COUNT];
  const out = outs[slot];
  let used = 0;
  let status = L.DONE_OK;
  for (let i = 0; i < count; i++) {
    const c = at + L.CHUNKS + i * L.CHUNK_INTS;
    const data = zlib.deflateRawSync(arenas[slot].subarray(control[c], control[c] + control[c + 1]), options);
    if (used + data.length > out.length) {
      status = L.DONE_TOO_BIG; // the ingest deflates this batch itself
      break;
    }
    allocated += Math.max(data.length, 16 * 1024);
    data.copy(out, used);
    control[c + 2] = used;
    control[c + 3] = data.length;
    used += data.length;
  }
  control[at + L.STATUS] = status;
}

let done = Atomics.load(control, L.DONE);
for (;;) {
  // Sleeps until a job is submitted (or the ingest asks it to stop): no event loop, nothing else to wait for.
  Atomics.wait(control, L.SUBMITTED, done);
  if (Atomics.load(control, L.STOP) !== 0) break;
  const submitted = Atomics.load(control, L.SUBMITTED);
  while (done < submitted) {
    run(control[L.QUEUE + (done % L.QUEUE_LENGTH)]);
    done++;
    Atomics.store(control, L.DONE, done);
    Atomics.notify(control, L.DONE);
  }
  if (allocated > COLLECT_EVERY_BYTES) {
    collect({ type: 'minor' });
    allocated = 0;
  }
}
