import { describe, expect, it, vi } from 'vitest';
import { createShortcutRegistry, keyName } from './registry';

describe('shortcut registry', () => {
  it('lists what is registered, in order, and forgets a group once it is unregistered', () => {
    const r = createShortcutRegistry();
    const listener = vi.fn();
    r.subscribe(listener);
    const offList = r.register({ title: 'Slow calls', shortcuts: [{ keys: ['j', 'ArrowDown'], does: 'Next call' }] });
    r.register({ title: 'Go to', shortcuts: [{ keys: ['g s'], does: 'Sessions' }] });
    expect(r.groups()).toEqual([
      { title: 'Slow calls', shortcuts: [{ keys: ['j', 'ArrowDown'], does: 'Next call' }] },
      { title: 'Go to', shortcuts: [{ keys: ['g s'], does: 'Sessions' }] },
    ]);
    offList();
    expect(r.groups()).toEqual([{ title: 'Go to', shortcuts: [{ keys: ['g s'], does: 'Sessions' }] }]);
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('merges two registrations of one group and lists a shortcut once', () => {
    const r = createShortcutRegistry();
    r.register({ title: 'List', shortcuts: [{ keys: ['j'], does: 'Next' }] });
    r.register({ title: 'List', shortcuts: [{ keys: ['j'], does: 'Next' }, { keys: ['Enter'], does: 'Open' }] });
    expect(r.groups()).toEqual([{ title: 'List', shortcuts: [{ keys: ['j'], does: 'Next' }, { keys: ['Enter'], does: 'Open' }] }]);
  });

  it('keeps the snapshot identical between changes (useSyncExternalStore needs that)', () => {
    const r = createShortcutRegistry();
    r.register({ title: 'A', shortcuts: [] });
    expect(r.groups()).toBe(r.groups());
  });

  it('writes arrows and Escape as people read them', () => {
    expect(['ArrowDown', 'ArrowUp', 'Escape', 'j', '?'].map(keyName)).toEqual(['↓', '↑', 'Esc', 'j', '?']);
  });
});
