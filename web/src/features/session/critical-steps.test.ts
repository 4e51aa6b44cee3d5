import { describe, expect, it } from 'vitest';
import { stepAlongPath } from './critical-steps';

const path = [
  { id: 10, from: 0, to: 5 },
  { id: 14, from: 5, to: 40 },
  { id: 12, from: 40, to: 41 },
];

describe('stepping along the critical path', () => {
  it('goes to the next and previous step in time order, and stops at the ends', () => {
    expect([stepAlongPath(path, 10, 1), stepAlongPath(path, 14, 1), stepAlongPath(path, 12, 1)]).toEqual([14, 12, null]);
    expect([stepAlongPath(path, 12, -1), stepAlongPath(path, 14, -1), stepAlongPath(path, 10, -1)]).toEqual([14, 10, null]);
  });

  it('starts at the first (forward) or last (backward) step when the selection is off the path or none', () => {
    expect([stepAlongPath(path, 99, 1), stepAlongPath(path, null, 1), stepAlongPath(path, 99, -1), stepAlongPath(path, null, -1)]).toEqual([10, 10, 12, 12]);
    expect(stepAlongPath([], 10, 1)).toBeNull();
  });
});
