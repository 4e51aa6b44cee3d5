import { describe, expect, it } from 'vitest';
import { goShortcutStep, NAV_ITEMS } from './nav';

describe('go shortcuts', () => {
  it('g then a page key goes to that page', () => {
    const afterG = goShortcutStep(null, 'g', 1000);
    expect(afterG).toEqual({ to: null, pending: { key: 'g', at: 1000 } });
    expect(goShortcutStep(afterG.pending, 't', 1200)).toEqual({ to: '/triage', pending: null });
    expect(goShortcutStep(afterG.pending, 'h', 1200).to).toBe('/health');
  });

  it('a pending g expires, and other keys do nothing', () => {
    expect(goShortcutStep({ key: 'g', at: 0 }, 's', 5000).to).toBeNull();
    expect(goShortcutStep({ key: 'g', at: 0 }, 'x', 10)).toEqual({ to: null, pending: null });
    expect(goShortcutStep(null, 's', 0).to).toBeNull();
  });

  it('Sessions is the current page for the list and for one session', () => {
    const sessions = NAV_ITEMS[0];
    expect(['/', '/session/abc', '/search'].map(sessions.matches)).toEqual([true, true, false]);
  });
});
