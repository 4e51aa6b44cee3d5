import { describe, expect, it } from 'vitest';
import { clampPaneWidth, paneLimits, paneWidthForKey } from './pane-width';

describe('pane width', () => {
  const limits = { min: 320, max: 560 };

  it('stays within its limits', () => {
    expect(clampPaneWidth(100, limits)).toBe(320);
    expect(clampPaneWidth(900, limits)).toBe(560);
    expect(clampPaneWidth(400.4, limits)).toBe(400);
    // a body too narrow for both: the pane keeps its minimum
    expect(clampPaneWidth(500, { min: 320, max: 200 })).toBe(320);
  });

  it('← widens the pane at the end, → narrows it, Shift for larger steps, Home/End to the limits', () => {
    expect(paneWidthForKey('ArrowLeft', false, 400, limits)).toBe(424);
    expect(paneWidthForKey('ArrowRight', false, 400, limits)).toBe(376);
    expect(paneWidthForKey('ArrowLeft', true, 400, limits)).toBe(496);
    expect(paneWidthForKey('ArrowLeft', true, 500, limits)).toBe(560);
    expect(paneWidthForKey('Home', false, 400, limits)).toBe(560);
    expect(paneWidthForKey('End', false, 400, limits)).toBe(320);
    expect(paneWidthForKey('j', false, 400, limits)).toBeNull();
  });

  it('leaves the main view its minimum width', () => {
    expect(paneLimits(984, 440, 320)).toEqual({ min: 320, max: 544 });
    expect(paneLimits(600, 440, 320)).toEqual({ min: 320, max: 320 });
  });
});
