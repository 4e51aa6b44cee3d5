import { describe, expect, it } from 'vitest';
import { effectiveTheme, parseChoice, toggledChoice } from './theme';

describe('theme choice', () => {
  it('follows the OS unless a valid choice is stored', () => {
    expect(parseChoice(null)).toBe('system');
    expect(parseChoice('purple')).toBe('system');
    expect(parseChoice('dark')).toBe('dark');
    expect(effectiveTheme('system', 'dark')).toBe('dark');
    expect(effectiveTheme('light', 'dark')).toBe('light');
  });

  it('the toggle shows the opposite theme, and a second press goes back to following the OS', () => {
    const first = toggledChoice('system', 'light');
    expect(first).toBe('dark');
    expect(toggledChoice(first, 'light')).toBe('system');
    expect(toggledChoice('system', 'dark')).toBe('light');
    expect(toggledChoice('light', 'dark')).toBe('system');
  });
});
