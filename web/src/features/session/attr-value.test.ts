import { describe, expect, it } from 'vitest';
import { attrView, copilotCut, nestedJson, orderAttrs } from './attr-value';

describe('attrView', () => {
  it('parses JSON-valued attributes (args, response…) into a tree', () => {
    expect(attrView('{"filePath":"/a.ts","startLine":1}')).toEqual({ kind: 'json', value: { filePath: '/a.ts', startLine: 1 } });
    expect(attrView('[{"role":"assistant"}]')).toEqual({ kind: 'json', value: [{ role: 'assistant' }] });
  });

  it('keeps text as text, and says when Copilot cut it', () => {
    expect(attrView('plain words')).toEqual({ kind: 'text', text: 'plain words', cut: null });
    const cut = '[{"role":"assistant","parts":[{"type":"text","content":"long' + '[truncated]';
    expect(attrView(cut)).toEqual({ kind: 'text', text: cut, cut: { by: 'logger' } });
    expect(copilotCut('xyz...[truncated, original 81234 chars]')).toEqual({ by: 'otel', originalChars: 81234 });
    expect(attrView('"a string"')).toEqual({ kind: 'text', text: '"a string"', cut: null });
  });

  it('shows numbers, booleans and null as they are', () => {
    expect(attrView(42)).toEqual({ kind: 'scalar', value: 42 });
    expect(attrView(false)).toEqual({ kind: 'scalar', value: false });
  });
});

describe('nestedJson and orderAttrs', () => {
  it('opens a JSON string nested in JSON (tool-call arguments)', () => {
    expect(nestedJson('{"query":"x"}')).toEqual({ query: 'x' });
    expect(nestedJson('{"query":')).toBeUndefined();
    expect(nestedJson('hello')).toBeUndefined();
  });

  it('puts the attributes people read first', () => {
    expect(orderAttrs(['ttft', 'model', 'error', 'inputMessages', 'args'])).toEqual(['error', 'args', 'model', 'inputMessages', 'ttft']);
  });
});
