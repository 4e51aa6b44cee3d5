import { describe, expect, it } from 'vitest';
import { onePerTurn } from './one-per-turn';

describe('onePerTurn', () => {
  it('lets its callers go in order, each in a turn of its own (all that one does finishes before the next goes)', async () => {
    const turn = onePerTurn();
    const order: string[] = [];
    const all = ['a', 'b', 'c'].map((x) =>
      turn().then(() => {
        order.push(x);
        void Promise.resolve().then(() => order.push(`${x} done`));
      }),
    );
    await Promise.all(all);
    // released together, b would start before a's promise chain (an answer's JSON and socket write) ran out
    expect(order).toEqual(['a', 'a done', 'b', 'b done', 'c', 'c done']);
  });

  it('starts again after it ran dry', async () => {
    const turn = onePerTurn();
    await turn();
    await turn();
    expect(await Promise.all([turn(), turn()])).toEqual([undefined, undefined]);
  });
});
