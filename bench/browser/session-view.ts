// Session view benchmark (issue 4 acceptance): opens /session/<id> in Chromium and measures
//  - ttiMs: from navigation until the tree shows rows *and* answers a key (j selects a row): interactive;
//  - fps: frames per second while the tree and waterfall scroll continuously (scrollTop moved every frame);
//  - domRows: the most tree rows in the DOM at any time while scrolling (virtualization keeps it small).
// Usage from the benchmark runner: `await measureSessionView('http://127.0.0.1:7400', sessionId)`, or
// `npx tsx bench/browser/session-view.ts <baseUrl> <sessionId>` for a one-off run.
import { chromium } from '@playwright/test';

export interface SessionViewMeasure {
  ttiMs: number;
  fps: number;
  domRows: number;
}

const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export async function measureSessionView(
  baseUrl: string,
  sessionId: string,
  opts: { scrollMs?: number; pxPerFrame?: number; expandAll?: boolean } = {},
): Promise<SessionViewMeasure> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: LAUNCH_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // Load the shell once (fonts, bundle in the HTTP cache), as a user who already has the app open would.
    await page.goto(`${baseUrl}/`);
    await page.waitForLoadState('networkidle');
    const started = Date.now();
    await page.goto(`${baseUrl}/session/${encodeURIComponent(sessionId)}`);
    await page.locator('[role=treeitem]').first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('j');
    await page.locator('[role=treeitem][aria-selected=true]').first().waitFor({ timeout: 30_000 });
    const ttiMs = Date.now() - started;
    if (opts.expandAll ?? true) {
      // Every subagent open: the longest list the tree can be (one row per event).
      const before = await page.locator('.span-head-count').textContent();
      await page.keyboard.press('e');
      await page.waitForFunction(`document.querySelector('.span-head-count')?.textContent !== ${JSON.stringify(before)}`, undefined, { timeout: 10_000 }).catch(() => {});
      await page.waitForTimeout(500);
    }

    // A string, not a function: the TypeScript runner's helpers (esbuild's __name) do not exist in the page.
    const scroll = (await page.evaluate(`new Promise((resolve) => {
      const el = document.querySelector('.span-table');
      let frames = 0, domRows = 0;
      const t0 = performance.now();
      const step = () => {
        frames++;
        el.scrollTop += ${opts.pxPerFrame ?? 96};
        domRows = Math.max(domRows, el.querySelectorAll('[role=treeitem]').length);
        if (performance.now() - t0 < ${opts.scrollMs ?? 4000}) requestAnimationFrame(step);
        else resolve({ fps: (frames * 1000) / (performance.now() - t0), domRows, scrolledTo: el.scrollTop });
      };
      requestAnimationFrame(step);
    })`)) as { fps: number; domRows: number; scrolledTo: number };
    return { ttiMs, fps: Math.round(scroll.fps * 10) / 10, domRows: scroll.domRows };
  } finally {
    await browser.close();
  }
}

/** Every event of the session's files once in the tree: the tree's count, and the rows with everything open. */
export async function treeCounts(baseUrl: string, sessionId: string): Promise<{ events: number; rowsExpanded: number; orphans: number }> {
  const res = await fetch(`${baseUrl}/api/sessions/${encodeURIComponent(sessionId)}/spans?fold=none&limit=1`);
  const body = (await res.json()) as { total: number; stats: { events: number; orphans: number } };
  return { events: body.stats.events, rowsExpanded: body.total, orphans: body.stats.orphans };
}

// Only as a script of its own: bundled into the benchmark runner, import.meta.url names the bundle.
if (import.meta.url.endsWith("/session-view.ts") && import.meta.url === `file://${process.argv[1]}`) {
  const [baseUrl, sessionId] = process.argv.slice(2);
  if (!baseUrl || !sessionId) {
    console.error('usage: npx tsx bench/browser/session-view.ts <baseUrl> <sessionId>');
    process.exit(2);
  }
  console.log(JSON.stringify({ ...(await measureSessionView(baseUrl, sessionId)), ...(await treeCounts(baseUrl, sessionId)) }));
}
