import { describe, expect, it } from 'vitest';
import { normalizeEntry } from './normalize';

describe('normalizeEntry', () => {
  it('takes the model from attrs, else from a chat:<model> name (both llm_request naming styles)', () => {
    expect(normalizeEntry({ type: 'llm_request', name: 'chat:gpt-4.1', attrs: {} }).model).toBe('gpt-4.1');
    expect(normalizeEntry({ type: 'llm_request', name: 'llm_request', attrs: { model: 'claude-sonnet-4' } }).model).toBe('claude-sonnet-4');
    expect(normalizeEntry({ type: 'llm_request', name: 'llm_request', attrs: {} }).model).toBeNull();
  });

  it('strips the tool: prefix some versions write', () => {
    const e = normalizeEntry({ type: 'tool_call', name: 'tool:read_file', attrs: {} });
    expect([e.name, e.tool]).toEqual(['read_file', 'read_file']);
  });

  it('names turn events one way whether or not the name carries :<n>', () => {
    expect(normalizeEntry({ type: 'turn_start', name: 'turn_start', attrs: { turnId: '3' } }).name).toBe('turn_start:3');
    expect(normalizeEntry({ type: 'turn_end', name: 'turn_end:0', attrs: {} }).name).toBe('turn_end:0');
  });

  it('keeps an unknown type as unknown with its raw type and every attr', () => {
    const e = normalizeEntry({ type: 'telemetry_blip', name: 'x', attrs: { a: 1, b: 'two' } });
    expect([e.type, e.rawType, e.attrs]).toEqual(['unknown', 'telemetry_blip', { a: 1, b: 'two' }]);
  });

  it('reads tokens, ttft and cachedTokens (or cacheReadTokens) of model calls; drops non-numeric values', () => {
    const e = normalizeEntry({
      type: 'llm_request',
      name: 'chat:m',
      attrs: { inputTokens: 100, outputTokens: 'n/a', ttft: 900, cachedTokens: 40, debugName: 'panel/editAgent', copilotUsageNanoAiu: 5 },
    });
    expect([e.tokensIn, e.tokensOut, e.ttft, e.tokensCached]).toEqual([100, null, 900, 40]);
    expect(e.attrs.debugName).toBe('panel/editAgent');
    expect(normalizeEntry({ type: 'llm_request', attrs: { cacheReadTokens: 7, cachedTokens: 40 } }).tokensCached).toBe(7);
  });

  it('marks failures: status error, and hooks whose resultKind is error', () => {
    const failed = normalizeEntry({ type: 'llm_request', status: 'error', attrs: { error: '429 rate limited' } });
    expect([failed.status, failed.error]).toEqual(['error', '429 rate limited']);
    expect(normalizeEntry({ type: 'hook', status: 'ok', attrs: { resultKind: 'error' } }).status).toBe('error');
    expect(normalizeEntry({ type: 'hook', status: 'ok', attrs: { resultKind: 'non_blocking_error' } }).status).toBe('ok');
  });

  it('survives a line with no envelope at all', () => {
    const e = normalizeEntry({});
    expect([e.type, e.name, e.sid, e.spanId, e.ts, e.dur, e.rIdx]).toEqual(['unknown', '', null, null, null, 0, 0]);
  });
});
