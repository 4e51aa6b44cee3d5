import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { DEFLATE_LEVEL, chunkRanges, deflateRanges, type ChunkRange } from './archive-chunks';
import { RING_SLOTS, SLOT_BYTES } from './batch-ring';

/**
 * A batch's archive chunks: which lines each holds and their bytes joined (`bytes`, readable at once), and their
 * deflated data, which `take()` returns, waiting if need be. The store writes the batch's lines and events first and
 * takes the chunks last, so the deflate runs on the other core meanwhile (store.ts, writeBatch).
 */
export interface PendingChunks {
  readonly ranges: readonly ChunkRange[];
  /** where the deflate runs: the deflate thread (unless it fails before `take`), or the ingest thread at `take` */
  readonly where: 'thread' | 'here';
  take(): Buffer[];
}

/** Chunks deflated on this thread when taken (tests, a batch that does not fit a slot, a deflate thread gone). */
export function deflatedHere(lines: readonly { bytes: Buffer }[], arena?: Buffer): PendingChunks {
  const ranges = chunkRanges(lines, arena);
  return { ranges, where: 'here', take: () => deflateRanges(ranges) };
}

/**
 * The protocol, in one Int32Array over shared memory (the thread's side: deflate-thread-main.mjs):
 * the ingest packs a batch's chunks into its slot's arena, writes the slot's descriptor (where each chunk is), puts
 * the slot in the queue and adds 1 to SUBMITTED; the thread deflates the queued slots in order into each slot's
 * output buffer, records where each chunk landed and the status, and adds 1 to DONE. A slot's job is numbered by
 * SUBMITTED; it is done once DONE reaches that number. No message, no event loop turn on either side: the ingest
 * blocks (Atomics.wait) only when it takes chunks not yet done, and the thread sleeps on SUBMITTED.
 */
const LAYOUT = (() => {
  const MAX_CHUNKS = 64;
  const CHUNK_INTS = 4; // input offset, input length, output offset, output length
  const DESCRIPTOR_INTS = 2 + MAX_CHUNKS * CHUNK_INTS;
  const QUEUE = 4;
  const QUEUE_LENGTH = RING_SLOTS;
  return {
    SUBMITTED: 0,
    DONE: 1,
    STOP: 2,
    QUEUE,
    QUEUE_LENGTH,
    DESCRIPTORS: QUEUE + QUEUE_LENGTH,
    DESCRIPTOR_INTS,
    COUNT: 0,
    STATUS: 1,
    CHUNKS: 2,
    CHUNK_INTS,
    MAX_CHUNKS,
    DONE_OK: 1,
    DONE_TOO_BIG: 2,
  };
})();
type Layout = typeof LAYOUT;

/** A slot's output: the worst case of deflate is a few bytes per 16 KB stored block more than its input. */
const OUT_BYTES = SLOT_BYTES + SLOT_BYTES / 256 + 64 * 1024;
/**
 * How long take() waits for the thread before it deflates the batch itself and stops using the thread: it only runs
 * out when the thread is gone (an 8 MB batch deflates in ~25 ms; a busy second core delays it by milliseconds).
 */
export const DEFLATE_WAIT_MS = 2000;

/**
 * The thread's nice value (Linux): below the threads that answer queries and /api/health. Two full benches with it at
 * the process's priority read /api/health p95 50.1 and 54.8 ms during the bursts (three before it: 37.0–41.3), though
 * 100-burst probes alternated with the code before it could not tell them apart (35.4 against 36.5 ms, medians of 5).
 */
export const DEFLATE_THREAD_NICE = 10;

/** It allocates little but zlib's output buffers (collected every few MB: deflate-thread-main.mjs): a small isolate. */
const DEFLATE_RESOURCE_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16, stackSizeMb: 1 };

const here = path.dirname(fileURLToPath(import.meta.url));
/** The bundled `deflate-thread.js` beside the server bundle, or the source (plain JavaScript, no loader). */
const threadScript = () => (import.meta.url.endsWith('.ts') ? path.join(here, 'deflate-thread-main.mjs') : path.join(here, 'deflate-thread.js'));

/** A slot of the ring in shared memory: the arena its chunks are joined into (the thread's input) and its output. */
export interface SharedSlot {
  readonly arena: Buffer;
  readonly out: Buffer;
  /** the job number of the last job of this slot (0: none); the arena is not rewritten before it is done */
  job: number;
}

/**
 * The archive's deflate on a thread of its own, for one writer's batches (IngestStore). Why: deflating a batch was
 * ~7% of the ingest thread, the critical path of a backfill (V8 profiles of the 0.25× bench corpus and the held-out
 * one): ~5% for the first batch of each file, deflated on the ingest thread because nothing overlapped it, ~2% for the
 * libuv pool's round trips of the batches read ahead (a zlib stream per chunk, its callback on the ingest thread).
 * Here every batch's deflate starts as soon as it is read and is taken once its lines and events are written.
 *
 * Failures end in the old path, never in a loss: a batch too large for a slot, a thread that cannot start, dies or
 * does not answer within DEFLATE_WAIT_MS is deflated on the ingest thread, and the thread is not used again.
 */
export class DeflateThread {
  private worker: Worker | null = null;
  private control!: Int32Array;
  private slots: SharedSlot[] = [];
  private broken = false;
  private submitted = 0;
  private readonly layout: Layout = LAYOUT;

  /** `waitMs`: how long take() waits for the thread (DEFLATE_WAIT_MS; tests shorten it). */
  constructor(private readonly waitMs = DEFLATE_WAIT_MS) {}

  /** Batches handed to the thread so far. */
  get jobs(): number {
    return this.submitted;
  }

  /** Whether batches go to the thread (false once it failed or was stopped). */
  get working(): boolean {
    return !this.broken;
  }

  /** Slot `i`'s shared memory, allocated (and the thread started) on first use. Null once the thread is broken. */
  slot(i: number): SharedSlot | null {
    if (this.broken) return null;
    if (this.worker === null && !this.start()) return null;
    return this.slots[i];
  }

  private start(): boolean {
    const L = this.layout;
    const control = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * (L.DESCRIPTORS + RING_SLOTS * L.DESCRIPTOR_INTS));
    const shared = Array.from({ length: RING_SLOTS }, () => ({ arena: new SharedArrayBuffer(SLOT_BYTES), out: new SharedArrayBuffer(OUT_BYTES) }));
    try {
      this.worker = new Worker(threadScript(), {
        workerData: { control, slots: shared, layout: L, level: DEFLATE_LEVEL, nice: DEFLATE_THREAD_NICE },
        resourceLimits: DEFLATE_RESOURCE_LIMITS,
      });
    } catch {
      this.broken = true;
      return false;
    }
    this.control = new Int32Array(control);
    this.slots = shared.map((s) => ({ arena: Buffer.from(s.arena), out: Buffer.from(s.out), job: 0 }));
    // It never keeps the process alive, and a thread that dies or fails is not used again (take() deflates here).
    this.worker.unref();
    this.worker.on('error', () => (this.broken = true));
    this.worker.on('exit', () => (this.broken = true));
    return true;
  }

  /**
   * Starts deflating a batch's chunks on the thread, joined into slot `i`'s arena. Deflated here when taken instead
   * (joined into `arena`, the batch ring's own slot) when the thread is broken, the batch does not fit the shared
   * arena or has more chunks than a descriptor holds.
   */
  deflate(i: number, lines: readonly { bytes: Buffer }[], arena?: Buffer): PendingChunks {
    const slot = this.slot(i);
    if (slot === null) return deflatedHere(lines, arena);
    // The arena is the slot's last job's input: wait for that job (a batch read ahead and dropped) before rewriting it.
    if (!this.await(slot.job)) return deflatedHere(lines, arena);
    const ranges = chunkRanges(lines, slot.arena, true);
    const L = this.layout;
    if (ranges === null || ranges.length > L.MAX_CHUNKS) return deflatedHere(lines, arena);
    const at = L.DESCRIPTORS + i * L.DESCRIPTOR_INTS;
    const c = this.control;
    c[at + L.COUNT] = ranges.length;
    c[at + L.STATUS] = 0;
    ranges.forEach((r, k) => {
      c[at + L.CHUNKS + k * L.CHUNK_INTS] = r.bytes.byteOffset - slot.arena.byteOffset;
      c[at + L.CHUNKS + k * L.CHUNK_INTS + 1] = r.bytes.length;
    });
    // Jobs are done in order and each slot has at most one undone, so the undone jobs are consecutive numbers, at
    // most RING_SLOTS of them: distinct places in a queue of RING_SLOTS.
    const job = ++this.submitted;
    c[L.QUEUE + ((job - 1) % L.QUEUE_LENGTH)] = i;
    slot.job = job;
    Atomics.store(c, L.SUBMITTED, job);
    Atomics.notify(c, L.SUBMITTED);
    return {
      ranges,
      where: 'thread',
      take: () => {
        // the thread's answer, unless it is gone, late or the output did not fit: then this thread deflates
        if (!this.await(job) || c[at + L.STATUS] !== L.DONE_OK) return deflateRanges(ranges);
        return ranges.map((_, k) => {
          const o = at + L.CHUNKS + k * L.CHUNK_INTS;
          return slot.out.subarray(c[o + 2], c[o + 2] + c[o + 3]);
        });
      },
    };
  }

  /** Blocks until job `job` is done; false (and the thread is not used again) when it is broken or does not answer. */
  private await(job: number): boolean {
    const L = this.layout;
    const deadline = performance.now() + this.waitMs;
    for (;;) {
      const done = Atomics.load(this.control, L.DONE);
      if (done >= job) return true;
      const left = deadline - performance.now();
      if (this.broken || left <= 0) {
        this.fail();
        return false;
      }
      Atomics.wait(this.control, L.DONE, done, Math.min(left, 50));
    }
  }

  private fail(): void {
    this.broken = true;
    void this.worker?.terminate();
  }

  /**
   * Ends the thread as a crash would (tests). `unnoticed`: this side is not told either (no 'exit' event), as when
   * the thread hangs: the jobs it was given are never done.
   */
  async crashForTest(unnoticed = false): Promise<void> {
    if (unnoticed) this.worker?.removeAllListeners('exit').removeAllListeners('error');
    await this.worker?.terminate();
  }

  /** Stops the thread; later batches are deflated on the calling thread. */
  stop(): void {
    if (this.worker === null || this.broken) {
      this.broken = true;
      return;
    }
    this.broken = true;
    Atomics.store(this.control, this.layout.STOP, 1);
    Atomics.add(this.control, this.layout.SUBMITTED, 1); // wakes it: SUBMITTED no longer equals what it has done
    Atomics.notify(this.control, this.layout.SUBMITTED);
  }
}
