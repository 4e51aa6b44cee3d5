import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { RequestListResponse } from '../shared/api';
import { fixtureWorkspace, jsonl } from './fixtures/workspace';
import { SESSION_VIEW_ID } from './fixtures/session-view';

// Issue 18: the requests-only view, the "N new sessions ↑" pill with Follow new sessions, the search term in the
// details and the breadcrumb back to the search. By role, by keyboard where the behaviour is a key.

test('requests only: r shows one row per request with its totals; Enter opens it in the tree', async ({ page }) => {
  const api = (await (await page.request.get(`/api/sessions/${SESSION_VIEW_ID}/spans/requests`)).json()) as RequestListResponse;
  await page.goto(`/session/${SESSION_VIEW_ID}`);
  const tree = page.getByRole('tree', { name: 'Spans of this session' });
  await expect(tree).toBeFocused();
  await page.keyboard.press('r');
  await expect(page).toHaveURL(/view=requests/);
  const table = page.getByRole('table', { name: 'Requests of this session' });
  await expect(table).toBeFocused();
  await expect(page.getByRole('button', { name: 'Requests only' })).toHaveAttribute('aria-pressed', 'true');
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(api.requests.length + 1);
  const r = api.requests[0];
  // the numbers the API computed, as the row shows them
  await expect(rows.nth(1).getByRole('cell')).toHaveText([
    '1',
    'e2e: find the retry bug in http.ts',
    /\S/,
    String(r.modelCalls),
    String(r.toolCalls),
    /\S+ \/ \S+/,
    String(r.errors),
    // credits: a column only when some request has credit data
    ...(api.requests.some((x) => x.credits !== null) ? [r.credits === null ? '—' : /\d/] : []),
  ]);
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help.getByRole('region', { name: 'Requests' })).toContainText('Open the selected request in the tree');
  await expect(help.getByRole('region', { name: 'Session view' })).toContainText('Back to the full tree');
  await expect(help.getByRole('region', { name: 'Session tree' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  await page.keyboard.press('j');
  await expect(rows.nth(1).getByRole('button')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/view=requests/);
  await expect(page).toHaveURL(new RegExp(`event=${r.id}`));
  await expect(tree.getByRole('treeitem', { selected: true })).toHaveAttribute('data-event-id', String(r.id));
  await expect(tree).toBeFocused();
});

function writeSession(id: string): void {
  const logs = fixtureWorkspace('live-repo');
  const dir = path.join(logs, id);
  fs.mkdirSync(dir, { recursive: true });
  const t = Date.now();
  fs.writeFileSync(
    path.join(dir, 'main.jsonl'),
    jsonl(
      { v: 1, ts: t, dur: 0, sid: id, type: 'session_start', name: 'session_start', spanId: '0000000000000001', status: 'ok', attrs: { copilotVersion: '0.44.0' } },
      { ts: t + 10, dur: 0, sid: id, type: 'user_message', name: 'user_message', spanId: '0000000000000002', status: 'ok', attrs: { content: `new session ${id}` } },
    ),
  );
}

test('new sessions while reading further down: a pill counts them and goes to the top; Follow new sessions stays there', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 500 });
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Sessions list' })).toBeFocused();
  await page.evaluate(() => window.scrollTo({ top: document.body.scrollHeight }));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);

  const first = `e2e-new-${Date.now().toString(36)}`;
  writeSession(first);
  const pill = page.getByRole('button', { name: '1 new session ↑' });
  await expect(pill).toBeVisible({ timeout: 20_000 });
  await pill.click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(40);
  await expect(pill).toBeHidden();
  await expect(page.getByRole('link', { name: `new session ${first}` })).toBeInViewport();

  await page.getByRole('checkbox', { name: 'Follow new sessions' }).check();
  await page.evaluate(() => window.scrollTo({ top: document.body.scrollHeight }));
  const second = `e2e-new-${(Date.now() + 1).toString(36)}b`;
  writeSession(second);
  await expect(page.getByRole('link', { name: `new session ${second}` })).toBeInViewport({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: /new sessions? ↑/ })).toBeHidden();
  await page.getByRole('checkbox', { name: 'Follow new sessions' }).uncheck();
});

test('failure occurrences: Enter on a group goes into its occurrences, j/k move there, Esc goes back, Enter opens one', async ({ page }) => {
  await page.goto('/triage?tab=failures');
  const groups = page.getByRole('list', { name: 'Failure groups' });
  await expect(groups).toBeFocused();
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  const occurrences = groups.getByRole('listitem').first().getByRole('list', { name: /^Occurrences of / });
  const links = occurrences.getByRole('link');
  await expect(links.first()).toBeFocused();
  if ((await links.count()) > 1) {
    await page.keyboard.press('j');
    await expect(links.nth(1)).toBeFocused();
    await page.keyboard.press('k');
    await expect(links.first()).toBeFocused();
  }
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help.getByRole('region', { name: 'Occurrences' })).toContainText('Back to the failure group');
  await page.keyboard.press('Escape');
  await expect(links.first()).toBeFocused();

  await page.keyboard.press('Escape');
  const toggle = groups.getByRole('button', { name: /Hide occurrences/ }).first();
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(occurrences).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(links.first()).toBeFocused();
  const href = (await links.first().getAttribute('href'))!;
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === href);
  const tree = page.getByRole('tree', { name: 'Spans of this session' });
  await expect(tree.getByRole('treeitem', { selected: true })).toHaveAttribute('data-event-id', new URL(href, 'http://x').searchParams.get('event')!);
});

test('SQL results: j/k move between rows, Enter opens the session and event the row names', async ({ page }) => {
  await page.goto('/sql');
  const statement = page.getByRole('textbox', { name: 'Statement' });
  await statement.fill("SELECT e.id, s.id AS session_id, e.dur FROM events e JOIN sessions s ON s.num = e.session_num WHERE e.type = 'llm_request' ORDER BY e.id LIMIT 3");
  await statement.press('Control+Enter');
  const results = page.getByLabel(/^Query results/);
  await expect(page.getByText(/^3 rows/).first()).toBeVisible();
  await results.focus();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  await page.keyboard.press('j');
  await expect(page.getByRole('region', { name: 'Selected cell' })).toContainText('row 2');
  // the second row as the table shows it: #, id, session_id, dur
  const cells = page.getByRole('table').getByRole('row').nth(2).getByRole('cell');
  const eventId = await cells.nth(1).textContent();
  const sessionId = (await cells.nth(2).textContent())!;
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/session/${encodeURIComponent(sessionId)}\\?event=${eventId}$`));
});
