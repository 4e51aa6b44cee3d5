import { EVENT_TYPES } from '../../shared/log-entry';
import { CALL_TYPES } from '../../shared/triage-terms';
import { meantName } from '../../shared/nearest-name';

/** The words other views use for a kind of call (`errors --type`, search's `type:`), as the log's type. */
const KIND_WORDS: Readonly<Record<string, string>> = { tool: 'tool_call', model: 'llm_request', llm: 'llm_request', agent: 'subagent' };

/** The types the slow list is about first (CALL_TYPES), then the other timed entries. */
const LISTED = [...CALL_TYPES, 'generic', 'discovery'];

/**
 * What to say when a type filter matched nothing because no log writes that type: `slow --type tool` (the word
 * `errors --type` takes) listed nothing and said nothing. Null for a type the loggers write, and for a Copilot CLI
 * type as written (`tool.execution_start`: dotted, kept raw), which may simply have no slow call.
 */
export function unknownTypeHint(type: string): string | null {
  if ((EVENT_TYPES as readonly string[]).includes(type) || type.includes('.')) return null;
  const meant = KIND_WORDS[type.toLowerCase()] ?? meantName(type, EVENT_TYPES);
  return `no entry of Copilot's logs has type "${type}"${meant ? `: did you mean ${meant}?` : ''} (${LISTED.join(', ')}, …)`;
}
