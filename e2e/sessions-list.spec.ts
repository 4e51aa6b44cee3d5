import { expect, test } from '@playwright/test';

// Issue 18, the sessions list: sorted on the server by the column clicked (both ways), columns empty for every
// row hidden, honest counts in the repository filter, the session id copyable.

interface Row {
  id: string;
  title: string | null;
  errorCount: number;
  eventCount: number;
  branch: string | null;
  repository: string | null;
}

test('clicking a column sorts on the server, largest first, and again reverses it', async ({ page }) => {
  const api = (await (await page.request.get('/api/sessions?sort=errors&limit=1')).json()) as { sessions: Row[] };
  const top = api.sessions[0];
  await page.goto('/');
  const columns = page.getByRole('group', { name: 'Columns' });
  await columns.getByRole('button', { name: 'Sort by errors' }).click();
  await expect(page).toHaveURL(/[?&]sort=errors/);
  await expect(columns.getByRole('button', { name: 'Sort by errors, largest first' })).toHaveAttribute('aria-pressed', 'true');
  // the first row of the page is the server's session with the most errors
  const list = page.getByRole('region', { name: 'Sessions list' });
  await expect(list.getByRole('listitem').first().getByRole('link').first()).toHaveAttribute('href', `/session/${encodeURIComponent(top.id)}`);

  await columns.getByRole('button', { name: 'Sort by errors, largest first' }).click();
  await expect(page).toHaveURL(/dir=asc/);
  const asc = (await (await page.request.get('/api/sessions?sort=errors&dir=asc&limit=1')).json()) as { sessions: Row[] };
  await expect(list.getByRole('listitem').first().getByRole('link').first()).toHaveAttribute('href', `/session/${encodeURIComponent(asc.sessions[0].id)}`);
});

test('the repository filter counts repositories, and sessions separately', async ({ page }) => {
  const repos = (await (await page.request.get('/api/repositories')).json()) as { repositories: { name: string | null; sessions: number }[] };
  const named = repos.repositories.filter((r) => r.name !== null).length;
  const sessions = repos.repositories.reduce((n, r) => n + r.sessions, 0);
  const total = ((await (await page.request.get('/api/sessions?limit=1')).json()) as { total: number }).total;
  // one number everywhere: the filter's session count is the list's total
  expect(sessions).toBe(total);
  await page.goto('/');
  const all = page.getByRole('combobox', { name: 'Repository' }).getByRole('option').first();
  await expect(all).toHaveText(`All ${named} ${named === 1 ? 'repository' : 'repositories'} (${total.toLocaleString('en-US')} sessions)`);
  await expect(page.getByText(`of ${total.toLocaleString('en-US')} sessions`)).toBeVisible();
});

test('the session id copies from its row', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const first = ((await (await page.request.get('/api/sessions?limit=1')).json()) as { sessions: Row[] }).sessions[0];
  await page.goto('/');
  const list = page.getByRole('region', { name: 'Sessions list' });
  await list.getByRole('listitem').first().getByRole('button', { name: 'Copy the session id' }).click();
  // copying is not opening the session
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first.id);
});
