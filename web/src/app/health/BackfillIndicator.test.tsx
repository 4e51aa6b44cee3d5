import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { BackfillProgress } from '../../../../shared/api';
import { BackfillStatus, backfillSplit, backfillSplitShort } from './BackfillIndicator';

const share = (filesDone: number, filesTotal: number, bytesDone: number, bytesTotal: number) => ({ filesDone, filesTotal, bytesDone, bytesTotal });
const running = (recent: ReturnType<typeof share>, older: ReturnType<typeof share>): BackfillProgress => ({
  state: 'running',
  filesDone: recent.filesDone + older.filesDone,
  filesTotal: recent.filesTotal + older.filesTotal,
  bytesDone: recent.bytesDone + older.bytesDone,
  bytesTotal: recent.bytesTotal + older.bytesTotal,
  recent,
  older,
});
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

describe('backfill indicator', () => {
  it('says what is searchable: this week first, then older (by bytes, floored)', () => {
    expect(backfillSplit(running(share(40, 40, 9_000_000, 9_000_000), share(100, 300, 41_999_000, 100_000_000)))).toBe('This week: done; older: 41%');
    expect(backfillSplit(running(share(3, 40, 8_999_999, 9_000_000), share(0, 300, 0, 100_000_000)))).toBe('This week: 99%; older: 0%');
    expect(backfillSplit(running(share(0, 0, 0, 0), share(1, 2, 50, 100)))).toBe('This week: none; older: 50%');
    expect(backfillSplit({ state: 'running', filesDone: 1, filesTotal: 2, bytesDone: 5, bytesTotal: 10 })).toBeNull();
  });

  it('the short form for a narrow top bar says the same: this week, then the older part once the week is done', () => {
    expect(backfillSplitShort(running(share(40, 40, 9_000_000, 9_000_000), share(100, 300, 41_999_000, 100_000_000)))).toBe('Week: done · 41%');
    expect(backfillSplitShort(running(share(3, 40, 8_999_999, 9_000_000), share(0, 300, 0, 100_000_000)))).toBe('Week: 99%');
    expect(backfillSplitShort(running(share(0, 0, 0, 0), share(1, 2, 50, 100)))).toBe('Week: none · 50%');
    expect(backfillSplitShort({ state: 'running', filesDone: 1, filesTotal: 2, bytesDone: 5, bytesTotal: 10 })).toBeNull();
  });

  it('renders the split, the overall bar and the exact figures of each part', () => {
    const html = renderToStaticMarkup(<BackfillStatus progress={running(share(40, 40, 9_000_000, 9_000_000), share(100, 300, 41_000_000, 100_000_000))} />);
    expect(text(html)).toBe('This week: done; older: 41% Week: done · 41% 45%');
    expect(html).toContain('aria-valuenow="45"');
    expect(html).toContain('title="This week: 40 of 40 files read, 9.0 MB of 9.0 MB; older: 100 of 300 files read, 41 MB of 100 MB (logs and companions)"');
  });

  it('before the listing: the file count, as before', () => {
    const html = renderToStaticMarkup(<BackfillStatus progress={{ state: 'running', filesDone: 1, filesTotal: 4, bytesDone: 10, bytesTotal: 40 }} />);
    expect(text(html)).toBe('Indexing 1/4 files 25%');
  });
});
