import { expect, test } from '@playwright/test';

// Usage, customizations and the triage cards against the real server on the generated corpus: the page shows
// the API's numbers, the skipped skill is named with its reason and fix, and the cards follow the window.

interface UsageTotals {
  requests: number;
  modelCalls: number;
  credits: number;
  callsWithoutCredits: number;
}
const fmt = (n: number) => n.toLocaleString('en-US');

test('the Usage page shows the totals of /api/usage and groups by repository', async ({ page }) => {
  const api = (await (await page.request.get('/api/usage?window=all')).json()) as { totals: UsageTotals; rows: { key: string | null }[] };
  expect(api.totals.modelCalls).toBeGreaterThan(0);
  await page.goto('/usage?window=all');
  await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
  const stat = (name: string) => page.locator('.usage-totals .stat').filter({ has: page.getByText(name, { exact: true }) }).locator('dd');
  await expect(stat('Model calls')).toHaveText(fmt(api.totals.modelCalls));
  await expect(stat('Requests')).toHaveText(fmt(api.totals.requests));
  await expect(stat('Calls without credit data')).toHaveText(fmt(api.totals.callsWithoutCredits));
  await expect(page.getByRole('figure', { name: 'AI credits per day by model' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Usage by model' }).getByRole('row')).toHaveCount(api.rows.length + 1);

  await page.getByRole('group', { name: 'Group by' }).getByRole('button', { name: 'Repository' }).click();
  await expect(page).toHaveURL(/by=repository/);
  const byRepo = (await (await page.request.get('/api/usage?window=all&by=repository')).json()) as { rows: { key: string | null }[] };
  await expect(page.getByRole('table', { name: 'Usage by repository' }).getByRole('row')).toHaveCount(byRepo.rows.length + 1);
});

// The page opens on the last 7 days: a user whose calls are older (or a filter that matches none) is shown the way
// to them, not only told to look elsewhere.
test('an empty Usage page offers all time and every repository, one click each', async ({ page }) => {
  const api = (await (await page.request.get('/api/usage?window=all')).json()) as { totals: UsageTotals };
  await page.goto(`/usage?window=24h&repo=${encodeURIComponent('nobody/no-such-repo')}`);
  await expect(page.getByText('No model calls in nobody/no-such-repo in the last 24 hours.', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Show all time' }).click();
  await expect(page).toHaveURL(/window=all/);
  await expect(page.getByText('No model calls in nobody/no-such-repo.', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Show all time' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Show every repository' }).click();
  await expect(page).not.toHaveURL(/repo=/);
  const stat = page.locator('.usage-totals .stat').filter({ has: page.getByText('Model calls', { exact: true }) }).locator('dd');
  await expect(stat).toHaveText(fmt(api.totals.modelCalls));
});

// At 1440 px the cards sat in 140 px tracks, and a real archive's tokens (1,325,810,452 / 98,368,022) ran past their card.
test("the Usage cards hold an archive's largest figures, whole, at 1440 and 1024 px", async ({ page }) => {
  const real = (await (await page.request.get('/api/usage?window=all')).json()) as { totals: Record<string, number> };
  const big = { ...real, totals: { ...real.totals, tokensIn: 1_325_810_452, tokensOut: 98_368_022, requests: 128_822, modelCalls: 418_018, callsWithoutCredits: 314_079 } };
  await page.route('**/api/usage?*', (route) => route.fulfill({ json: big }));
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/usage?window=all');
    const tokens = page.locator('.usage-totals .stat').filter({ has: page.getByText('Tokens in / out', { exact: true }) });
    await expect(tokens.locator('dd')).toHaveText(/^1,325,810,452 \/ 98,368,022/);
    const cards = await page.locator('.usage-totals .stat').evaluateAll((els) =>
      els.map((el) => {
        const dd = el.querySelector('dd') as HTMLElement;
        // each number's line boxes: one when it is not broken between its digits
        const numbers: number[] = [];
        const walk = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT);
        for (let n = walk.nextNode(); n; n = walk.nextNode()) {
          for (const m of (n.textContent ?? '').matchAll(/[0-9][0-9,.]*/g)) {
            const r = document.createRange();
            r.setStart(n, m.index);
            r.setEnd(n, m.index + m[0].length);
            numbers.push(new Set([...r.getClientRects()].map((rect) => Math.round(rect.top))).size);
          }
        }
        return { over: el.scrollWidth - el.clientWidth, numbers, text: dd.textContent };
      }),
    );
    for (const c of cards) expect(c.over, `${width} px: ${c.text}`).toBeLessThanOrEqual(0);
    for (const c of cards) expect(c.numbers.every((lines) => lines === 1), `${width} px: ${c.text}`).toBe(true);
  }
});

test('the Customizations page lists testing2 as skipped for name-mismatch, with the fix and its sessions', async ({ page }) => {
  await page.goto('/customizations');
  await expect(page.getByText(/entries read/)).toBeVisible();
  await page.getByRole('checkbox', { name: 'Skipped only' }).check();
  await expect(page).toHaveURL(/skipped=1/);
  const skills = page.getByRole('region', { name: 'Skills' });
  const item = skills.getByRole('listitem').filter({ hasText: 'testing2' });
  await expect(item).toContainText('skipped');
  await expect(item).toContainText('name-mismatch');
  await expect(item).toContainText('its folder is "testing" but its file says name: testing2');
  await expect(item.getByRole('link').first()).toHaveAttribute('href', /^\/session\//);
});

test('the triage cards count the window shown, and equal the list they open', async ({ page }) => {
  const counts = async (q: string) => (await (await page.request.get(`/api/triage/counts${q}`)).json()) as { slow: { unique: number }; errors: { unique: number } };
  const all = await counts('');
  const day = await counts('?window=24h');
  expect(day.slow.unique).toBeLessThan(all.slow.unique);
  await page.goto('/triage');
  const card = (name: string) => page.locator('.triage-headline .stat').filter({ has: page.getByText(name, { exact: true }) }).getByRole('link');
  await expect(card('Slower than 5 s')).toHaveText(fmt(all.slow.unique));
  await page.getByRole('group', { name: 'Time window' }).getByRole('button', { name: '24h' }).click();
  await expect(card('Slower than 5 s')).toHaveText(fmt(day.slow.unique));
  await expect(card('Errors')).toHaveText(fmt(day.errors.unique));
  const list = (await (await page.request.get('/api/events?window=24h&limit=1')).json()) as { total: number };
  expect(list.total).toBe(day.slow.unique);
});
