import { describe, expect, it } from 'vitest';
import type { TriageEvent } from '../../shared/api/triage';
import { displayWidth } from '../cli/text-table';
import { formatSlow } from './format-cli';

const event = (id: number, title: string): TriageEvent => ({
  id,
  sessionId: `s${id}`,
  sessionTitle: title,
  repository: 'acme/billing-api',
  type: 'llm_request',
  name: 'chat',
  model: 'gpt-5-mini',
  tool: null,
  status: 'ok',
  ts: Date.UTC(2026, 7, 18, 13, 54, 51),
  dur: 119_000,
  ttft: null,
  tokensIn: null,
  tokensOut: null,
  tokensCached: null,
  error: null,
  signature: null,
});

describe('formatSlow', () => {
  // A Korean title of 36 characters is 62 terminal columns: the columns after it ran out of line.
  it('keeps the columns after a CJK session title in line, and cuts the title to 36 columns', () => {
    const out = formatSlow({ events: [event(1, '로그 파일이 너무 커서 읽기가 어렵습니다. test/ws.test.ts에서 타임아웃이 발생하는 원인을 찾아 주세요.'), event(2, 'CI failure in test/ws.test.ts')], nextCursor: null, total: 2, totalCapped: false }, null);
    const lines = out.split('\n').slice(0, 3);
    const lastColumn = lines.map((l) => displayWidth(l.slice(0, l.lastIndexOf('  ') + 2)));
    expect(lastColumn[0]).toBe(lastColumn[1]);
    expect(lastColumn[1]).toBe(lastColumn[2]);
    expect(lines[1]).toContain('  로그 파일이 너무 커서 읽기가 어렵습…  s1#1'); // 36 columns
    expect(lines[1].endsWith('s1#1')).toBe(true);
  });
});
