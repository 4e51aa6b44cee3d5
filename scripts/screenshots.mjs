// `node scripts/screenshots.mjs --base http://127.0.0.1:7760 --out /tmp/shots`: every page of a running server
// (build it, then `node dist/server/main.js serve --logs <corpus> --db <db> --port 7760`, on a corpus from
// `npx tsx bench/generate-corpus.ts --out <corpus>`), at 1440×900 and 1024×768, light and dark, one PNG each,
// named <page>-<width>-<theme>.png. Look at every one before calling a page done (issue 18, item 8).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://127.0.0.1:7760' },
    out: { type: 'string', default: 'screenshots' },
    only: { type: 'string' },
  },
});
const base = values.base.replace(/\/$/, '');
fs.mkdirSync(values.out, { recursive: true });

const api = async (p) => {
  const res = await fetch(`${base}${p}`);
  if (!res.ok) throw new Error(`${p}: ${res.status}`);
  return res.json();
};

// A session worth looking at: the one with the slowest call, opened at that call; one with children for lineage.
const slow = (await api('/api/events?sort=dur&limit=1')).events[0];
const sessions = (await api('/api/sessions?limit=100')).sessions;
const parent = sessions.find((s) => s.childCount > 0) ?? sessions[0];
const at = (id, q = '') => `/session/${encodeURIComponent(id)}${q}`;

/** name → path, and what to do once it is there (open a menu, run a query) */
const PAGES = [
  ['sessions', '/'],
  ['search', '/search?q=error'],
  ['session', at(slow.sessionId, `?event=${slow.id}`)],
  ['session-from-search', at(slow.sessionId, `?event=${slow.id}&from=${encodeURIComponent('q=error')}`)],
  ['session-requests', at(slow.sessionId, '?view=requests')],
  ['session-lineage', at(parent.id)],
  ['triage', '/triage'],
  ['failures', '/triage?tab=failures', async (page) => page.getByRole('button', { name: /Show occurrences/ }).first().click()],
  ['latency', '/triage?tab=latency'],
  ['lineage', '/lineage'],
  ['lineage-session', `/lineage/${encodeURIComponent(parent.id)}`],
  ['usage', '/usage'],
  ['customizations', '/customizations'],
  ['sql', `/sql?q=${encodeURIComponent('SELECT id, title, repository, updated_at FROM sessions ORDER BY updated_at DESC LIMIT 50')}`],
  ['export-menu', at(slow.sessionId), async (page) => page.locator('summary', { hasText: /^Export$/ }).first().click()],
  ['shortcuts', '/triage', async (page) => page.keyboard.press('?')],
  ['health', '/health'],
];

const SIZES = [
  [1440, 900],
  [1024, 768],
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
let failed = 0;
try {
  for (const theme of ['light', 'dark']) {
    for (const [width, height] of SIZES) {
      const context = await browser.newContext({ viewport: { width, height }, colorScheme: theme });
      const page = await context.newPage();
      for (const [name, p, act] of PAGES) {
        if (values.only && !values.only.split(',').includes(name)) continue;
        const file = path.join(values.out, `${name}-${width}-${theme}.png`);
        try {
          await page.goto(`${base}${p}`, { waitUntil: 'networkidle' });
          if (act) await act(page);
          await page.waitForTimeout(400);
          // anything wider than the window runs off its edge
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          await page.screenshot({ path: file });
          console.log(`${file}${overflow > 0 ? `  (runs ${overflow}px off the right edge)` : ''}`);
        } catch (err) {
          failed++;
          console.error(`${file}: ${err instanceof Error ? err.message : err}`);
        }
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
}
process.exitCode = failed > 0 ? 1 : 0;
