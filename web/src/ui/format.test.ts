import { describe, expect, it } from 'vitest';
import { formatBytes, formatCompact, formatCount, formatDuration, formatRelative, plural, shortId } from './format';

const NOW = new Date(2026, 2, 15, 12, 0, 0).getTime();

describe('formatRelative', () => {
  it.each([
    [0, 'just now'],
    [4_000, 'just now'],
    [42_000, '42s ago'],
    [5 * 60_000 + 59_000, '5m ago'],
    [3 * 3600_000, '3h ago'],
    [12 * 86400_000, '12d ago'],
    [-30_000, 'just now'],
    [-2 * 3600_000, 'in 2h'],
  ])('%i ms before now → %s', (ago, text) => {
    expect(formatRelative(NOW - ago, NOW)).toBe(text);
  });

  it('shows the date for anything older than 30 days', () => {
    expect(formatRelative(new Date(2026, 0, 2, 9, 30).getTime(), NOW)).toBe('2026-01-02');
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0ms'],
    [850, '850ms'],
    [4213, '4.21s'],
    [42_500, '42.5s'],
    [65_000, '1m 05s'],
    [2 * 3600_000 + 3 * 60_000, '2h 03m'],
    [-1, '—'],
  ])('%i → %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});

describe('counts and sizes', () => {
  it('groups thousands, compacts for tight places, sizes in decimal units', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect([999, 1000, 1234, 12_345, 3_400_000].map(formatCompact)).toEqual(['999', '1k', '1.2k', '12k', '3.4M']);
    expect([512, 4000, 12_345_678].map(formatBytes)).toEqual(['512 B', '4.0 kB', '12 MB']);
    expect(plural(1, 'session')).toBe('1 session');
    expect(plural(1200, 'session')).toBe('1,200 sessions');
    expect(shortId('9f0c1e2d-aaaa-bbbb')).toBe('9f0c1e2d');
  });
});
