import { expect, test, type Locator, type Page } from '@playwright/test';
import type { SpanListResponse } from '../shared/api';
import { SESSION_VIEW_ID } from './fixtures/session-view';
import { pressInOneTask } from './support/keys';
import { PAN_STEP, ZOOM_STEP, panBy, zoomBy } from '../web/src/features/session/zoom';

// Issue 18, the request-level timeline: landing zoomed on a linked call's request with its breakdown, zoom by
// keys, wheel and double-click (kept in the URL), ruler labels apart at every zoom, the critical path.

interface TriageEvent {
  id: number;
  sessionId: string;
  dur: number;
}

const tree = (page: Page) => page.getByRole('tree', { name: 'Spans of this session' });
const zoomOf = (page: Page) => new URL(page.url()).searchParams.get('zoom');

/** The selected row's bar width as a share of the waterfall's width. */
async function barShare(page: Page): Promise<number> {
  const row = tree(page).getByRole('treeitem', { selected: true });
  const bar = (await row.locator('.span-bar').boundingBox())!;
  const ruler = (await page.locator('.span-ruler').boundingBox())!;
  return bar.width / ruler.width;
}

/** Every pair of ruler labels drawn: their boxes must not intersect. */
async function overlappingLabels(page: Page): Promise<string[]> {
  const boxes = await page.locator('.span-ruler .span-ruler-label').evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { text: el.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    }),
  );
  const out: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) out.push(`${a.text} × ${b.text}`);
    }
  return out;
}

async function expectLabelsApart(page: Page) {
  expect(await page.locator('.span-ruler .span-ruler-label').count()).toBeGreaterThan(0);
  expect(await overlappingLabels(page)).toEqual([]);
}

async function waterfallPoint(page: Page): Promise<{ x: number; y: number }> {
  const ruler = (await page.locator('.span-ruler').boundingBox())!;
  const body = (await tree(page).boundingBox())!;
  return { x: ruler.x + ruler.width / 2, y: body.y + Math.min(200, body.height / 2) };
}

test('the slowest call opened from Triage lands zoomed on its request, with its breakdown', async ({ page }) => {
  const slow = (await (await page.request.get('/api/events?sort=dur&limit=1')).json()) as { events: TriageEvent[] };
  const [slowest] = slow.events;
  await page.goto('/triage');
  const first = page.getByRole('list', { name: 'Slowest calls' }).getByRole('link').first();
  await expect(first).toHaveAttribute('href', `/session/${encodeURIComponent(slowest.sessionId)}?event=${slowest.id}`);
  await first.click();

  await expect(page).toHaveURL(/[?&]zoom=[\d.]+-[\d.]+/);
  await expect(tree(page).getByRole('treeitem', { selected: true })).toHaveAttribute('data-event-id', String(slowest.id));
  await expect(tree(page).getByRole('treeitem', { selected: true })).toBeInViewport();
  expect(await barShare(page)).toBeGreaterThanOrEqual(0.1);

  const breakdown = page.getByRole('complementary', { name: 'Event details' }).getByRole('region', { name: 'Where the time went' });
  await expect(breakdown).toBeVisible();
  for (const part of ['Time to first token', 'Generation', 'Tools', 'Idle']) await expect(breakdown.getByText(part, { exact: true }).first()).toBeVisible();
  await expect(breakdown.getByRole('img', { name: /^The request's time: Time to first token / })).toBeVisible();
  await expect(breakdown.getByRole('heading', { name: /^This model call/ })).toBeVisible();
  await expectLabelsApart(page);

  // a reload keeps the zoom
  const landed = zoomOf(page);
  await page.reload();
  await expect(tree(page).getByRole('treeitem', { selected: true })).toHaveAttribute('data-event-id', String(slowest.id));
  expect(zoomOf(page)).toBe(landed);
});

// The router renders a navigation later (a transition), so under load a second key came before the first one's
// render and was computed from the zoom before it: + + d once ended with no zoom at all (a flaky run of the test
// below). Keys dispatched in one task, with no render between them, must still be three steps.
test('zoom and pan keys faster than the page renders: each one is a step from the one before', async ({ page }) => {
  await page.goto(`/session/${SESSION_VIEW_ID}`);
  await expect(tree(page).getByRole('treeitem').first()).toBeVisible();
  await expect(page.locator('.span-ruler .span-ruler-label').first()).toBeVisible();
  expect(zoomOf(page)).toBeNull();
  await pressInOneTask(page, ['+', '+', 'd']);
  const expected = panBy(zoomBy(zoomBy(null, 1 / ZOOM_STEP), 1 / ZOOM_STEP), PAN_STEP)!;
  await expect.poll(() => zoomOf(page)?.split('-').map(Number) ?? null).not.toBeNull();
  const [a, b] = zoomOf(page)!.split('-').map(Number);
  expect(a).toBeCloseTo(expected[0], 6);
  expect(b).toBeCloseTo(expected[1], 6);
  // and a render later, nothing undoes them
  await page.waitForTimeout(300);
  expect(zoomOf(page)!.split('-').map(Number)).toEqual([a, b]);
});

test('zoom keys, the wheel and a double-click on a bar; back undoes a zoom asked for by name', async ({ page }) => {
  const res = await page.request.get(`/api/sessions/${SESSION_VIEW_ID}/spans?fold=none&limit=500`);
  const rows = ((await res.json()) as SpanListResponse).rows;
  const readFile = rows.find((r) => r.name === 'read_file')!;
  await page.goto(`/session/${SESSION_VIEW_ID}?event=${readFile.id}`);
  await expect(page).toHaveURL(/[?&]zoom=/);
  await expect(tree(page)).toBeFocused();
  const width = () => {
    const z = zoomOf(page);
    if (!z) return 1;
    const [a, b] = z.split('-').map(Number);
    return b - a;
  };

  await page.keyboard.press('0');
  await expect.poll(() => zoomOf(page)).toBeNull();
  await expectLabelsApart(page);
  await page.keyboard.press('+');
  await expect.poll(width).toBeCloseTo(1 / 1.5, 5);
  await page.keyboard.press('-');
  await expect.poll(() => zoomOf(page)).toBeNull();
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await page.keyboard.press('d');
  await expectLabelsApart(page);
  // the URL follows the pan a frame later: poll it (read at once, it was sometimes still the zoom before)
  await expect.poll(() => Number(zoomOf(page)?.split('-')[0] ?? NaN)).toBeGreaterThan(0.2);

  // Z: the selected span itself (read_file, 40 ms of a 35 s request); z: its request, which here is the whole session
  // each step waited for: the URL follows a frame later, so right after '0' it could still hold the pan's zoom,
  // and the poll below passed on it before 'Z' had drawn (a bar share of 0.005 on a loaded machine)
  await page.keyboard.press('0');
  await expect.poll(() => zoomOf(page)).toBeNull();
  await page.keyboard.press('Z');
  await expect.poll(() => zoomOf(page)).not.toBeNull();
  const spanZoom = zoomOf(page);
  await expect.poll(() => barShare(page)).toBeGreaterThan(0.8);
  await expectLabelsApart(page);
  await page.keyboard.press('z');
  await expect.poll(() => zoomOf(page)).toBeNull();
  // both were steps of their own: Back goes to the span's zoom again
  await page.goBack();
  await expect.poll(() => zoomOf(page)).toBe(spanZoom);

  // Ctrl + wheel over the rows zooms around the pointer; the plain wheel there scrolls, over the ruler it zooms
  const before = width();
  const at = await waterfallPoint(page);
  await page.mouse.move(at.x, at.y);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -200);
  await page.keyboard.up('Control');
  await expect.poll(width).toBeLessThan(before * 0.8);
  const afterCtrl = width();
  const ruler = (await page.locator('.span-ruler').boundingBox())!;
  await page.mouse.move(ruler.x + ruler.width / 2, ruler.y + ruler.height / 2);
  await page.mouse.wheel(0, 200);
  await expect.poll(width).toBeGreaterThan(afterCtrl * 1.2);

  // a double-click on a bar zooms to that span
  const bar = tree(page).getByRole('treeitem', { name: /^runSubagent(?!-)/ }).locator('.span-wf-cell');
  await page.keyboard.press('0');
  await bar.dblclick();
  await expect(tree(page).getByRole('treeitem', { selected: true })).toHaveAccessibleName(/^runSubagent(?!-)/);
  await expect.poll(() => barShare(page)).toBeGreaterThan(0.8);
  await expectLabelsApart(page);

  // the keys are listed in the ? overlay
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByRole('region', { name: 'Timeline' });
  await expect(help).toContainText("Zoom to the selected span's request");
  await expect(help).toContainText("Show or hide the request's critical path");
});

test('the critical path of the request: by key or checkbox, the chain that decided its end', async ({ page }) => {
  const res = await page.request.get(`/api/sessions/${SESSION_VIEW_ID}/spans?fold=none&limit=500`);
  const rows = ((await res.json()) as SpanListResponse).rows;
  const c1 = rows.find((r) => r.name === 'chat:gpt-4.1')!;
  await page.goto(`/session/${SESSION_VIEW_ID}?event=${c1.id}`);
  await expect(tree(page).getByRole('treeitem', { selected: true })).toHaveAttribute('data-event-id', String(c1.id));
  const toggle = page.getByRole('checkbox', { name: 'Critical path' });
  if (await toggle.isChecked()) await toggle.uncheck();
  const onPath: Locator = tree(page).getByRole('treeitem', { name: /\(on the critical path\)$/ });
  await expect(onPath).toHaveCount(0);
  await page.keyboard.press('0');
  await page.keyboard.press('p');
  await expect(toggle).toBeChecked();
  // the 30 s call that failed ended the request; before it the subagent, before that read_file, then the first call
  // (the subagent's own rows are folded away; its branch row is on the path)
  await expect(onPath).toHaveCount(6);
  // the request row says how long the request took (34.6 s: 100 ms to the failed call's end at 34.72 s)
  await expect(tree(page).getByRole('treeitem', { name: /^user_message/ }).locator('.span-request-total')).toHaveText('34.6s');
  const names = await onPath.evaluateAll((els) => els.map((el) => (el.getAttribute('aria-label') ?? '').split(' ')[0]));
  expect(names).toEqual(['user_message', 'chat:gpt-4.1', 'read_file', 'runSubagent', 'Explore', 'chat:gpt-4.1']);
  // n / N step along it from the selected call, one span at a time, and stop at its ends
  const selectedName = () => tree(page).getByRole('treeitem', { selected: true }).getAttribute('aria-label').then((l) => (l ?? '').split(' ')[0]);
  for (const [key, name] of [['n', 'read_file'], ['n', 'runSubagent'], ['N', 'read_file'], ['N', 'chat:gpt-4.1'], ['N', 'user_message'], ['N', 'user_message']]) {
    await page.keyboard.press(key);
    await expect.poll(selectedName).toBe(name);
  }
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByRole('region', { name: 'Timeline' })).toContainText('Next span on the critical path');
  await page.keyboard.press('Escape');
  await toggle.uncheck();
  await expect(onPath).toHaveCount(0);
});

test('the minimap: a drag zooms to the dragged range, a double-click shows everything again', async ({ page }) => {
  await page.goto(`/session/${SESSION_VIEW_ID}`);
  await expect(tree(page)).toBeFocused();
  const minimap = page.getByRole('slider', { name: /^Time range shown in the waterfall/ });
  await expect(minimap).toHaveAttribute('aria-valuetext', 'the whole session');
  const box = (await minimap.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(() => zoomOf(page)).not.toBeNull();
  const [a, b] = zoomOf(page)!.split('-').map(Number);
  expect(a).toBeCloseTo(0.25, 1);
  expect(b).toBeCloseTo(0.5, 1);
  await expect(minimap).toHaveAttribute('aria-valuetext', /^25% to 50% of the session$/);
  await expectLabelsApart(page);
  await minimap.dblclick();
  await expect.poll(() => zoomOf(page)).toBeNull();
});

test("the header's slowest call lands zoomed on it, from any zoom", async ({ page }) => {
  await page.goto(`/session/${SESSION_VIEW_ID}?zoom=0.9-1`);
  await expect(tree(page)).toBeFocused();
  await page.getByRole('button', { name: /^chat:gpt-4\.1 · 30\.0s$/ }).click();
  await expect(tree(page).getByRole('treeitem', { selected: true })).toHaveAccessibleName(/^chat:gpt-4\.1.*\(failed\)/);
  await expect.poll(() => zoomOf(page)).not.toBe('0.9-1');
  await expect.poll(() => barShare(page)).toBeGreaterThanOrEqual(0.1);
});
