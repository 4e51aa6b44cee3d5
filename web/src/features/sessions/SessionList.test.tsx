import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../../../shared/api';
import { HOSTILE, HOSTILE_SHOWN, rawInvisible, textOf } from '../../test-support/hostile-text';
import { emptyColumns, SessionList, type SessionListProps } from './SessionList';

// SessionList renders props only: these render it to a string (no network, no DOM) and check what a reader sees.

function session(over: Partial<SessionSummary> & { id: string }): SessionSummary {
  return {
    title: null,
    repository: null,
    branch: null,
    workspaceFolder: null,
    createdAt: null,
    updatedAt: null,
    eventCount: 0,
    errorCount: 0,
    isChild: false,
    parentId: null,
    label: null,
    logDeleted: false,
    models: [],
    tokensIn: 0,
    tokensOut: 0,
    credits: null,
    imported: false,
    source: 'vscode',
    usageComplete: true,
    childCount: 0,
    ...over,
  };
}

function render(props: Partial<SessionListProps> & { sessions: SessionSummary[] }): string {
  return renderToStaticMarkup(
    <MemoryRouter>
      <SessionList total={props.sessions.length} hasMore={false} loadingMore={false} onLoadMore={() => {}} {...props} />
    </MemoryRouter>,
  );
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
const headings = (html: string) => [...html.matchAll(/<h2[^>]*>([^<]*)<\/h2>/g)].map((m) => m[1]);

describe('SessionList', () => {
  it('one heading per repository, "No workspace" last, and a link per session to /session/:id', () => {
    const html = render({
      sessions: [
        session({ id: 'n1', title: 'no repo', updatedAt: 3 }),
        session({ id: 'a 1', title: 'Fix the retry bug', repository: 'me/app', updatedAt: 2 }),
        session({ id: 'b1', title: 'Docs', repository: 'me/lib', updatedAt: 1 }),
      ],
    });
    expect(headings(html)).toEqual(['me/app', 'me/lib', 'No workspace']);
    expect(html).toContain('href="/session/a%201"');
    expect(text(html)).toContain('Fix the retry bug');
  });

  it('falls back to the id for an untitled session and marks a deleted log', () => {
    const html = render({ sessions: [session({ id: '9f0c1e2d-aaaa-bbbb', logDeleted: true })] });
    expect(text(html)).toContain('9f0c1e2d-aaaa-bbbb');
    expect(text(html)).toContain('log deleted');
  });

  it('shows errors in red only when there are some, and the first model plus how many more', () => {
    const html = render({
      sessions: [session({ id: 'e', errorCount: 3, models: ['gpt-4.1', 'o4-mini', 'claude-sonnet-4'] }), session({ id: 'ok', errorCount: 0 })],
    });
    expect(html.match(/class="num has-errors"[^>]*>3</)).not.toBeNull();
    expect(html.match(/class="num muted"[^>]*>0</)).not.toBeNull();
    expect(text(html)).toContain('gpt-4.1 +2');
  });

  it('says how many of how many are shown, and offers Load more only when there is more', () => {
    const sessions = [session({ id: 'a', repository: 'me/app' }), session({ id: 'b', repository: 'me/app' })];
    const more = render({ sessions, total: 5, hasMore: true, repositoryCounts: new Map([['me/app', 5]]) });
    expect(text(more)).toContain('Showing 2 of 5 sessions');
    expect(text(more)).toContain('2 of 5 sessions');
    expect(more).toContain('Load more');
    expect(render({ sessions })).not.toContain('Load more');
  });

  it('renders log text as text, never as markup', () => {
    const html = render({ sessions: [session({ id: 'x', title: '<img src=x onerror=alert(1)>' })] });
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('shows invisible and bidi characters of log text as escapes: title, id, branch, models, repository heading', () => {
    const html = render({
      sessions: [session({ id: `${HOSTILE}-id`, title: `title ${HOSTILE}`, branch: `br-${HOSTILE}`, repository: `repo-${HOSTILE}`, models: [`m-${HOSTILE}`, 'gpt-4.1'] })],
    });
    expect(rawInvisible(html)).toEqual([]);
    expect(headings(html)).toEqual([`repo-${HOSTILE_SHOWN}`]);
    const t = textOf(html);
    for (const shown of [`title ${HOSTILE_SHOWN}`, `br-${HOSTILE_SHOWN}`, `m-${HOSTILE_SHOWN} +1`, HOSTILE_SHOWN.slice(0, 8)]) expect(t).toContain(shown);
    expect(html).toContain(`title="${`${HOSTILE_SHOWN}-id`}"`);
  });

  it('hides the branch and credits columns when every row shown lacks them, and shows them otherwise', () => {
    const bare = render({ sessions: [session({ id: 'a' }), session({ id: 'b' })] });
    expect(bare).toMatch(/class="session-list no-branch no-credits"/);
    const full = render({ sessions: [session({ id: 'a', branch: 'main' }), session({ id: 'b', credits: 0.5 })] });
    expect(full).toMatch(/class="session-list"/);
    expect(emptyColumns([session({ id: 'a', branch: 'main' }), session({ id: 'b' })])).toEqual({ branch: false, credits: true });
  });

  it("shows each session's duration and offers to copy its id", () => {
    const html = render({ sessions: [session({ id: 'abc', createdAt: 1000, updatedAt: 1000 + 125_000 })] });
    expect(text(html)).toContain('2m 05s');
    expect(html).toContain('aria-label="Copy the session id"');
  });

  it('the sortable columns say which one sorts and which way; clicking the active one reverses it', () => {
    const html = render({ sessions: [session({ id: 'a' })], order: { sort: 'errors', dir: 'desc' }, onSort: () => {} });
    const pressed = [...html.matchAll(/aria-pressed="true" aria-label="([^"]+)"/g)].map((m) => m[1]);
    expect(pressed).toEqual(['Sort by errors, largest first']);
    const sortable = [...html.matchAll(/aria-label="(Sort by [a-z ]+?)(?:,[^"]*)?"/g)].map((m) => m[1]);
    expect(sortable).toEqual(['Sort by last activity', 'Sort by duration', 'Sort by events', 'Sort by errors', 'Sort by tokens', 'Sort by credits']);
  });

  it('marks CLI sessions "CLI" (absent source is VS Code, unmarked) and says a CLI session without shutdown has unknown totals', () => {
    const html = render({
      sessions: [
        session({ id: 'v1', title: 'vscode chat', tokensIn: 900, tokensOut: 100, updatedAt: 3 }),
        session({ id: 'c1', title: 'cli done', source: 'cli', usageComplete: true, tokensIn: 4000, tokensOut: 1000, updatedAt: 2 }),
        session({ id: 'c2', title: 'cli crashed', source: 'cli', usageComplete: false, tokensIn: 0, tokensOut: 321, credits: 0.5, updatedAt: 1 }),
      ],
    });
    const rows = html.split('<li').slice(1).map(text);
    expect(rows.map((r) => / CLI /.test(r))).toEqual([false, true, true]);
    expect(rows[0]).toContain(' 1k ');
    expect(rows[1]).toContain(' 5k ');
    // the crashed one shows no total (output tokens alone would read as a small one) and says why
    expect(rows[2]).not.toContain(' 321 ');
    expect(rows[2]).not.toContain(' 0.5');
    // tokens and credits both say so (credits 0.5 would read as the session's cost)
    expect(html.match(/aria-label="no shutdown: totals unknown"/g)).toHaveLength(2);
  });
});

