import { expect, test } from '@playwright/test';
import fs from 'node:fs';

// The SQL console against the real built server: schema beside the editor, every example runs, results in the
// URL, refusals and the time limit shown inline, the row cap said in words, export.

const editor = (page: import('@playwright/test').Page) => page.getByRole('textbox', { name: 'Statement' });
const run = (page: import('@playwright/test').Page) => page.getByRole('button', { name: 'Run', exact: true });

test("the schema pane lists Chronicle's tables with their columns", async ({ page }) => {
  await page.goto('/sql');
  await expect(page.getByRole('heading', { level: 1, name: 'SQL' })).toBeVisible();
  const side = page.getByRole('complementary', { name: 'Examples and schema' });
  for (const t of ['sessions', 'turns', 'session_files', 'session_refs', 'search_index', 'events']) {
    await expect(side.getByText(t, { exact: true }).first()).toBeVisible();
  }
  await expect(side.getByRole('button', { name: /^updated_at\b/ }).first()).toBeVisible();
});

test('every example runs without an error', async ({ page }) => {
  await page.goto('/sql');
  const side = page.getByRole('complementary', { name: 'Examples and schema' });
  const examples = side.getByRole('list').first().getByRole('button');
  await expect(examples.first()).toBeVisible(); // the list renders after the schema request; count() does not wait
  const n = await examples.count();
  expect(n).toBeGreaterThan(5);
  for (let i = 0; i < n; i++) {
    const title = (await examples.nth(i).textContent())!;
    await examples.nth(i).click();
    await run(page).click();
    await expect(page.getByText(/\d+ rows?|No rows\./).first(), title).toBeVisible();
    await expect(page.getByRole('alert'), title).toHaveCount(0);
  }
});

test('a query runs with Ctrl+Enter, lives in the URL and runs again from a shared link', async ({ page }) => {
  await page.goto('/sql');
  await editor(page).fill("SELECT id, repository FROM sessions WHERE summary LIKE '%update%' OR replace(id, 'x', 'y') IS NOT NULL ORDER BY id LIMIT 5");
  await editor(page).press('Control+Enter');
  await expect(page).toHaveURL(/[?&]q=/);
  const table = page.getByRole('table');
  await expect(table.getByRole('columnheader', { name: 'repository' })).toBeVisible();
  await expect(page.getByText(/^5 rows/).first()).toBeVisible();
  await page.reload();
  await expect(page.getByRole('table').getByRole('columnheader', { name: 'repository' })).toBeVisible();
  await expect(editor(page)).toHaveValue(/replace\(id, 'x', 'y'\)/);
});

test('a refused statement says why, inline', async ({ page }) => {
  await page.goto('/sql');
  await editor(page).fill('SELECT 1; DROP TABLE sessions');
  await run(page).click();
  await expect(page.getByRole('alert')).toContainText('only one statement per query');
  await editor(page).fill("ATTACH DATABASE '/tmp/x.db' AS x");
  await run(page).click();
  await expect(page.getByRole('alert')).toContainText('ATTACH is not allowed');
});

test('1000 rows at most, said in words, and only the rows on screen are in the DOM', async ({ page }) => {
  await page.goto('/sql');
  await editor(page).fill('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r');
  await run(page).click();
  await expect(page.getByText(/first 1,000 rows — more exist/).first()).toBeVisible();
  expect(await page.locator('tbody tr').count()).toBeLessThan(200);
});

test('a runaway query is stopped at the time limit while the server keeps answering', async ({ page }) => {
  await page.goto('/sql');
  await editor(page).fill('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r');
  await run(page).click();
  await expect(page.getByText(/Running…/).first()).toBeVisible();
  const started = Date.now();
  const health = await page.request.get('/api/health');
  expect(health.ok()).toBe(true);
  expect(Date.now() - started, '/api/health during the runaway query (ms)').toBeLessThan(1000);
  await expect(page.getByRole('alert')).toContainText('was stopped', { timeout: 15_000 });
  await editor(page).fill('SELECT 42 AS answer');
  await run(page).click();
  await expect(page.getByRole('table').getByRole('cell', { name: '42', exact: true })).toBeVisible();
});

test('results export as CSV and JSON', async ({ page }) => {
  await page.goto('/sql');
  await editor(page).fill("SELECT 1 AS n, 'a,b' AS s, '=1+1' AS formula");
  await run(page).click();
  await expect(page.getByText(/^1 row/).first()).toBeVisible();
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(fs.readFileSync((await csv.path())!, 'utf8')).toBe('n,s,formula\r\n1,"a,b",\'=1+1\r\n');
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
  expect(JSON.parse(fs.readFileSync((await json.path())!, 'utf8'))).toEqual([{ n: 1, s: 'a,b', formula: '=1+1' }]);
});
