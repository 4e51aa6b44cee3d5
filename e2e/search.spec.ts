import { expect, test, type Page } from '@playwright/test';
import type { SearchResponse } from '../shared/api';

// Search (issue 3) against the real server on the generated corpus: type a query, see results grouped by
// repository with highlighted snippets, move with the keyboard, open one and land on the matched event.

async function api(page: Page, q: string, extra = ''): Promise<SearchResponse> {
  const res = await page.request.get(`/api/search?q=${encodeURIComponent(q)}${extra}`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as SearchResponse;
}

const box = (page: Page) => page.getByRole('searchbox', { name: 'Search all sessions' });

test('type a query, see sessions grouped by repository, open one at the matched event', async ({ page }) => {
  const expected = await api(page, 'Reconnect');
  expect(expected.totals.sessions, 'the corpus mentions wsReconnectLoop').toBeGreaterThan(0);
  const first = expected.groups[0];
  const top = first.sessions[0];

  await page.goto('/search');
  await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible();
  await box(page).fill('Reconnect');
  // the URL follows the box once typing pauses
  await expect(page).toHaveURL(/\/search\?q=Reconnect$/);
  const group = page.getByRole('region', { name: first.repository ?? 'No workspace' });
  await expect(group).toBeVisible();
  await expect(page.getByRole('heading', { level: 2 })).toHaveCount(expected.groups.length);
  // the matched text is highlighted (built from offsets: a <mark> holding exactly the match)
  await expect(group.locator('mark').first()).toHaveText(/^reconnect$/i);
  await expect(page.getByText(`${expected.totals.sessions} sessions`, { exact: false }).first()).toBeVisible();

  // ↓ selects the first result, Enter opens its session at the event the snippet came from
  await box(page).press('ArrowDown');
  await expect(page.locator('.search-row[aria-current="true"]')).toHaveCount(1);
  await box(page).press('Enter');
  const eventId = top.hits[0].eventId;
  expect(eventId).not.toBeNull();
  await expect(page).toHaveURL(new RegExp(`/session/${encodeURIComponent(top.id)}\\?event=${eventId}(&zoom=[\\d.]+-[\\d.]+)?&from=q%3DReconnect$`));
  await expect(page.locator(`[role="treeitem"][data-event-id="${eventId}"]`)).toHaveAttribute('aria-selected', 'true');
  const details = page.getByRole('complementary', { name: 'Event details' });
  await expect(details).toBeVisible();
  // the term is marked in the details, and the breadcrumb goes back to the same search
  await expect(details.locator('mark').first()).toHaveText(/^reconnect$/i);
  const crumb = page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: '← Search “Reconnect”' });
  await crumb.click();
  await expect(page).toHaveURL(/\/search\?q=Reconnect$/);
  await expect(box(page)).toHaveValue('Reconnect');
});

test('Chinese of two characters and of one, with the match highlighted; a result link is a deep link', async ({ page }) => {
  await page.goto('/search?q=%E8%90%BD%E7%9B%98'); // 落盘
  await expect(box(page)).toHaveValue('落盘');
  await expect(page.locator('.search-row mark').first()).toHaveText('落盘');
  const link = page.locator('.search-row').first().getByRole('link').first();
  await expect(link).toHaveAttribute('href', /^\/session\/[^?]+\?event=\d+&from=q%3D%25E8%2590%25BD%25E7%259B%2598$/);

  await box(page).fill('盘');
  await expect(page).toHaveURL(/q=%E7%9B%98$/);
  await expect(page.locator('.search-row mark').first()).toHaveText('盘');
});

test('/ focuses the box, j/k move, filters and the window live in the URL', async ({ page }) => {
  await page.goto('/search?q=Reconnect&window=90d&sort=recent');
  await expect(page.getByRole('button', { name: '90d' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Recent' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.search-row').first()).toBeVisible();
  await page.locator('.search-summary').click();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(page.locator('.search-row[data-row="1"]')).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('k');
  await expect(page.locator('.search-row[data-row="0"]')).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('/');
  await expect(box(page)).toBeFocused();

  // a type chip writes type:tool into the query (and the URL); its × chip… is the chip itself, toggled off
  await page.getByRole('button', { name: 'tool', exact: true }).click();
  await expect(box(page)).toHaveValue('Reconnect type:tool');
  await expect(page).toHaveURL(/q=Reconnect\+type%3Atool/);
  await page.getByRole('button', { name: 'tool', exact: true }).click();
  await expect(box(page)).toHaveValue('Reconnect');
});

// Two choices in one task, before the router renders the first (app/url-state.ts): the second must not put the
// first back (setSearchParams hands its function the parameters of the last render).
test('the window and the order chosen faster than the page renders: both stay', async ({ page }) => {
  await page.goto('/search?q=Reconnect');
  await expect(page.getByTitle('All time')).toHaveAttribute('aria-pressed', 'true');
  await page.evaluate(() => {
    const button = (name: string) => [...document.querySelectorAll('button')].find((b) => b.textContent === name)!;
    button('7d').click();
    button('Recent').click();
  });
  await expect(page.getByRole('button', { name: '7d' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Recent' })).toHaveAttribute('aria-pressed', 'true');
  expect(new URL(page.url()).search).toBe('?q=Reconnect&window=7d&sort=recent');
  // each a step of its own: Back undoes the order, then the window
  await page.goBack();
  await expect(page.getByRole('button', { name: 'Relevance' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: '7d' })).toHaveAttribute('aria-pressed', 'true');
});

test('nothing found suggests a wider window, a shorter word or fewer filters; a too-short word says why', async ({ page }) => {
  await page.goto('/search?q=zqxjvwzqxj%20repo%3Aacme%2Fnowhere&window=7d');
  await expect(page.getByText(/^No sessions match/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Search all time' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Try a shorter word/ })).toBeVisible();
  await page.getByRole('button', { name: 'Remove repo:acme/nowhere' }).click();
  await expect(box(page)).toHaveValue('zqxjvwzqxj');

  await box(page).fill('io');
  await expect(page.getByRole('status').filter({ hasText: /"io" is too short/ })).toBeVisible();
});
