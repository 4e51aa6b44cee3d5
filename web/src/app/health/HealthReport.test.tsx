import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Health } from '../../../../shared/api';
import { HealthReport } from './HealthPage';
import { healthLevel } from './HealthIndicator';
import { recoveryProblem, recoverySummary } from './RecoveryBanner';

const HEALTHY: Health = {
  ok: true,
  version: '0.1.0',
  schemaVersion: 7,
  demo: false,
  dbPath: '/tmp/x.db',
  roots: [{ path: '/home/me/.config/Code', exists: true, error: null }],
  workspaces: 2,
  files: 10,
  companions: 3,
  sessions: 4,
  events: 1234,
  badLines: 0,
  fragments: 0,
  indexLagMs: 0,
  backfill: { state: 'idle', filesDone: 10, filesTotal: 10, bytesDone: 5000, bytesTotal: 5000 },
  problems: [],
  forwarding: null,
  search: { indexedThrough: 0, eventsBehind: 0 },
};

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('health', () => {
  it('the indicator warns on bad lines or a missing log folder', () => {
    expect(healthLevel(HEALTHY)).toBe('ok');
    expect(healthLevel({ ...HEALTHY, badLines: 1 })).toBe('warn');
    expect(healthLevel({ ...HEALTHY, roots: [{ path: '/nope', exists: false, error: null }] })).toBe('warn');
  });

  it('the report lists each problem with its file, line and reason', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <HealthReport
          health={{
            ...HEALTHY,
            badLines: 1,
            problems: [{ fileId: 3, path: '/logs/s1/main.jsonl', lineNo: 29, byteOffset: 4096, kind: 'bad_line', reason: 'invalid JSON: Unterminated string', at: 1 }],
          }}
        />
      </MemoryRouter>,
    );
    const t = text(html);
    expect(t).toContain('/logs/s1/main.jsonl');
    expect(t).toContain(' 29 ');
    expect(t).toContain('invalid JSON: Unterminated string');
    expect(t).toContain('bad line');
    expect(t).toContain('1,234');
  });

  it('the report says how far search lags the archive, apart from the index lag', () => {
    const t = (h: Health) => text(renderToStaticMarkup(<MemoryRouter><HealthReport health={h} /></MemoryRouter>));
    expect(t(HEALTHY)).toMatch(/Search\s*caught up/);
    expect(t({ ...HEALTHY, search: { indexedThrough: 10, eventsBehind: 12345 } })).toMatch(/Search\s*12,345 events behind/);
  });

  it('an indexer restart warns and is listed with its kind and reason', () => {
    const reason = 'The indexer stopped (boom) and was restarted; it resumed from its last commit.';
    const h: Health = { ...HEALTHY, problems: [{ fileId: null, path: '/tmp/x.db', lineNo: null, byteOffset: null, kind: 'indexer', reason, at: 1 }] };
    expect(healthLevel(h)).toBe('warn');
    const t = text(renderToStaticMarkup(<MemoryRouter><HealthReport health={h} /></MemoryRouter>));
    expect(t).toContain(` indexer /tmp/x.db — ${reason} `);
  });

  it('a damaged index that was rebuilt warns, is listed as such, and is the one the banner shows', () => {
    const reason = 'The index at /tmp/x.db was damaged (database disk image is malformed). It was moved to /tmp/x.db.corrupt-2026-12-01T09-00-00-000Z and rebuilt from the logs. 1 session whose logs are gone could not be recovered: gone (the lost one).';
    const older = { fileId: null, path: '/tmp/x.db', lineNo: null, byteOffset: null, kind: 'corrupt' as const, reason: 'an older one', at: 1 };
    const h: Health = { ...HEALTHY, problems: [older, { ...older, reason, at: 2 }] };
    expect(healthLevel(h)).toBe('warn');
    expect(recoveryProblem(h)?.reason).toBe(reason);
    expect(recoveryProblem(HEALTHY)).toBeNull();
    expect(recoverySummary(reason)).toBe('1 session whose logs are gone could not be recovered: Details lists them.');
    expect(recoverySummary('The index at /x was damaged (y). It was moved to /x.c and rebuilt from the logs. Every session\'s logs are still on disk: nothing was lost.')).toBe(
      "Every session's logs are still on disk: nothing was lost.",
    );
    const t = text(renderToStaticMarkup(<MemoryRouter><HealthReport health={h} /></MemoryRouter>));
    expect(t).toContain(` damaged index /tmp/x.db — ${reason} `);
  });

  it('says so when there are no problems', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <HealthReport health={HEALTHY} />
      </MemoryRouter>,
    );
    expect(text(html)).toContain('No problems');
  });
});
