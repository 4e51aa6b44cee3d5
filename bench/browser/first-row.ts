// Cold load of the first page (issue 19 item 5): a new browser context each run (empty HTTP cache, no storage),
// from navigation to the first session row on screen, with the JavaScript and CSS it had to download.
// Usage from the benchmark runner: `await measureFirstRow('http://127.0.0.1:7400')`, or
// `npx tsx bench/browser/first-row.ts <baseUrl>` for a one-off run.
import { chromium } from '@playwright/test';
import { median } from '../lib/stats';

export interface FirstRowMeasure {
  /** median over the runs, ms */
  ms: number;
  runs: number[];
  /** bytes of /assets/*.js and *.css the first page downloaded (the same every run) */
  scriptBytes: number;
  styleBytes: number;
  chunks: string[];
}

const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const FIRST_ROW = '.session-rows li.session-row:not(.is-skeleton)';

export async function measureFirstRow(baseUrl: string, runs = 5): Promise<FirstRowMeasure> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: LAUNCH_ARGS });
  try {
    const times: number[] = [];
    let assets = new Map<string, number>();
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      const seen = new Map<string, number>();
      page.on('response', (res) => {
        const url = new URL(res.url());
        if (url.pathname.startsWith('/assets/')) void res.body().then((b) => seen.set(url.pathname, b.length), () => {});
      });
      const started = performance.now();
      await page.goto(`${baseUrl}/`);
      await page.locator(FIRST_ROW).first().waitFor({ timeout: 30_000 });
      times.push(performance.now() - started);
      await page.waitForLoadState('networkidle');
      assets = seen;
      await context.close();
    }
    const sum = (ext: string) => [...assets].filter(([p]) => p.endsWith(ext)).reduce((n, [, b]) => n + b, 0);
    return { ms: median(times), runs: times.map((t) => Math.round(t)), scriptBytes: sum('.js'), styleBytes: sum('.css'), chunks: [...assets.keys()].sort() };
  } finally {
    await browser.close();
  }
}

// Only as a script of its own: bundled into the benchmark runner, import.meta.url names the bundle.
if (import.meta.url.endsWith('/first-row.ts') && import.meta.url === `file://${process.argv[1]}`) {
  const [baseUrl] = process.argv.slice(2);
  if (!baseUrl) {
    console.error('usage: npx tsx bench/browser/first-row.ts <baseUrl>');
    process.exit(2);
  }
  console.log(JSON.stringify(await measureFirstRow(baseUrl)));
}
