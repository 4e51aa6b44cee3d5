import type { Page } from '@playwright/test';

/**
 * Dispatches keydown events for `keys` in one task, at the focused element (bubbling to the window's listeners): no
 * render can come between them, as it can between real presses, so each key must step from what the one before it
 * asked for (web/src/app/url-state.ts, the list and tree keys).
 */
export function pressInOneTask(page: Page, keys: string[]): Promise<void> {
  return page.evaluate((ks) => {
    const target = document.activeElement ?? window;
    for (const key of ks) target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
  }, keys);
}
