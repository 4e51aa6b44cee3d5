import { expect, test } from '@playwright/test';
import { SESSION_VIEW_ID } from './fixtures/session-view';
import { pressInOneTask } from './support/keys';

// Issue 18: every list answers j/k/Enter, `?` lists the page's shortcuts, and after a navigation the keys act on
// the page's main list or tree. Driven by keyboard only.

interface TriageEvent {
  id: number;
  sessionId: string;
  dur: number;
}

test('the slowest call opens from the Triage page with j and Enter only', async ({ page }) => {
  const slow = (await (await page.request.get('/api/events?min=5000&sort=dur&limit=2')).json()) as { events: TriageEvent[] };
  test.skip(slow.events.length < 2, 'the corpus has fewer than two calls slower than 5 s');
  const [slowest, second] = slow.events;

  await page.goto('/triage');
  const list = page.getByRole('list', { name: 'Slowest calls' });
  await expect(list).toBeFocused();

  await page.keyboard.press('j');
  const first = list.getByRole('link').first();
  await expect(first).toBeFocused();
  await expect(first).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('j');
  await expect(list.getByRole('link').nth(1)).toHaveAttribute('href', `/session/${encodeURIComponent(second.sessionId)}?event=${second.id}`);
  await expect(list.getByRole('link').nth(1)).toBeFocused();
  await page.keyboard.press('k');
  await expect(first).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/session/${encodeURIComponent(slowest.sessionId)}\\?event=${slowest.id}(&zoom=[\\d.]+-[\\d.]+)?$`));
  const tree = page.getByRole('tree', { name: 'Spans of this session' });
  await expect(tree.getByRole('treeitem', { selected: true })).toHaveAttribute('data-event-id', String(slowest.id));
  // focus is on the tree, not the body: the tree's keys work at once
  await expect(tree).toBeFocused();
});

test('? lists the shortcuts bound on the page; Esc closes the list', async ({ page }) => {
  await page.goto('/triage');
  await expect(page.getByRole('list', { name: 'Slowest calls' })).toBeFocused();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  const list = help.getByRole('region', { name: 'Slowest calls' });
  await expect(list.getByRole('definition')).toHaveText(['Next call', 'Previous call', 'Open the selected call in its session']);
  await expect(help.getByRole('region', { name: 'Anywhere' }).getByRole('definition').first()).toHaveText('Show these shortcuts');
  await expect(help.getByRole('region', { name: 'Anywhere' })).toContainText('Go to Sessions');
  // the session tree's keys are not bound here, so they are not listed
  await expect(help.getByRole('region', { name: 'Session tree' })).toHaveCount(0);
  // while the list is open, j moves nothing behind it
  await page.keyboard.press('j');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await expect(page.getByRole('list', { name: 'Slowest calls' }).locator('a[aria-current="true"]')).toHaveCount(0);
});

test('the session page lists the tree keys in its shortcut overlay', async ({ page }) => {
  const sessions = (await (await page.request.get('/api/sessions?limit=1')).json()) as { sessions: { id: string }[] };
  await page.goto(`/session/${encodeURIComponent(sessions.sessions[0].id)}`);
  await expect(page.getByRole('tree', { name: 'Spans of this session' })).toBeFocused();
  await page.keyboard.press('?');
  const tree = page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByRole('region', { name: 'Session tree' });
  await expect(tree).toContainText('Next error');
  await expect(tree).toContainText('Expand all');
});

test('failure groups: j/k move, Enter shows the occurrences', async ({ page }) => {
  await page.goto('/triage?tab=failures');
  const groups = page.getByRole('list', { name: 'Failure groups' });
  await expect(groups).toBeFocused();
  test.skip((await groups.getByRole('listitem').count()) < 2, 'fewer than two failure groups');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  const toggle = groups.getByRole('button', { name: /Show occurrences/ }).first();
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(groups.getByRole('button', { name: /Hide occurrences/ }).first()).toHaveAttribute('aria-expanded', 'true');
  await expect(groups.getByRole('listitem').first().getByRole('list', { name: /^Occurrences of / })).toBeVisible();
});

test('the sessions list: j/k move down the list as it reads, Enter opens the session', async ({ page }) => {
  await page.goto('/');
  const list = page.getByRole('region', { name: 'Sessions list' });
  await expect(list).toBeFocused();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  // the second row as read, whichever repository group it is in
  const second = list.getByRole('listitem').nth(1).getByRole('link').first();
  await expect(second).toBeFocused();
  const href = await second.getAttribute('href');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL((url) => url.pathname === href);
  await expect(page.getByRole('tree', { name: 'Spans of this session' })).toBeFocused();
});

// Keys dispatched in one task, with no render between them: each must step from the row the one before chose
// (each used to start from the rendered selection, so three presses moved one row).

test('the triage list: j j j faster than the page renders selects the third call', async ({ page }) => {
  await page.goto('/triage');
  const list = page.getByRole('list', { name: 'Slowest calls' });
  await expect(list).toBeFocused();
  test.skip((await list.getByRole('link').count()) < 4, 'fewer than four slow calls');
  await pressInOneTask(page, ['j', 'j', 'j']);
  await expect(list.getByRole('link').nth(2)).toHaveAttribute('aria-current', 'true');
  await expect(list.getByRole('link').nth(2)).toBeFocused();
  await pressInOneTask(page, ['k', 'k']);
  await expect(list.getByRole('link').first()).toHaveAttribute('aria-current', 'true');
});

test('the session tree: j j j faster than the page renders selects the third row', async ({ page }) => {
  await page.goto(`/session/${SESSION_VIEW_ID}`);
  const tree = page.getByRole('tree', { name: 'Spans of this session' });
  await expect(tree).toBeFocused();
  await expect(tree.getByRole('treeitem').nth(3)).toBeVisible();
  const ids = await tree.getByRole('treeitem').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event-id')));
  await pressInOneTask(page, ['j', 'j', 'j']);
  await expect(tree.getByRole('treeitem', { selected: true })).toHaveAttribute('data-event-id', ids[2]!);
  await expect(page).toHaveURL(new RegExp(`[?&]event=${ids[2]}(&|$)`));
  await pressInOneTask(page, ['k', 'k']);
  await expect(tree.getByRole('treeitem', { selected: true })).toHaveAttribute('data-event-id', ids[0]!);
});
