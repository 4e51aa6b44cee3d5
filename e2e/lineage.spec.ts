import { expect, test, type Page } from '@playwright/test';
import type { LineageForestResponse, LineageTree, LineageTreeNode } from '../shared/api';
import { nodeBadge } from '../web/src/features/lineage/relation';
import { MANY_SUBAGENTS_ID } from './fixtures/many-subagents';

// Lineage (issue 6) against the real server on the generated corpus: the forest, a session's graph, a click
// through to a child, the dashed parent of a fork whose parent is not in the index, and the session view's panel.

const isSubagent = (n: LineageTreeNode) => n.kind === 'child' && /^(runSubagent|searchSubagent)/.test(n.label ?? '');
const nodeName = (n: LineageTreeNode) => `${nodeBadge(n) ?? 'session'}: ${n.title ?? n.label ?? n.id.slice(0, 8)}`;

async function forest(page: Page): Promise<LineageTree[]> {
  const res = await page.request.get('/api/lineage?window=all&limit=100');
  expect(res.ok()).toBe(true);
  return ((await res.json()) as LineageForestResponse).trees;
}

test('from the forest, open the lineage of a session with subagents and click a child to open it', async ({ page }) => {
  const trees = await forest(page);
  // among the first trees (the forest list is virtual: later ones are not on screen), one whose root has a title
  // of its own and started a subagent
  const titles = trees.map((t) => t.root.title);
  const tree = trees.slice(0, 4).find((t) => t.root.title && titles.indexOf(t.root.title) === titles.lastIndexOf(t.root.title) && t.root.descendants.some(isSubagent));
  expect(tree, 'a session with subagents near the top of the forest').toBeDefined();
  const root = tree!.root;
  const child = root.descendants.find(isSubagent)!;

  await page.goto('/lineage');
  await expect(page.getByRole('heading', { level: 1, name: 'Lineage' })).toBeVisible();
  await page.getByRole('heading', { level: 2, name: root.title!, exact: true }).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/lineage/${encodeURIComponent(root.id)}$`));

  const graph = page.getByRole('group', { name: /^Lineage graph/ });
  await expect(graph).toBeVisible();
  // the target is marked as the current page; every child is drawn, each a link to its session
  await expect(graph.locator('[aria-current="page"]')).toHaveAttribute('href', `/session/${encodeURIComponent(root.id)}`);
  // siblings of one kind may be one counted group ("5 subagents: Explore ×3, Plan ×2"): open them to see each
  for (const group of await graph.getByRole('button', { name: / (subagents?|helper sessions?): / }).all()) await group.click();
  for (const d of root.descendants) await expect(graph.getByRole('link', { name: nodeName(d), exact: true }).first()).toBeAttached();

  await graph.getByRole('link', { name: nodeName(child), exact: true }).first().click();
  await expect(page).toHaveURL(new RegExp(`/session/${encodeURIComponent(child.id)}$`));
});

test('a fork whose parent is not in the index shows the dashed parent and says the chain is incomplete', async ({ page }) => {
  const trees = await forest(page);
  const broken = trees.find((t) => t.unresolvedParentId !== null);
  expect(broken, 'the corpus has a fork with a missing parent').toBeDefined();
  const api = await page.request.get(`/api/lineage/${encodeURIComponent(broken!.root.id)}`);
  const trace = (await api.json()) as { complete: boolean; unresolvedParentId?: string };
  expect(trace.complete).toBe(false);
  expect(trace.unresolvedParentId).toBe(broken!.unresolvedParentId);

  await page.goto(`/lineage/${encodeURIComponent(broken!.root.id)}`);
  await expect(page.getByText(/Incomplete: parent .* is not in the index/)).toBeVisible();
  const graph = page.getByRole('group', { name: /^Lineage graph/ });
  await expect(graph.getByText('parent not in the index', { exact: true })).toBeVisible();
  // the whole id, copyable, and no link (there is no page for it)
  await expect(graph.getByText(broken!.unresolvedParentId!, { exact: true })).toBeVisible();
  await expect(graph.getByRole('button', { name: 'Copy the parent session id' })).toBeVisible();

  // the session's own header says the same, without a link to a page that does not exist
  await page.goto(`/session/${encodeURIComponent(broken!.root.id)}`);
  const header = page.locator('.session-title-row');
  await expect(header).toContainText(`from ${broken!.unresolvedParentId!} (not in the index)`);
  await expect(header.getByRole('link')).toHaveCount(0);
  await expect(header.getByRole('button', { name: 'Copy the parent session id' })).toBeVisible();
});

test('24 subagents of one session are one counted group, opened on click, legible at first view', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/lineage/${MANY_SUBAGENTS_ID}`);
  const graph = page.getByRole('group', { name: /^Lineage graph/ });
  const group = graph.getByRole('button', { name: /24 subagents: Explore ×13, Plan ×11/ });
  await expect(group).toBeVisible();
  await expect(graph.getByRole('link', { name: /^subagent · / })).toHaveCount(0);
  await group.click();
  await expect(graph.getByRole('link', { name: /^subagent · Explore/ })).toHaveCount(13);
  await expect(graph.getByRole('link', { name: /^subagent · Plan/ })).toHaveCount(11);
});

test('the first view of the largest lineage is legible (text of 11 px or more) and shows the session', async ({ page }) => {
  const tree = (await forest(page)).sort((a, b) => b.stats.sessions - a.stats.sessions)[0];
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/lineage/${encodeURIComponent(tree.root.id)}`);
  const graph = page.getByRole('group', { name: /^Lineage graph/ });
  const target = graph.locator('[aria-current="page"]');
  await expect(target).toBeVisible();
  await page.waitForTimeout(300);
  // the smallest text of a node, as drawn: its font size times the graph's zoom
  const smallest = await target.evaluate((el) => {
    const zoom = el.getBoundingClientRect().width / (el as HTMLElement).offsetWidth;
    const sizes = [...el.querySelectorAll('span')].map((x) => parseFloat(getComputedStyle(x).fontSize));
    return Math.min(...sizes) * zoom;
  });
  expect(smallest).toBeGreaterThanOrEqual(11);
  const g = (await graph.boundingBox())!;
  const t = (await target.boundingBox())!;
  expect(t.x).toBeGreaterThanOrEqual(g.x);
  expect(t.x + t.width).toBeLessThanOrEqual(g.x + g.width);
});

test('the graph pans and zooms', async ({ page }) => {
  const tree = (await forest(page)).find((t) => t.stats.sessions > 2)!;
  await page.goto(`/lineage/${encodeURIComponent(tree.root.id)}`);
  const viewport = page.locator('.react-flow__viewport');
  await expect(viewport).toBeVisible();
  const before = await viewport.getAttribute('style');
  await page.getByRole('button', { name: 'Zoom Out' }).click();
  await expect.poll(() => viewport.getAttribute('style')).not.toBe(before);
  const box = (await page.getByRole('group', { name: /^Lineage graph/ }).boundingBox())!;
  const zoomed = await viewport.getAttribute('style');
  // drag on empty canvas near the bottom-left corner, away from the nodes and the controls
  await page.mouse.move(box.x + box.width - 40, box.y + 20);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width - 240, box.y + 120, { steps: 8 });
  await page.mouse.up();
  await expect.poll(() => viewport.getAttribute('style')).not.toBe(zoomed);
});

test('the session view embeds the lineage panel, which leads to the full lineage', async ({ page }) => {
  const tree = (await forest(page)).find((t) => t.root.descendants.some(isSubagent))!;
  await page.goto(`/session/${encodeURIComponent(tree.root.id)}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const panel = page.getByRole('region', { name: 'Lineage', exact: true });
  test.fixme((await panel.count()) === 0, 'the session view does not embed <LineagePanel> yet');
  await expect(panel.getByRole('group', { name: /^Lineage graph/ })).toBeVisible();
  await panel.getByRole('link', { name: 'Open full lineage' }).click();
  await expect(page).toHaveURL(new RegExp(`/lineage/${encodeURIComponent(tree.root.id)}$`));
});
