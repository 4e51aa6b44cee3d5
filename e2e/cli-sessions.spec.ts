import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { CorpusManifest } from '../server/corpus/generate';
import type { SearchResponse, SessionListResponse } from '../shared/api';
import { E2E_CORPUS } from './support/paths';

// Issue 20.4: Copilot CLI sessions in the product, by role. The generated corpus holds CLI sessions under
// `.copilot/session-state` (manifest.cli); the e2e server reads them with --copilot-home (playwright.config.ts).
const manifest = (): CorpusManifest => JSON.parse(fs.readFileSync(path.join(E2E_CORPUS, 'manifest.json'), 'utf8')) as CorpusManifest;
const total = async (request: { get: (u: string) => Promise<{ json: () => Promise<unknown> }> }, qs: string) =>
  ((await (await request.get(`/api/sessions?limit=1${qs}`)).json()) as SessionListResponse).total;

test('the sessions list filters by source (All / VS Code / CLI) in the URL, and counts what it shows', async ({ page }) => {
  const vscode = await total(page.request, '&source=vscode');
  await page.goto('/');
  const source = page.getByRole('group', { name: 'Source' });
  await expect(source.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
  await source.getByRole('button', { name: 'VS Code' }).click();
  await expect(page).toHaveURL(/[?&]source=vscode/);
  await expect(source.getByRole('button', { name: 'VS Code' })).toHaveAttribute('aria-pressed', 'true');
  // one number: the footer's total is the API's total for that source
  await expect(page.getByText(new RegExp(`Showing [\\d,]+ of ${vscode.toLocaleString('en-US')} sessions`))).toBeVisible();
  await expect(page.getByRole('region', { name: 'Sessions list' }).getByText('CLI', { exact: true })).toHaveCount(0);
  await source.getByRole('button', { name: 'All' }).click();
  await expect(page).not.toHaveURL(/source=/);
});

test('the search page Source control writes source:cli into the query, and All takes it out', async ({ page }) => {
  await page.goto('/search?q=retry');
  const box = page.getByRole('searchbox', { name: 'Search all sessions' });
  const source = page.getByRole('group', { name: 'Source' });
  await source.getByRole('button', { name: 'CLI' }).click();
  await expect(box).toHaveValue('retry source:cli');
  await expect(source.getByRole('button', { name: 'CLI' })).toHaveAttribute('aria-pressed', 'true');
  await source.getByRole('button', { name: 'VS Code' }).click();
  await expect(box).toHaveValue('retry source:vscode');
  await source.getByRole('button', { name: 'All' }).click();
  await expect(box).toHaveValue('retry');
});

test.describe('with the CLI sessions indexed', () => {
  test('CLI shows exactly the CLI sessions, each with its CLI badge', async ({ page }) => {
    const cli = await total(page.request, '&source=cli');
    const topLevel = manifest().cli.sessions.length;
    expect(cli).toBe(topLevel);
    await page.goto('/?source=cli');
    const list = page.getByRole('region', { name: 'Sessions list' });
    await expect(list.getByRole('listitem')).toHaveCount(topLevel);
    await expect(list.getByText('CLI', { exact: true })).toHaveCount(topLevel);
  });

  test('searching a string from a CLI tool result finds that session, marked CLI', async ({ page }) => {
    const s = manifest().cli.sessions[0];
    const api = (await (await page.request.get(`/api/search?q=${s.uniqueResultText}`)).json()) as SearchResponse;
    expect(api.groups.flatMap((g) => g.sessions.map((x) => [x.id, x.source]))).toEqual([[s.sessionId, 'cli']]);
    await page.goto(`/search?q=${s.uniqueResultText}`);
    const row = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: /./ }) }).first();
    await expect(row.getByText('CLI', { exact: true })).toBeVisible();
    await expect(row.getByRole('link').first()).toHaveAttribute('href', new RegExp(`/session/${s.sessionId}`));
  });

  test('a crashed CLI session says its totals are unknown; its header carries the badge', async ({ page }) => {
    await page.goto(`/session/${manifest().cli.notable.crashedSessionId}`);
    const header = page.locator('header.session-header');
    await expect(header.getByText('CLI', { exact: true })).toBeVisible();
    await expect(header.getByText('no shutdown: totals unknown')).toBeVisible();
  });

  test("latency by model: a CLI model's input and cached tokens read '—' (written per session), its output tokens a number", async ({ page }) => {
    const stats = (await (await page.request.get('/api/stats/latency?by=model&window=all&source=cli')).json()) as { rows: { key: string; tokensIn: number | null; tokensOut: number | null; tokensOutCount: number }[] };
    const first = stats.rows[0];
    expect([first.tokensIn, first.tokensOut !== null && first.tokensOut > 0]).toEqual([null, true]);
    await page.goto('/triage?tab=latency&window=all&source=cli');
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: first.key, exact: true }) });
    const cells = row.getByRole('cell');
    await expect(cells).toHaveCount(13);
    const texts = await cells.allTextContents();
    // Tokens in, out, cached are the three cells before out tok/s, the last
    expect(texts.slice(-4, -1).map((t) => t.trim())).toEqual(['—', expect.stringMatching(/^[\d.]+[kM]?$/), '—']);
    await expect(cells.nth(texts.length - 4)).toHaveAttribute('title', 'No call here reported its input tokens (Copilot CLI writes them per session: see Usage)');
    await expect(page.getByText('Tokens “—”: no call of the row reported them')).toBeVisible();
  });

  test('the fork of a CLI session is a CLI node in its lineage', async ({ page }) => {
    const { fork } = manifest().cli.notable;
    await page.goto(`/lineage/${fork.parentId}`);
    await expect(page.getByRole('link', { name: /\(CLI\)/ }).first()).toBeVisible();
  });
});

test('triage has the Source control of the sessions list: CLI keeps the URL source=cli and shows the CLI counts', async ({ page }) => {
  const counts = async (qs: string) => (await (await page.request.get(`/api/triage/counts${qs}`)).json()) as { errors: { unique: number } };
  const [all, cli, vscode] = await Promise.all([counts(''), counts('?source=cli'), counts('?source=vscode')]);
  // one number: the two sources add up to the page without a source
  expect(cli.errors.unique + vscode.errors.unique).toBe(all.errors.unique);
  await page.goto('/triage');
  const source = page.getByRole('group', { name: 'Source' });
  await expect(source.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
  await source.getByRole('button', { name: 'CLI' }).click();
  await expect(page).toHaveURL(/[?&]source=cli/);
  const errors = page.getByRole('link', { name: cli.errors.unique.toLocaleString('en-US'), exact: true }).first();
  await expect(errors).toHaveAttribute('href', /source=cli/);
  // the tabs keep the source
  await expect(page.getByRole('tab', { name: 'Failures' })).toHaveAttribute('href', /source=cli/);
});
