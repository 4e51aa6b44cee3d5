import { describe, expect, it } from 'vitest';
import { backfillBanner } from './serve-command';

describe('backfillBanner', () => {
  it('groups the digits of the totals, as health and the top bar do', () => {
    const t = { files: 5_199, companions: 2_537, sessions: 1_208, events: 849_436, badLines: 134, fragments: 0 };
    expect(backfillBanner(t, 454_400_000, 16_200)).toBe('indexed 5,199 log files (+2,537 companions), 1,208 sessions, 849,436 events, 454.4 MB in 16.2 s; watching for changes');
  });

  it('names one of a thing in the singular', () => {
    const t = { files: 1, companions: 1, sessions: 1, events: 1, badLines: 0, fragments: 0 };
    expect(backfillBanner(t, 1_000, 100)).toBe('indexed 1 log file (+1 companion), 1 session, 1 event, 0.0 MB in 0.1 s; watching for changes');
  });
});
