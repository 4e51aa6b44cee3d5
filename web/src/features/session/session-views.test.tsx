import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { EventDetail, RequestTotals, SessionDetail } from '../../../../shared/api';
import { MAX_JSON_DEPTH, tooDeepMarker } from '../../../../shared/json-depth';
import { HOSTILE, HOSTILE_SHOWN, rawInvisible, textOf } from '../../test-support/hostile-text';
import { EventDetailView } from './EventDetailPane';
import { JsonTree } from './JsonTree';
import { RequestsView } from './RequestsView';
import { SessionHeader } from './SessionHeader';
import { HighlightTermsProvider } from '../../ui/HighlightTerms';
import { typeLabel } from './span-types';

// The session view's components render props only: rendered to a string, each shows log text with its
// invisible and bidi characters as escapes (issue 14, item 9), and bounds JSON nested too deep (item 7).

const H = HOSTILE;
const S = HOSTILE_SHOWN;
const inRouter = (el: React.ReactElement) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>{el}</MemoryRouter>
    </QueryClientProvider>,
  );

function sessionDetail(): SessionDetail {
  return {
    id: `id-${H}`,
    title: `title ${H}`,
    repository: `repo-${H}`,
    branch: `br-${H}`,
    workspaceFolder: null,
    createdAt: 1,
    updatedAt: 2,
    eventCount: 3,
    errorCount: 0,
    isChild: true,
    parentId: `p${H}`,
    parentInIndex: true,
    label: `label-${H}`,
    logDeleted: false,
    models: [`m-${H}`],
    tokensIn: 1,
    tokensOut: 1,
    credits: null,
    imported: false,
    source: 'vscode',
    usageComplete: true,
    childCount: 0,
    countsByType: {},
    tokensCached: 0,
    modelMs: 0,
    copilotVersion: `0.44${H}`,
    vscodeVersion: null,
    firstTs: 1,
    lastTs: 2,
    slowest: { eventId: 9, name: `slow-${H}`, dur: 5 },
    children: [],
    files: [],
    refs: [],
    companions: [],
    logFiles: [],
  };
}

function eventDetail(o: Partial<EventDetail> = {}): EventDetail {
  return {
    id: 5,
    sessionId: `child-${H}`,
    folderSessionId: null,
    type: 'tool_call',
    name: `name-${H}`,
    spanId: `span${H}`,
    parentSpanId: null,
    status: 'error',
    ts: 1,
    dur: 3,
    rIdx: 0,
    model: `model-${H}`,
    tool: null,
    ttft: null,
    tokensIn: null,
    tokensOut: null,
    tokensCached: null,
    error: `failed ${H}`,
    dup: 0,
    attrs: { [`key-${H}`]: `short ${H}`, args: JSON.stringify({ [`k${H}`]: `v${H}` }), result: `line 1 ${H}\r\nline 2` },
    cut: {},
    raw: `{"name":"name-${H}"}`,
    rawLength: 20,
    file: { id: 1, path: `/logs/${H}/main.jsonl`, kind: 'main', lineNo: 4, byteOffset: 0, deleted: false },
    companions: [{ attr: 'toolsFile', name: `tools-${H}.json`, kind: 'tools', id: 3 }],
    ...o,
  };
}

describe('session view: log text as visible text', () => {
  it('the header: title, label, parent, id, repository, branch, versions, models, slowest call', () => {
    const html = inRouter(<SessionHeader detail={sessionDetail()} overview={undefined} onSelectEvent={() => {}} onShowErrors={() => {}} />);
    expect(rawInvisible(html)).toEqual([]);
    const t = textOf(html);
    for (const shown of [`title ${S}`, `label-${S}`, 'child of pevil\\u{202e}tx…', `id-${S}`, `repo-${S}`, `br-${S}`, `Copilot 0.44${S}`, `m-${S}`, `slow-${S}`]) expect(t).toContain(shown);
  });

  it('a parent that is not in the index: its whole id, copyable, and no link to a page that does not exist', () => {
    const parentId = 'missing-4f1c2a9e-1111-4222-8333-944445555666';
    const fork = inRouter(<SessionHeader detail={{ ...sessionDetail(), isChild: false, parentId, parentInIndex: false }} overview={undefined} onSelectEvent={() => {}} onShowErrors={() => {}} />);
    expect(textOf(fork)).toContain(`forked from ${parentId} (not in the index)`);
    expect(fork).toContain('aria-label="Copy the parent session id"');
    expect(fork).not.toContain(`href="/session/${parentId}"`);
    const known = inRouter(<SessionHeader detail={{ ...sessionDetail(), isChild: false, parentId, parentInIndex: true }} overview={undefined} onSelectEvent={() => {}} onShowErrors={() => {}} />);
    expect(known).toContain(`href="/session/${parentId}"`);
    expect(textOf(known)).toContain('forked from missing-…');
  });

  it('a CLI session: a "CLI" badge; without session.shutdown its tokens say the totals are unknown and credits are not 0', () => {
    const header = (o: object) => textOf(inRouter(<SessionHeader detail={{ ...sessionDetail(), isChild: false, ...o }} overview={undefined} onSelectEvent={() => {}} onShowErrors={() => {}} />));
    expect(header({}).includes(' CLI ')).toBe(false);
    const done = header({ source: 'cli', usageComplete: true, tokensIn: 5000, tokensOut: 700, credits: 2 });
    expect(done).toContain(' CLI ');
    expect(done).toContain('5k in · 700 out');
    const crashed = header({ source: 'cli', usageComplete: false, tokensIn: 0, tokensOut: 700, credits: null });
    expect(crashed).toContain('700 out · no shutdown: totals unknown');
    expect(crashed).toContain('Credits unknown');
    expect(crashed).not.toContain('0 in');
  });

  it('the detail pane: name, model, companions, span, session, path, attr names and values, error, raw line', () => {
    const html = inRouter(<EventDetailView detail={eventDetail()} pageSessionId="other" sessionStart={0} onClose={() => {}} onLoadAll={() => {}} onCopy={async () => {}} />);
    expect(rawInvisible(html)).toEqual([]);
    const t = textOf(html);
    for (const shown of [`name-${S}`, `model-${S}`, `tools-${S}.json`, `span${S}`, `child-${S}`, `/logs/${S}/main.jsonl:4`, `key-${S}`, `short ${S}`, `failed ${S}`, `k${S}:`, `"v${S}"`, `{"name":"name-${S}"}`]) {
      expect(t).toContain(shown);
    }
    // a Windows line end in tool output is a line end, not an escape
    expect(html).toContain(`line 1 ${S}\nline 2`);
  });

  it('typeLabel: known types in words, unknown ones (Object.prototype names included) as visible text', () => {
    expect(typeLabel('tool_call')).toBe('tool call');
    expect(typeLabel('constructor')).toBe('constructor');
    expect(typeLabel('__proto__')).toBe('__proto__');
    expect(typeLabel(`x${H}`)).toBe(`x${S}`);
  });
});

describe('opened from a search', () => {
  it('marks the search terms in the detail pane (text, JSON values, scalars), made visible piece by piece', () => {
    const d = eventDetail({ attrs: { result: `Retry ${H} then retry`, args: JSON.stringify({ q: 'no RETRY here?' }), n: 'retry' } });
    const html = inRouter(
      <HighlightTermsProvider value={['retry']}>
        <EventDetailView detail={d} pageSessionId="other" sessionStart={0} onClose={() => {}} onLoadAll={() => {}} onCopy={async () => {}} />
      </HighlightTermsProvider>,
    );
    expect(rawInvisible(html)).toEqual([]);
    expect(html).toContain(`<mark>Retry</mark> ${S} then <mark>retry</mark>`);
    expect(html).toContain('&quot;no <mark>RETRY</mark> here?&quot;');
    expect(html.match(/<mark>/g)?.length).toBe(4);
    // not from a search: nothing marked
    expect(inRouter(<EventDetailView detail={d} pageSessionId="other" sessionStart={0} onClose={() => {}} onLoadAll={() => {}} onCopy={async () => {}} />)).not.toContain('<mark>');
  });

  it('the header links back to the search, its query, window and order kept', () => {
    const html = inRouter(<SessionHeader detail={sessionDetail()} overview={undefined} onSelectEvent={() => {}} onShowErrors={() => {}} from="q=retry+%22with+backoff%22&window=7d" />);
    expect(html).toContain('href="/search?q=retry+%22with+backoff%22&amp;window=7d"');
    expect(textOf(html)).toContain('← Search “retry "with backoff"”');
  });
});

describe('JsonTree: bounded depth', () => {
  it(`shows maxDepth levels (${MAX_JSON_DEPTH} unless told) and marks what lies below, without walking it`, () => {
    const levels = 5000;
    const text = '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
    const deep = JSON.parse(text) as unknown;
    // (react-dom/server splits trees this deep into pieces; the browser renders MAX_JSON_DEPTH levels whole)
    const html = renderToStaticMarkup(<JsonTree value={deep} openDepth={Number.POSITIVE_INFINITY} maxDepth={12} />);
    expect(html.split('class="json-branch"').length - 1).toBe(12);
    expect(html).toContain(`<span class="json-key">a: </span><span class="json-note">${tooDeepMarker(12)}</span>`);
    expect(html).not.toContain('class="json-number"');
    // a string attr holding JSON is parsed here, and bounded the same way
    const inString = renderToStaticMarkup(<JsonTree value={{ args: text }} openDepth={Number.POSITIVE_INFINITY} maxDepth={2} />);
    expect(inString).toContain(`<span class="json-key">a: </span><span class="json-note">${tooDeepMarker(2)}</span>`);
  });
});

describe('token figures a model call did not report', () => {
  // A Copilot CLI model call writes its output tokens; its input tokens are only in the session's totals.
  it('the event details show "—" for them, not 0', () => {
    const html = inRouter(
      <EventDetailView detail={eventDetail({ type: 'llm_request', status: 'ok', error: null, tokensOut: 120 })} pageSessionId="other" sessionStart={0} onClose={() => {}} onLoadAll={() => {}} onCopy={async () => {}} />,
    );
    expect(textOf(html)).toContain('Tokens — in · 120 out');
  });

  it('the requests table shows "—" and says why', () => {
    const request: RequestTotals = { id: 1, label: 'fix it', start: 0, duration: 10, modelCalls: 2, toolCalls: 0, tokensIn: null, tokensOut: 150, errors: 0, credits: null, callsWithoutCredits: 2, events: 2, sessionId: 's' };
    const html = inRouter(<RequestsView requests={[request]} onOpen={() => {}} />);
    expect(textOf(html)).toContain('— / 150');
    expect(html).toContain('title="in not reported by its model calls, 150 out (Copilot CLI writes input tokens per session: see Usage)"');
  });
});
