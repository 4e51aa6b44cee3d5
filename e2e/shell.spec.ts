import { expect, test, type Page } from '@playwright/test';

// The web shell and the Sessions page against the real server on the generated corpus.

interface SessionRow {
  id: string;
  title: string | null;
  repository: string | null;
}

async function firstPage(page: Page): Promise<SessionRow[]> {
  const res = await page.request.get('/api/sessions?limit=100');
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { sessions: SessionRow[] }).sessions;
}

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test('the sessions list is grouped by repository, one link per session', async ({ page }) => {
  const sessions = await firstPage(page);
  expect(sessions.length).toBeGreaterThan(1);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();

  const repositories = [...new Set(sessions.map((s) => s.repository ?? 'No workspace'))];
  for (const name of repositories) {
    await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
  }
  // every session of a repository sits in that repository's group, as a link to its page
  const sample = sessions.find((s) => s.repository !== null && s.title) ?? sessions[0];
  const group = page.getByRole('region', { name: sample.repository ?? 'No workspace', exact: true });
  const link = group.getByRole('link', { name: sample.title ?? sample.id, exact: true });
  await expect(link).toHaveAttribute('href', `/session/${encodeURIComponent(sample.id)}`);

  await link.click();
  await expect(page).toHaveURL(new RegExp(`/session/${encodeURIComponent(sample.id)}$`));
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
});

test('the repository and window filters live in the URL', async ({ page }) => {
  const sessions = await firstPage(page);
  const repo = sessions.find((s) => s.repository !== null)?.repository;
  test.skip(!repo, 'the corpus has no repository');
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Repository' }).selectOption(repo!);
  await expect(page).toHaveURL(new RegExp(`[?&]repo=${encodeURIComponent(repo!)}`));
  await expect(page.getByRole('heading', { level: 2, name: repo!, exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2 })).toHaveCount(1);

  await page.getByRole('group', { name: 'Last activity' }).getByRole('button', { name: '90d' }).click();
  await expect(page).toHaveURL(/window=90d/);
  await expect(page.getByRole('button', { name: '90d' })).toHaveAttribute('aria-pressed', 'true');

  // a shared link opens with the same filters
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Repository' })).toHaveValue(repo!);
  await expect(page.getByRole('button', { name: '90d' })).toHaveAttribute('aria-pressed', 'true');
});

test('the theme toggle switches light/dark and remembers the choice', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  const html = page.locator('html');
  const background = () => html.evaluate((el) => getComputedStyle(el).backgroundColor);
  await expect(html).not.toHaveAttribute('data-theme');
  const light = await background();

  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  expect(await background()).not.toBe(light);

  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  // pressing again goes back to following the OS (light here)
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(html).not.toHaveAttribute('data-theme');
  expect(await background()).toBe(light);
});

test('every navigation item opens its page inside the shell', async ({ page }) => {
  await page.goto('/');
  for (const [name, path] of [
    ['Search', '/search'],
    ['Triage', '/triage'],
    ['Lineage', '/lineage'],
    ['SQL', '/sql'],
    ['Sessions', '/'],
  ] as const) {
    await mainNav(page).getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path === '/' ? '/' : path}(\\?.*)?$`));
    await expect(mainNav(page).getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { name: 'Something went wrong' })).toHaveCount(0);
  }
});

test('the health indicator links to the health page with its problems', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: /^Health: [\d,]+ events indexed/ }).click();
  await expect(page).toHaveURL(/\/health$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Health' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: /^Problems/ })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Log folders' })).toBeVisible();
});

test('an unknown address says so inside the shell', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(mainNav(page)).toBeVisible();
});
