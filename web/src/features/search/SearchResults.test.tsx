import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { SearchHit, SearchSession } from '../../../../shared/api';
import { HOSTILE, HOSTILE_SHOWN, rawInvisible, textOf } from '../../test-support/hostile-text';
import { hitLabel, SearchResults } from './SearchResults';

const hit = (o: Partial<SearchHit>): SearchHit => ({ kind: 'tool', eventId: 7, sessionId: 's', inSubagent: false, eventType: 'tool_call', name: null, ts: 1, snippet: null, ...o });

function session(o: Partial<SearchSession>): SearchSession {
  return { id: 's', title: null, repository: null, branch: null, source: 'vscode', lastActivity: 1, eventCount: 3, kinds: [], subagentHits: 0, score: 1, hits: [], ...o };
}

describe('SearchResults: log text shown as visible text', () => {
  it('the repository heading, title, id, branch, hit labels and the snippet show escapes, and the highlight stays on the match', () => {
    const text = `${HOSTILE} retry ${HOSTILE}`;
    const at = text.indexOf('retry');
    const s = session({
      id: `${HOSTILE}-id`,
      title: `title ${HOSTILE}`,
      repository: `repo-${HOSTILE}`,
      branch: `br-${HOSTILE}`,
      hits: [hit({ name: `tool-${HOSTILE}`, snippet: { text, highlights: [[at, at + 5]], cutStart: true, cutEnd: false } }), hit({ eventType: `type-${HOSTILE}`, kind: 'other' })],
    });
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <SearchResults groups={[{ repository: s.repository, sessionCount: 1, sessions: [s], more: 0, loadingMore: false }]} selected={null} onMore={() => {}} />
      </MemoryRouter>,
    );
    expect(rawInvisible(html)).toEqual([]);
    const t = textOf(html);
    for (const shown of [`repo-${HOSTILE_SHOWN}`, `title ${HOSTILE_SHOWN}`, `br-${HOSTILE_SHOWN}`, `tool tool-${HOSTILE_SHOWN}`, `type-${HOSTILE_SHOWN}`]) expect(t).toContain(shown);
    expect(html).toContain(`…<span>${HOSTILE_SHOWN} <mark>retry</mark> ${HOSTILE_SHOWN}</span>`);
  });

  it('hitLabel: an event type named like an Object.prototype member is shown as its name', () => {
    expect(hitLabel(hit({ eventType: 'constructor', kind: 'other' }))).toBe('constructor');
    expect(hitLabel(hit({ eventType: 'toString', kind: 'other' }))).toBe('toString');
    expect(hitLabel(hit({ eventType: 'tool_call', name: 'read_file' }))).toBe('tool read_file');
  });

  it('marks a CLI session "CLI" in its result row; a session without source (VS Code) is not marked', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <SearchResults
          groups={[{ repository: null, sessionCount: 2, sessions: [session({ id: 'v', title: 'vscode one' }), session({ id: 'c', title: 'cli one', source: 'cli' })], more: 0, loadingMore: false }]}
          selected={null}
          onMore={() => {}}
        />
      </MemoryRouter>,
    );
    const rows = html.split('<li').slice(1).map(textOf);
    expect(rows.map((r) => /(^| )CLI( |$)/.test(r))).toEqual([false, true]);
  });
});

