import { describe, expect, it } from 'vitest';
import { backfillBanner } from './serve-command';

describe('backfillBanner', () => {
  it('groups the digits of the totals, as health and the top bar do', () => {
    const t = { files: 5_199, companions: 2_537, sessions: 1_208, events: 849_436, badLines: 134, fragments: 0 };
    expect(backfillBanner(t, 454_400_000, 16_200)).toBe('indexed 5,199 log files (+2,537 companions), 1,208 sessions, 849,436 events, 454.4 MB in 16.2 s; watching for changes');
  });
});
