import { describe, expect, it } from 'vitest';
import { HOSTILE, HOSTILE_SHOWN } from '../../test-support/hostile-text';
import { bucketLabel, bucketRange, formatPercent, formatTokens, sparklinePoints, subjectOfEvent, typeLabelOf } from './format';

describe('triage formats', () => {
  it('labels histogram buckets by their upper edge, the open one by its lower', () => {
    expect(bucketLabel(-1, 1)).toBe('≤ 1ms');
    expect(bucketLabel(2000, 5000)).toBe('≤ 5.00s');
    expect(bucketLabel(1e6, Number.MAX_SAFE_INTEGER)).toBe('> 16m 40s');
    expect(bucketRange(-1, 1)).toBe('0 – 1ms');
    expect(bucketRange(10, 20)).toBe('over 10ms, up to 20ms');
  });

  it('formats tokens and rates compactly', () => {
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(12_345)).toBe('12k');
    expect(formatTokens(1234)).toBe('1.2k');
    expect(formatTokens(2_500_000)).toBe('2.5M');
    expect(formatTokens(null)).toBe('—');
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(0.0004)).toBe('<0.1%');
    expect(formatPercent(0.034)).toBe('3.4%');
    expect(formatPercent(0.5)).toBe('50%');
  });

  it('names the subject of an event by its type', () => {
    expect(subjectOfEvent({ type: 'llm_request', model: 'gpt-4.1', tool: null, name: 'chat:gpt-4.1' })).toBe('gpt-4.1');
    expect(subjectOfEvent({ type: 'tool_call', model: null, tool: 'read_file', name: 'read_file' })).toBe('read_file');
    expect(subjectOfEvent({ type: 'hook', model: null, tool: null, name: 'PreToolUse' })).toBe('PreToolUse');
  });

  it('draws a sparkline inside its box, the maximum at the top', () => {
    expect(sparklinePoints([0, 2, 1], 10, 10)).toBe('0,9 5,1 10,5');
    expect(sparklinePoints([0, 0], 10, 10)).toBe('0,9 10,9');
    expect(sparklinePoints([], 10, 10)).toBe('');
  });

  it('subjects and types are log text: shown with escapes; a type named like an Object.prototype member is its name', () => {
    expect(subjectOfEvent({ type: 'llm_request', model: HOSTILE, tool: null, name: null })).toBe(HOSTILE_SHOWN);
    expect(subjectOfEvent({ type: 'tool_call', model: null, tool: HOSTILE, name: null })).toBe(HOSTILE_SHOWN);
    expect(subjectOfEvent({ type: 'hook', model: null, tool: null, name: HOSTILE })).toBe(HOSTILE_SHOWN);
    expect(typeLabelOf('tool_call')).toBe('tool call');
    expect(typeLabelOf('constructor')).toBe('constructor');
    expect(typeLabelOf(HOSTILE)).toBe(HOSTILE_SHOWN);
  });
});
