import { describe, expect, it } from 'vitest';
import { keyAction, toggleFold, withOpened } from './keyboard';

describe('keyAction', () => {
  it('maps the documented keys', () => {
    expect(keyAction({ key: 'j' })).toEqual({ type: 'move', by: 1 });
    expect(keyAction({ key: 'ArrowUp' })).toEqual({ type: 'move', by: -1 });
    expect(keyAction({ key: 'ArrowLeft' })).toEqual({ type: 'fold' });
    expect(keyAction({ key: 'ArrowRight' })).toEqual({ type: 'unfold' });
    expect(keyAction({ key: 'Enter' })).toEqual({ type: 'open' });
    expect(keyAction({ key: ']' })).toEqual({ type: 'seek-error', dir: 'next' });
    expect(keyAction({ key: '[' })).toEqual({ type: 'seek-error', dir: 'prev' });
    expect(keyAction({ key: 'e' })).toEqual({ type: 'expand-all' });
    expect(keyAction({ key: 'E' })).toEqual({ type: 'collapse-all' });
    expect(keyAction({ key: '/' })).toEqual({ type: 'focus-filter' });
    expect(keyAction({ key: 'PageDown' }, 30)).toEqual({ type: 'move', by: 30 });
  });

  it('leaves modified keys and others to the browser', () => {
    expect(keyAction({ key: 'j', ctrlKey: true })).toBeNull();
    expect(keyAction({ key: 'e', metaKey: true })).toBeNull();
    expect(keyAction({ key: 'x' })).toBeNull();
  });
});

describe('toggleFold and withOpened', () => {
  it('flips an id in the sorted list of folds changed from the default', () => {
    expect(toggleFold([5, 9], 7)).toEqual([5, 7, 9]);
    expect(toggleFold([5, 7, 9], 7)).toEqual([5, 9]);
    expect(withOpened([3], [3, 8])).toEqual([8]);
  });
});
