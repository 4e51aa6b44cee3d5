import { expect, it } from 'vitest';
import { fullCollection } from './full-collection';

it('collects what nothing holds any more, without node started with --expose-gc', async () => {
  const collect = fullCollection();
  const ref = new WeakRef({ big: new Array(1000).fill(1) });
  // a WeakRef's target stays alive until the end of the job that made it
  await new Promise((r) => setTimeout(r, 0));
  collect();
  expect(ref.deref()).toBeUndefined();
});
