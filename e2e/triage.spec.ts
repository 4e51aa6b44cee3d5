import { expect, test } from '@playwright/test';

// The triage page against the real server on the generated corpus: filter by a model, open the slowest
// call, land on it in the session view.

interface LatencyRow {
  key: string;
  count: number;
}
interface TriageEvent {
  id: number;
  sessionId: string;
  dur: number;
  model: string | null;
}

test('filter by a model, click the slowest call, land on it in the session view', async ({ page }) => {
  // The model with the most calls, and its slowest call over 5 s, straight from the API.
  const stats = (await (await page.request.get('/api/stats/latency?by=model')).json()) as { rows: LatencyRow[] };
  const model = stats.rows.find((r) => r.key !== '')?.key;
  test.skip(!model, 'the corpus has no model calls');
  const slow = (await (await page.request.get(`/api/events?type=llm_request&model=${encodeURIComponent(model!)}&limit=1`)).json()) as { events: TriageEvent[] };
  test.skip(slow.events.length === 0, `no call of ${model} slower than 5 s`);
  const slowest = slow.events[0];

  await page.goto('/triage');
  await expect(page.getByRole('heading', { level: 1, name: 'Triage' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Slow calls', selected: true })).toBeVisible();

  await page.getByRole('combobox', { name: 'Model' }).selectOption(model!);
  await expect(page).toHaveURL(new RegExp(`[?&]model=${encodeURIComponent(model!).replace(/\./g, '\\.')}`));

  const list = page.getByRole('list', { name: 'Slowest calls' });
  const first = list.getByRole('link').first();
  // every row now names the model; the first one is the slowest call the API knows of
  await expect(first).toHaveAttribute('href', `/session/${encodeURIComponent(slowest.sessionId)}?event=${slowest.id}`);
  await expect(first).toContainText(model!);

  await first.click();
  await expect(page).toHaveURL(new RegExp(`/session/${encodeURIComponent(slowest.sessionId)}\\?event=${slowest.id}(&zoom=[\\d.]+-[\\d.]+)?$`));
  // the session view selects that event
  const selected = page.getByRole('tree', { name: 'Spans of this session' }).getByRole('treeitem', { selected: true });
  await expect(selected).toHaveAttribute('data-event-id', String(slowest.id));
  await expect(page.getByRole('complementary', { name: 'Event details' })).toBeVisible();
});

test('failures are grouped by cause and open onto their occurrences', async ({ page }) => {
  await page.goto('/triage?tab=failures');
  const groups = page.getByRole('list', { name: 'Failure groups' });
  await expect(groups.getByRole('listitem').first()).toBeVisible();
  const firstGroup = groups.getByRole('listitem').first();
  await firstGroup.getByRole('button', { name: /Show occurrences/ }).click();
  const occurrences = firstGroup.getByRole('list', { name: /^Occurrences of / });
  await expect(occurrences.getByRole('link').first()).toHaveAttribute('href', /\/session\/[^?]+\?event=\d+$/);
});

test('latency statistics link every count to its calls', async ({ page }) => {
  await page.goto('/triage?tab=latency&by=tool');
  const table = page.getByRole('table');
  await expect(table).toBeVisible();
  const count = table.getByRole('link', { name: /^\d[\d,]*$/ }).first();
  const shown = Number((await count.textContent())!.replace(/,/g, ''));
  await count.click();
  await expect(page).not.toHaveURL(/tab=latency/);
  await expect(page.getByRole('tab', { name: 'Slow calls', selected: true })).toBeVisible();
  await expect(page.getByText(new RegExp(`of ${shown.toLocaleString('en-US')} events?$`))).toBeVisible();
});
