import { describe, expect, it } from 'vitest';
import { BatchRing, RING_SLOTS } from './batch-ring';

describe('BatchRing', () => {
  it('hands its slots out in turn, the same buffers each time round', () => {
    const ring = new BatchRing();
    const first = Array.from({ length: RING_SLOTS }, () => ring.next());
    expect(new Set(first).size).toBe(RING_SLOTS);
    expect(Array.from({ length: RING_SLOTS }, () => ring.next())).toEqual(first);
    expect(ring.next()).toBe(first[0]);
  });

  it('after release, hands out fresh memory and leaves what a batch still holds untouched', () => {
    const ring = new BatchRing();
    ring.next();
    const held = ring.next(); // the batch read ahead when the worker went idle
    held.lines.fill(7, 0, 16);
    ring.release();
    const after = Array.from({ length: RING_SLOTS }, () => ring.next());
    for (const slot of after) {
      expect(slot.lines.buffer).not.toBe(held.lines.buffer);
      slot.lines.fill(1);
    }
    expect([...held.lines.subarray(0, 16)]).toEqual(new Array(16).fill(7));
    // and the ring starts again at its first slot
    expect(ring.next()).toBe(after[0]);
  });
});
