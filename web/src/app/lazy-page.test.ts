import { describe, expect, it } from 'vitest';
import { loadChunk, type ChunkRecovery } from './lazy-page';

function recovery(now: number, stored: Record<string, string> = {}) {
  const reloads: number[] = [];
  const r: ChunkRecovery = {
    storage: { getItem: (k) => stored[k] ?? null, setItem: (k, v) => void (stored[k] = v) },
    reload: () => reloads.push(now),
    now: () => now,
  };
  return { r, reloads, stored };
}

const stale = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1:7311/assets/TriagePage-old.js'));

describe('loading a page chunk', () => {
  it('returns the module when it loads', async () => {
    const { r, reloads } = recovery(1000);
    await expect(loadChunk(() => Promise.resolve({ Page: 'p' }), r)).resolves.toEqual({ Page: 'p' });
    expect(reloads).toEqual([]);
  });

  it('a chunk gone after a rebuild reloads the page once (the new index.html names the new chunks)', async () => {
    const { r, reloads, stored } = recovery(50_000);
    const pending = loadChunk(stale, r);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(reloads).toEqual([50_000]);
    expect(stored).toEqual({ 'chronoscope:chunk-reload-at': '50000' });
    expect(await Promise.race([pending.then(() => 'settled'), Promise.resolve('pending')])).toBe('pending');
  });

  it('failing again right after that reload says so instead of reloading forever', async () => {
    const { r, reloads } = recovery(55_000, { 'chronoscope:chunk-reload-at': '50000' });
    await expect(loadChunk(stale, r)).rejects.toThrow(
      "This page's code could not be loaded from the Chronoscope server (Failed to fetch dynamically imported module: http://127.0.0.1:7311/assets/TriagePage-old.js). Is the server still running? Reload to try again.",
    );
    expect(reloads).toEqual([]);
  });
});
