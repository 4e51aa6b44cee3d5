import { expect, test } from '@playwright/test';

// Export and import against the real server: the Export menu says what VS Code will not show and downloads a
// valid OTLP file; "Copy as Markdown" on a span; an OTLP file dropped on the Sessions page comes back as an
// imported session.

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: { stringValue?: string } }[];
}

async function someSessionWithChildren(request: import('@playwright/test').APIRequestContext): Promise<string> {
  const list = (await (await request.get('/api/sessions?limit=200')).json()) as { sessions: { id: string; childCount: number; imported: boolean }[] };
  const s = list.sessions.find((x) => x.childCount > 0 && !x.imported) ?? list.sessions[0];
  return s.id;
}

test('the Export menu offers OTLP JSON and Markdown and says what VS Code will not show', async ({ page }) => {
  const id = await someSessionWithChildren(page.request);
  await page.goto(`/session/${encodeURIComponent(id)}`);
  await page.getByText('Export', { exact: true }).click();
  const menu = page.getByRole('menu', { name: 'Export this session' });
  await expect(menu.getByRole('menuitem', { name: /OTLP JSON/ })).toContainText('VS Code will not show time to first token, cached tokens, credits');
  const download = page.waitForEvent('download');
  await menu.getByRole('menuitem', { name: /OTLP JSON/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.otlp\.json$/);
  const doc = JSON.parse(await (await page.request.get(`/api/sessions/${encodeURIComponent(id)}/export?format=otlp`)).text()) as { resourceSpans: { scopeSpans: { spans: Span[] }[] }[]; copilotChat: { sessionId: string } };
  expect(doc.copilotChat.sessionId).toBe(id);
  const spans = doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
  const ids = new Set(spans.map((s) => s.spanId));
  expect(ids.size).toBe(spans.length);
  for (const s of spans) {
    expect(s.traceId).toMatch(/^[0-9a-f]{32}$/);
    if (s.parentSpanId) expect(ids.has(s.parentSpanId)).toBe(true);
    expect(s.attributes.some((a) => a.key === 'gen_ai.operation.name')).toBe(true);
  }
});

// A session too large for VS Code's import is refused by the server with its size and the command that splits it: the
// menu says so (a plain download link saved the error body as the file, or failed with "server problem").
test('an OTLP export the server refuses says why in the menu, and downloads nothing', async ({ page }) => {
  const id = await someSessionWithChildren(page.request);
  const message = `the export is over 122.1 MB (its 254,419 log entries alone), over VS Code's 50 MB import limit: run \`chronoscope export ${id} --split -o FILE\` to write it in parts`;
  await page.route('**/export?format=otlp', (route) => route.fulfill({ status: 413, contentType: 'application/json', body: JSON.stringify({ error: { code: 'export_too_large', message } }) }));
  await page.goto(`/session/${encodeURIComponent(id)}`);
  await page.getByText('Export', { exact: true }).click();
  const menu = page.getByRole('menu', { name: 'Export this session' });
  let downloads = 0;
  page.on('download', () => downloads++);
  await menu.getByRole('menuitem', { name: /OTLP JSON/ }).click();
  await expect(menu.getByRole('alert')).toHaveText(message);
  expect(downloads).toBe(0);
});

test('Copy as Markdown on a span puts its Markdown on the clipboard', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const id = await someSessionWithChildren(page.request);
  await page.goto(`/session/${encodeURIComponent(id)}`);
  const row = page.getByRole('tree', { name: 'Spans of this session' }).getByRole('treeitem').nth(1);
  await row.click();
  await page.getByRole('button', { name: 'Copy as Markdown' }).click();
  await expect(page.getByRole('button', { name: 'Copied' }).last()).toBeVisible();
  const text = await page.evaluate(() => navigator.clipboard.readText());
  expect(text.startsWith('# ')).toBe(true);
  expect(text).toContain(`Session \`${id}\` · event `);
});

test('an OTLP file dropped on the Sessions page is imported and listed as imported', async ({ page }) => {
  const T = Date.now() - 60_000;
  const ns = (ms: number) => String(BigInt(ms) * 1_000_000n);
  const sid = `dropped-${Date.now()}`;
  const doc = {
    resourceSpans: [
      {
        resource: { attributes: [] },
        scopeSpans: [
          {
            spans: [
              {
                traceId: 'exported-trace',
                spanId: 'b1',
                name: 'invoke_agent',
                startTimeUnixNano: ns(T),
                endTimeUnixNano: ns(T + 5000),
                attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'invoke_agent' } }, { key: 'copilot_chat.session_id', value: { stringValue: sid } }],
                events: [{ name: 'user_message', timeUnixNano: ns(T), attributes: [{ key: 'content', value: { stringValue: 'a dropped session about zebra-striping' } }] }],
              },
              { traceId: 'exported-trace', spanId: 'b2', parentSpanId: 'b1', name: 'chat gpt-4.1', startTimeUnixNano: ns(T + 10), endTimeUnixNano: ns(T + 2010), attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }, { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4.1' } }] },
            ],
          },
        ],
      },
    ],
  };
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'session.otlp.json', { type: 'application/json' }));
    window.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, cancelable: true }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, cancelable: true }));
  }, JSON.stringify(doc));
  await expect(page.getByRole('status').filter({ hasText: 'Imported' })).toContainText(`${sid} (2 events)`);
  // the indexer picks the file up from the imports folder it watches
  await expect
    .poll(async () => ((await (await page.request.get(`/api/sessions/${encodeURIComponent(sid)}`)).json()) as { imported?: boolean }).imported, { timeout: 15_000 })
    .toBe(true);
  await page.getByRole('link', { name: sid }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('a dropped session about zebra-striping');
  await expect(page.locator('.session-title-row').getByText('imported')).toBeVisible();
});
