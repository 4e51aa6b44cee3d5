import { describe, expect, it } from 'vitest';
import { HeapWatch } from './heap-watch';

const MB = 2 ** 20;

describe('HeapWatch', () => {
  it('collects each time the used heap passes the limit: the floor, or what survived plus the headroom when that is more', () => {
    let used = 0;
    let live = 10 * MB;
    const collections: number[] = [];
    const w = new HeapWatch({ floorBytes: 48 * MB, headroomBytes: 32 * MB, usedHeap: () => used, collect: () => (collections.push(used / MB), (used = live)) });
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
});
