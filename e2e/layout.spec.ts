import { expect, test, type Page } from '@playwright/test';

// Issue 18, layouts: at 1024×768 the session view keeps at least 15 tree rows with an event open, the details
// are a side panel resized by a splitter (mouse or keys), and no page runs off the edge at 1024 or 1440 px.

interface SessionRow {
  id: string;
  eventCount: number;
}

async function busiestSession(page: Page): Promise<{ id: string; event: number }> {
  const list = (await (await page.request.get('/api/sessions?limit=100')).json()) as { sessions: SessionRow[] };
  const s = [...list.sessions].sort((a, b) => b.eventCount - a.eventCount)[0];
  const ev = (await (await page.request.get(`/api/events?session=${encodeURIComponent(s.id)}&min=-1&limit=1`)).json()) as { events: { id: number }[] };
  return { id: s.id, event: ev.events[0]?.id ?? 0 };
}

async function fullyVisibleRows(page: Page): Promise<number> {
  const tree = page.getByRole('tree', { name: 'Spans of this session' });
  const box = (await tree.boundingBox())!;
  const rows = await tree.getByRole('treeitem').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ top: r.top, bottom: r.bottom })));
  return rows.filter((r) => r.top >= box.y && r.bottom <= box.y + box.height).length;
}

// how far the page is wider than the window (a horizontal scrollbar), px
const overflowX = (page: Page) => page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth, document.body.scrollWidth - window.innerWidth));

test('at 1024×768 an open event leaves at least 15 tree rows, beside the tree', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const s = await busiestSession(page);
  await page.goto(`/session/${encodeURIComponent(s.id)}?event=${s.event}`);
  const details = page.getByRole('complementary', { name: 'Event details' });
  await expect(details).toBeVisible();
  const tree = page.getByRole('tree', { name: 'Spans of this session' });
  await expect(tree.getByRole('treeitem', { selected: true })).toBeVisible();
  expect(await fullyVisibleRows(page)).toBeGreaterThanOrEqual(15);
  const t = (await tree.boundingBox())!;
  const d = (await details.boundingBox())!;
  expect(d.x).toBeGreaterThanOrEqual(t.x + t.width);
  expect(await overflowX(page)).toBe(0);
  // the span filters and their actions are one row: they do not push the tree down
  const filter = (await page.getByRole('searchbox', { name: 'Filter by text' }).or(page.getByRole('textbox', { name: 'Filter by text' })).boundingBox())!;
  const expand = (await page.getByRole('button', { name: 'Expand all' }).boundingBox())!;
  expect(Math.abs(expand.y + expand.height / 2 - (filter.y + filter.height / 2))).toBeLessThan(4);
});

test('at 1024 px a span id and its parent\'s each stay on one line in the details', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const s = await busiestSession(page);
  const list = (await (await page.request.get(`/api/events?session=${encodeURIComponent(s.id)}&min=-1&limit=50`)).json()) as { events: { id: number }[] };
  let event: { id: number; spanId: string; parentSpanId: string } | null = null;
  for (const e of list.events) {
    const d = (await (await page.request.get(`/api/events/${e.id}`)).json()) as { id: number; spanId: string | null; parentSpanId: string | null };
    if (d.spanId && d.parentSpanId) {
      event = { id: d.id, spanId: d.spanId, parentSpanId: d.parentSpanId };
      break;
    }
  }
  expect(event).not.toBeNull();
  await page.goto(`/session/${encodeURIComponent(s.id)}?event=${event!.id}`);
  const details = page.getByRole('complementary', { name: 'Event details' });
  await expect(details).toContainText(event!.parentSpanId);
  // the lines each id's characters are laid out on (a Range's rects: one per line the text runs over)
  const linesOf = (id: string) =>
    details.evaluate((root, id) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const at = n.textContent!.indexOf(id);
        if (at < 0) continue;
        const r = document.createRange();
        r.setStart(n, at);
        r.setEnd(n, at + id.length);
        return new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top))).size;
      }
      return -1;
    }, id);
  expect(await linesOf(event!.spanId)).toBe(1);
  expect(await linesOf(event!.parentSpanId)).toBe(1);
});

// The header's strip shows up to 40 requests' iterations; at 1024 px the 40th ran past the page's edge, cut.
test('at 1024 px the tool-loop strip of a session with 165 requests ends inside the page', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const s = await busiestSession(page);
  await page.route('**/spans/overview', async (route) => {
    const real = (await (await route.fetch()).json()) as { requests: { id: number; iterations: number }[]; requestsTotal: number };
    const requests = Array.from({ length: 165 }, (_, i) => ({ ...real.requests[i % real.requests.length], id: i + 1, iterations: i % 7 === 0 ? 12 : (i % 5) + 1 }));
    await route.fulfill({ json: { ...real, requests, requestsTotal: 165 } });
  });
  await page.goto(`/session/${encodeURIComponent(s.id)}`);
  const chips = page.locator('.iteration-strip .iteration-chip');
  await expect(chips.first()).toBeVisible();
  const lists = (await page.locator('.session-lists').boundingBox())!;
  const rights = await chips.evaluateAll((els) => els.filter((e) => getComputedStyle(e).display !== 'none').map((e) => e.getBoundingClientRect().right));
  expect(rights.length).toBeGreaterThan(20);
  expect(Math.max(...rights)).toBeLessThanOrEqual(lists.x + lists.width);
});

test('the splitter resizes the side panel by mouse and by keys, and the width is remembered', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const s = await busiestSession(page);
  await page.goto(`/session/${encodeURIComponent(s.id)}?event=${s.event}`);
  const details = page.getByRole('complementary', { name: 'Event details' });
  await expect(details).toBeVisible();
  const splitter = page.getByRole('separator', { name: 'Resize the side panel' });
  const before = (await details.boundingBox())!.width;

  const b = (await splitter.boundingBox())!;
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2 - 100, b.y + b.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => Math.round((await details.boundingBox())!.width)).toBe(Math.round(before + 100));

  await splitter.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => Math.round((await details.boundingBox())!.width)).toBe(Math.round(before + 100 - 24));
  // ← on the splitter is the splitter's, not the tree's (which would fold)
  await expect(page.getByRole('tree', { name: 'Spans of this session' }).getByRole('treeitem', { selected: true })).toBeVisible();
  const now = Number(await splitter.getAttribute('aria-valuenow'));
  await page.reload();
  await expect(page.getByRole('separator', { name: 'Resize the side panel' })).toHaveAttribute('aria-valuenow', String(now));
});

for (const width of [1024, 1440]) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`nothing runs off the edge at ${width} px, ${scheme}`, async ({ page }) => {
      await page.setViewportSize({ width, height: width === 1024 ? 768 : 900 });
      await page.emulateMedia({ colorScheme: scheme });
      const s = await busiestSession(page);
      for (const path of ['/', '/search?q=error', '/triage', '/triage?tab=failures', '/lineage', '/usage', '/customizations', '/sql', `/session/${encodeURIComponent(s.id)}?event=${s.event}`]) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await page.waitForTimeout(300);
        expect(await overflowX(page), path).toBe(0);
      }
    });
  }
}

test('Collapse all leaves one row per top-level span (each request), Shift+E does the same, Expand all opens every branch', async ({ page }) => {
  const s = await busiestSession(page);
  const total = async (fold: string) => ((await (await page.request.get(`/api/sessions/${encodeURIComponent(s.id)}/spans?fold=${fold}&limit=1`)).json()) as { total: number }).total;
  const [all, none] = [await total('all'), await total('none')];
  expect(all).toBeLessThan(none);
  await page.goto(`/session/${encodeURIComponent(s.id)}`);
  const tree = page.getByRole('tree', { name: 'Spans of this session' });
  const rows = tree.getByText(/^[\d,]+ rows$/);
  await page.getByRole('button', { name: 'Collapse all' }).click();
  await expect(rows).toHaveText(`${all.toLocaleString('en-US')} rows`);
  await expect(tree.getByRole('treeitem').first()).toHaveAttribute('aria-level', '1');
  await page.getByRole('button', { name: 'Expand all' }).click();
  await expect(rows).toHaveText(`${none.toLocaleString('en-US')} rows`);
  await tree.focus();
  await page.keyboard.press('Shift+E');
  await expect(rows).toHaveText(`${all.toLocaleString('en-US')} rows`);
});

// The top bar while a backfill runs (the finished e2e index shows no progress, so /api/health is answered with one
// and the stream is left connecting, which keeps the indicator on health's figures): the progress and the health
// pill sit right of the navigation at every width the layout serves. At 1024 px "Week: done · 4%" ran over "SQL"
// (global.css: the status is a container whose room picks the progress's form).
const BACKFILL_STATES = {
  'this week read, older 41%': { recent: { filesDone: 2402, filesTotal: 2402, bytesDone: 170e6, bytesTotal: 170e6 }, older: { filesDone: 10000, filesTotal: 24907, bytesDone: 637e6, bytesTotal: 1555e6 } },
  'this week 99%': { recent: { filesDone: 2390, filesTotal: 2402, bytesDone: 169e6, bytesTotal: 170e6 }, older: { filesDone: 0, filesTotal: 24907, bytesDone: 0, bytesTotal: 1555e6 } },
};

for (const width of [901, 960, 1024, 1100, 1240, 1280, 1440]) {
  for (const [name, split] of Object.entries(BACKFILL_STATES)) {
    test(`during a backfill (${name}) the top bar's status stays clear of the navigation at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 768 });
      await page.route('**/api/stream', () => new Promise<void>(() => {}));
      await page.route('**/api/health', async (route) => {
        const real = (await (await route.fetch()).json()) as Record<string, unknown>;
        const files = split.recent.filesTotal + split.older.filesTotal;
        const done = split.recent.filesDone + split.older.filesDone;
        const bytes = split.recent.bytesTotal + split.older.bytesTotal;
        const bytesDone = split.recent.bytesDone + split.older.bytesDone;
        // the widest figures the pill shows: four characters each
        await route.fulfill({ json: { ...real, events: 987_654, badLines: 9_876, backfill: { state: 'running', filesDone: done, filesTotal: files, bytesDone, bytesTotal: bytes, ...split } } });
      });
      await page.goto('/');
      await page.getByRole('heading', { level: 1, name: 'Sessions' }).waitFor();
      await expect(page.getByRole('status').filter({ hasText: /Week|week/ })).toBeVisible();
      const layout = await page.evaluate(() => {
        const navRight = Math.max(...[...document.querySelectorAll('.topnav-link')].map((a) => a.getBoundingClientRect().right));
        // the status area's drawn content: a range's rectangles cover text that overflows its boxes too
        const range = document.createRange();
        range.selectNodeContents(document.querySelector('.topbar-status')!);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
        return { navRight, statusLeft: Math.min(...rects.map((r) => r.left)), statusRight: Math.max(...rects.map((r) => r.right)) };
      });
      expect(layout.statusLeft, JSON.stringify(layout)).toBeGreaterThanOrEqual(layout.navRight + 8);
      // from 1024 px the week's figure is there to read (the sentence or its short form), not only the bar
      if (width >= 1024) await expect(page.locator('.topbar-progress-label:visible, .topbar-progress-short:visible')).toHaveCount(1);
      expect(layout.statusRight).toBeLessThanOrEqual(width);
      expect(await overflowX(page)).toBe(0);
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    });
  }
}
