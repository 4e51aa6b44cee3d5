import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { budgetedHeadroom, oldGenerationAndBuffersInUse, HeapWatch, scheduleChecks } from './heap-watch';

const MB = 2 ** 20;

describe('HeapWatch', () => {
  it('collects each time the used heap passes the limit: the floor, or what survived plus the headroom when that is more', () => {
    let used = 0;
    let live = 10 * MB;
    const collections: number[] = [];
    const w = new HeapWatch({ floorBytes: 48 * MB, headroomBytes: 32 * MB, inUse: () => used, collect: () => (collections.push(used / MB), (used = live)) });
    const at = (mb: number) => ((used = mb * MB), w.check());
    expect([at(20), at(48), at(49), at(30), at(49)]).toEqual([false, false, true, false, true]);
    expect(collections).toEqual([49, 49]);
    // 60 MB alive across the check (a huge line, a big plan): collected once, then not again before 60 + 32
    live = 60 * MB;
    expect([at(70), at(90), at(92), at(93)]).toEqual([true, false, false, true]);
    // once it is gone, the next collection puts the limit back to the floor
    live = 10 * MB;
    expect([at(50), at(93), at(49)]).toEqual([false, true, true]);
    expect(collections).toEqual([49, 49, 70, 93, 93, 49]);
  });

  it('collect(): a collection asked for at any moment sets the limit from what survives it, as its own do', () => {
    let used = 0;
    let live = 60 * MB;
    const collections: number[] = [];
    const w = new HeapWatch({ floorBytes: 48 * MB, headroomBytes: 32 * MB, inUse: () => used, collect: () => (collections.push(used / MB), (used = live)) });
    const at = (mb: number) => ((used = mb * MB), w.check());
    expect(at(93)).toBe(true); // the backfill's busiest moment: 60 MB survive, the limit 92
    expect(w.limit).toBe(92 * MB);
    live = 12 * MB; // the backfill over, its plan and caches let go
    used = 40 * MB;
    w.collect();
    expect([w.liveAfterCollect, w.limit]).toEqual([12 * MB, 48 * MB]);
    expect([at(47), at(49)]).toEqual([false, true]);
    expect(collections).toEqual([93, 40, 49]);
  });

  it('counts the memory array buffers hold outside the heap (the line bytes of a batch), not the heap alone', () => {
    const before = oldGenerationAndBuffersInUse();
    const lines = Array.from({ length: 20 }, () => Buffer.alloc(MB, 1));
    const after = oldGenerationAndBuffersInUse();
    expect(lines.length).toBe(20);
    expect(after - before).toBeGreaterThanOrEqual(20 * MB);
    expect(after - before).toBeLessThan(21 * MB);
  });

  it('does not count the young generation: what a batch allocates there is emptied by scavenges, not by the watch', () => {
    // In a process of its own, with room in the young generation and no pretenuring: in the test worker, a scavenge
    // or a compilation falling inside the measure moved either figure by hundreds of KB, one run in twenty.
    const module = path.resolve('server/ingest/heap-watch.ts');
    const script = `
      import v8 from 'node:v8';
      import { oldGenerationAndBuffersInUse } from ${JSON.stringify(module)};
      // ~400 KB of new objects, alive while measured: young until they live through two scavenges
      const batch = () => Array.from({ length: 5000 }, (_, i) => ({ i, text: \`line \${i} of a batch that is being written\` }));
      batch(); // compiled now: bytecode and code live in the old generation
      gc(); // an empty young generation: no scavenge inside the measure
      const heapBefore = v8.getHeapStatistics().used_heap_size;
      const before = oldGenerationAndBuffersInUse();
      const young = batch();
      const heapGrew = v8.getHeapStatistics().used_heap_size - heapBefore;
      const counted = oldGenerationAndBuffersInUse() - before;
      console.log(JSON.stringify({ n: young.length, heapGrew, counted }));
    `;
    const flags = ['--expose-gc', '--max-semi-space-size=16', '--no-allocation-site-pretenuring'];
    const r = spawnSync(process.execPath, [...flags, '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    const { n, heapGrew, counted } = JSON.parse(r.stdout) as { n: number; heapGrew: number; counted: number };
    expect(n).toBe(5000);
    expect(heapGrew).toBeGreaterThan(300 * 1024);
    expect(counted).toBeLessThan(100 * 1024);
  });

  it('takes what survived from the check after a collection, once the freed buffers are swept, not from the figure right after it', () => {
    let used = 0;
    let unswept = 0;
    const collections: number[] = [];
    const w = new HeapWatch({
      floorBytes: 48 * MB,
      headroomBytes: 32 * MB,
      inUse: () => used + unswept,
      // 20 MB survive; 40 MB of freed buffers are still counted until the sweeper has run (the next check)
      collect: () => (collections.push((used + unswept) / MB), (used = 20 * MB), (unswept = 40 * MB)),
    });
    const at = (mb: number) => {
      const r = ((used = mb * MB), w.check());
      unswept = 0;
      return r;
    };
    expect(at(70)).toBe(true);
    expect(w.limit / MB).toBe(92);
    // swept by the next check: 20 MB + that check's 5 MB of new garbage survived, and the limit follows
    expect(at(25)).toBe(false);
    expect([w.liveAfterCollect / MB, w.limit / MB]).toEqual([25, 57]);
    expect([at(57), at(58)]).toEqual([false, true]);
    expect(collections).toEqual([70, 58]);
  });

  it("keeps garbage while the process has room, and as little as before once it nears its budget (the headroom follows RSS)", () => {
    let rss = 150 * MB;
    const headroom = budgetedHeadroom({ rss: () => rss, budget: 256 * MB, min: 16 * MB, max: 96 * MB });
    expect([150, 200, 240, 250, 300].map((r) => ((rss = r * MB), headroom() / MB))).toEqual([96, 56, 16, 16, 16]);
    let used = 0;
    const collections: number[] = [];
    const w = new HeapWatch({ floorBytes: 48 * MB, headroomBytes: headroom, inUse: () => used, collect: () => (collections.push(used / MB), (used = 40 * MB)) });
    const at = (mb: number) => ((used = mb * MB), w.check());
    rss = 150 * MB; // room: 96 MB of garbage allowed, then 40 MB live + 96
    expect([at(60), at(97), at(130), at(137)]).toEqual([false, true, false, true]);
    rss = 245 * MB; // near the budget: the same heap is collected at 40 + 16
    expect([at(50), at(57)]).toEqual([false, true]);
    expect(collections).toEqual([97, 137, 57]);
  });
});

describe('scheduleChecks', () => {
  /** Runs the schedule on a fake clock against a memory figure the test moves; returns the gaps between checks. */
  function run(figures: number[]): number[] {
    let pending: { fn: () => void; ms: number } | null = null;
    const gaps: number[] = [];
    let i = 0;
    const watch = {
      lastInUse: 0,
      check() {
        this.lastInUse = figures[Math.min(i++, figures.length - 1)];
        return false;
      },
    };
    scheduleChecks(watch, { busyMs: 100, quietMs: 1000, quietAfter: 3, quietBytes: 10 }, { set: (fn, ms) => (pending = { fn, ms }), clear: () => (pending = null) });
    for (let n = 0; n < figures.length && pending; n++) {
      const p: { fn: () => void; ms: number } = pending;
      gaps.push(p.ms);
      p.fn();
    }
    return gaps;
  }

  it('checks ten times a second while the memory in use moves, once a second after it stood still, and fast again at the first move', () => {
    // 100 → 200 moves; then four checks within 10 bytes (three in a row make it quiet); then a move of 1,000
    expect(run([100, 200, 205, 200, 208, 204, 1204, 1300, 1300, 1300, 1300])).toEqual([100, 100, 100, 100, 100, 1000, 1000, 100, 100, 100, 100]);
  });

  it('a collection is not quiet, whatever the figure after it', () => {
    let pending: (() => void) | null = null;
    const gaps: number[] = [];
    const watch = { lastInUse: 50, check: () => true };
    scheduleChecks(watch, { busyMs: 100, quietMs: 1000, quietAfter: 1, quietBytes: 10 }, {
      set: (fn, ms) => {
        gaps.push(ms);
        pending = fn;
      },
      clear: () => {},
    });
    for (let n = 0; n < 4; n++) (pending as unknown as () => void)();
    expect(gaps).toEqual([100, 100, 100, 100, 100]);
  });
});
