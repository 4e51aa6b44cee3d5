import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { SessionDetail, SpanListResponse } from '../shared/api';
import { SESSION_VIEW_CHILD_ID, SESSION_VIEW_ID } from './fixtures/session-view';

// The session view (issue 4) against the real server: the span tree of e2e/fixtures/session-view.ts (a
// request with a subagent in its own child log and a failing model call), deep links, keys, a live append.

const tree = (page: Page) => page.getByRole('tree', { name: 'Spans of this session' });
const item = (page: Page, name: string | RegExp) => tree(page).getByRole('treeitem', { name });

async function eventId(page: Page, sessionId: string, name: string): Promise<number> {
  const res = await page.request.get(`/api/sessions/${encodeURIComponent(sessionId)}/spans?fold=none&limit=500`);
  expect(res.ok()).toBe(true);
  const row = ((await res.json()) as SpanListResponse).rows.find((r) => r.name === name);
  expect(row, `${name} is in the tree`).toBeDefined();
  return row!.id;
}

test('opens a session: header facts, the request with its model calls, the subagent folded', async ({ page }) => {
  await page.goto(`/session/${SESSION_VIEW_ID}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('Copilot 0.44.0', { exact: true })).toBeVisible();
  await expect(item(page, /^user_message e2e: find the retry bug/)).toBeVisible();
  await expect(item(page, /^read_file/)).toBeVisible();
  const explore = item(page, /^Explore/);
  await expect(explore).toHaveAttribute('aria-expanded', 'false');
  await expect(item(page, /^grep_search/)).toHaveCount(0);
  // the waterfall shows a bar per row, the failed call in red
  await expect(tree(page).locator('.span-bar.is-error')).toHaveCount(1);
});

test('a turn entry placed by its span id says its parent was inferred; a model call does not', async ({ page }) => {
  await page.goto(`/session/${SESSION_VIEW_ID}`);
  const pane = page.getByRole('complementary', { name: 'Event details' });
  await item(page, /^turn_start:1/).click();
  await expect(pane.getByRole('heading', { name: 'turn_start:1' })).toBeVisible();
  await expect(pane.getByText(/^Parent inferred from the span id/)).toBeVisible();
  await item(page, /^read_file/).click();
  await expect(pane.getByRole('heading', { name: 'read_file' })).toBeVisible();
  await expect(pane.getByText(/^Parent inferred/)).toHaveCount(0);
});

test('expands a subagent to show what it did in its own log', async ({ page }) => {
  await page.goto(`/session/${SESSION_VIEW_ID}`);
  await tree(page).getByRole('button', { name: 'Expand Explore' }).click();
  await expect(item(page, /^Explore/)).toHaveAttribute('aria-expanded', 'true');
  await expect(item(page, /^grep_search retryDelay/)).toBeVisible();
  await expect(item(page, /^chat:gpt-4o-mini/).first()).toBeVisible();
});

test('selects an event: details with its attrs, error text up front, and the URL names it', async ({ page }) => {
  await page.goto(`/session/${SESSION_VIEW_ID}`);
  await item(page, /^read_file/).click();
  const pane = page.getByRole('complementary', { name: 'Event details' });
  await expect(pane.getByRole('heading', { name: 'read_file' })).toBeVisible();
  await expect(pane.getByText('filePath:', { exact: true })).toBeVisible();
  await expect(pane.getByText(/main\.jsonl:\d+/)).toBeVisible();
  await expect(page).toHaveURL(/[?&]event=\d+/);
  // keys: ] jumps to the next error, Escape closes the details
  await page.keyboard.press(']');
  await expect(pane.getByRole('alert')).toContainText('Request timed out');
  await expect(item(page, /^chat:gpt-4\.1 Request timed out/)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('k');
  await expect(item(page, /^turn_start:1/)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Escape');
  await expect(pane).toHaveCount(0);
});

test('follows a deep link to an event inside a folded child log, from the parent and from the child', async ({ page }) => {
  const grep = await eventId(page, SESSION_VIEW_ID, 'grep_search');
  await page.goto(`/session/${SESSION_VIEW_ID}?event=${grep}`);
  const row = item(page, /^grep_search/);
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await expect(row).toBeInViewport();
  await expect(page.getByRole('complementary', { name: 'Event details' }).getByRole('heading', { name: 'grep_search' })).toBeVisible();

  await page.goto(`/session/${SESSION_VIEW_CHILD_ID}?event=${grep}`);
  await expect(item(page, /^grep_search/)).toHaveAttribute('aria-selected', 'true');
});

test('filters in the URL keep the ancestors of each match', async ({ page }) => {
  await page.goto(`/session/${SESSION_VIEW_ID}?q=src%2Fqueue.ts`);
  await expect(item(page, /^grep_search/)).toBeVisible();
  await expect(item(page, /^Explore/)).toBeVisible();
  await expect(item(page, /^read_file/)).toHaveCount(0);
  await expect(page.getByText('1 match', { exact: false })).toBeVisible();
});

test('a session being written grows in place, keeping the selection', async ({ page }) => {
  // Other specs append to e2e-live too: address rows by event id, not by name alone.
  const live = (await (await page.request.get('/api/sessions/e2e-live')).json()) as SessionDetail;
  const file = live.logFiles.find((f) => f.kind === 'main')!.path;
  const chat = await eventId(page, 'e2e-live', 'chat:gpt-4.1');
  await page.goto('/session/e2e-live');
  const selectedRow = tree(page).locator(`[data-event-id="${chat}"]`);
  await selectedRow.click();
  await expect(selectedRow).toHaveAttribute('aria-selected', 'true');
  const tool = `live_probe_${Date.now().toString(36)}`;
  const now = Date.now();
  fs.appendFileSync(
    file,
    JSON.stringify({ ts: now, dur: 25, sid: 'e2e-live', type: 'tool_call', name: tool, spanId: `lp${now.toString(16)}`, parentSpanId: 'live0000000000a1', status: 'ok', attrs: { args: '{}', result: 'ok' } }) + '\n',
  );
  await expect(item(page, new RegExp(`^${tool}`))).toBeVisible({ timeout: 20_000 });
  await expect(selectedRow).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('complementary', { name: 'Event details' }).getByRole('heading', { name: 'chat:gpt-4.1' })).toBeVisible();
});

test('one number: a session with child logs shows the same event count in the list, its header and a search result', async ({ page }) => {
  const res = await page.request.get('/api/sessions?limit=100');
  const sessions = ((await res.json()) as { sessions: { id: string; title: string | null; eventCount: number; childCount: number }[] }).sessions;
  const s = sessions.find((x) => x.childCount > 0 && x.title) ?? sessions[0];
  const fmt = (n: number) => n.toLocaleString('en-US');
  await page.goto('/');
  const link = page.locator(`a[href="/session/${encodeURIComponent(s.id)}"]`).first();
  const row = link.locator('xpath=ancestor::li[1]');
  await expect(row.getByTitle(`${fmt(s.eventCount)} events`)).toBeVisible();
  await page.goto(`/session/${encodeURIComponent(s.id)}`);
  await expect(page.locator('.session-stat').filter({ has: page.getByText('Events', { exact: true }) }).locator('dd')).toHaveText(fmt(s.eventCount));
  await page.goto(`/search?q=${encodeURIComponent(s.id)}`);
  // a result links to the session with the search it came from
  const hit = page.locator(`a[href^="/session/${encodeURIComponent(s.id)}?from="]`).first().locator('xpath=ancestor::li[1]');
  await expect(hit.getByText(`${fmt(s.eventCount)} events`, { exact: true })).toBeVisible();
});
