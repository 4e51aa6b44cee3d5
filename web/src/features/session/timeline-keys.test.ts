import { describe, expect, it } from 'vitest';
import { TREE_KEYS } from './keyboard';
import { TIMELINE_KEYS, timelineAction, zoomAfter } from './timeline-keys';

describe('timeline keys', () => {
  it('clash with none of the tree keys, nor with the second key of a `g` sequence', () => {
    const tree = new Set(TREE_KEYS.flatMap((k) => k.keys));
    const goTo = ['s', 'f', 't', 'l', 'u', 'c', 'q', 'h', 'g'];
    for (const key of TIMELINE_KEYS.flatMap((k) => k.keys)) {
      expect(tree.has(key), key).toBe(false);
      expect(goTo.includes(key), key).toBe(false);
    }
  });

  it('zoom in and out by one step around the middle, 0 for everything, a/d pan', () => {
    const inward = zoomAfter(timelineAction('+')!, null)!;
    expect(inward[0]).toBeCloseTo(1 / 6, 12);
    expect(inward[1]).toBeCloseTo(5 / 6, 12);
    expect(zoomAfter(timelineAction('=')!, null)).toEqual(zoomAfter(timelineAction('+')!, null));
    const out = zoomAfter(timelineAction('-')!, [0.4, 0.6])!;
    expect(out[0]).toBeCloseTo(0.35, 12);
    expect(out[1]).toBeCloseTo(0.65, 12);
    expect(zoomAfter(timelineAction('0')!, [0.4, 0.6])).toBeNull();
    const right = zoomAfter(timelineAction('d')!, [0.4, 0.6])!;
    expect(right[0]).toBeCloseTo(0.44, 12);
    const left = zoomAfter(timelineAction('A')!, [0.4, 0.6])!;
    expect(left[0]).toBeCloseTo(0.2, 12);
    expect(left[1]).toBeCloseTo(0.4, 12);
    expect(zoomAfter(timelineAction('z')!, [0.4, 0.6])).toBeUndefined();
    expect(timelineAction('x')).toBeNull();
  });
});
