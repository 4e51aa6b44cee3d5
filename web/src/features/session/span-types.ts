// How each event type looks and is named in the session view. Colours live in session.css under
// `.t-<kind>`; this maps the many event types onto a few kinds people can tell apart at a glance.

import { visibleText } from '../../ui/visible-text';

export type SpanKind = 'request' | 'model' | 'response' | 'tool' | 'subagent' | 'hook' | 'turn' | 'child' | 'core' | 'other';

export function spanKind(type: string, tool?: string | null): SpanKind {
  switch (type) {
    case 'user_message':
      return 'request';
    case 'llm_request':
      return 'model';
    case 'agent_response':
      return 'response';
    case 'tool_call':
      return tool === 'runSubagent' || tool === 'search_subagent' ? 'subagent' : 'tool';
    case 'subagent':
      return 'subagent';
    case 'hook':
      return 'hook';
    case 'turn_start':
    case 'turn_end':
      return 'turn';
    case 'session_start':
    case 'child_session_ref':
      return 'child';
    case 'discovery':
    case 'generic':
      return 'core';
    default:
      return 'other';
  }
}

const TYPE_LABELS: Record<string, string> = {
  user_message: 'user message',
  llm_request: 'model call',
  agent_response: 'response',
  tool_call: 'tool call',
  subagent: 'subagent',
  hook: 'hook',
  turn_start: 'turn start',
  turn_end: 'turn end',
  session_start: 'session start',
  child_session_ref: 'child ref',
  discovery: 'discovery',
  generic: 'generic',
};

/** A type's name in words; an unknown type (log text) as it is, made visible. */
export function typeLabel(type: string): string {
  return Object.hasOwn(TYPE_LABELS, type) ? TYPE_LABELS[type] : visibleText(type);
}
