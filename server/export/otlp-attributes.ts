import type { Attributes } from '@opentelemetry/api';
import type { RawLogEntry } from '../../shared/log-entry';
import { isCliEnvelope } from '../ingest/cli/normalize-cli';
import { responseText } from '../search/indexed-text';
import type { ExportSpan } from './session-spans';

// The attribute set of one exported span (INTEROP §1–2): what VS Code's Agent Debug Log import reads
// (gen_ai.operation.name, gen_ai.* of chat and execute_tool, copilot_chat.event_* of core_event), what
// collectors render (gen_ai semantic conventions, openinference.span.kind for Phoenix, Langfuse's TTFT key),
// and what neither shows but our own import must not lose (chronoscope.*, the line itself).

/** gen_ai.operation.name per entry type: VS Code's importer dispatches on it (anything else is generic). */
export function operationOf(type: string): string {
  switch (type) {
    case 'llm_request':
      return 'chat';
    case 'tool_call':
      return 'execute_tool';
    case 'subagent':
      return 'invoke_agent';
    case 'hook':
      return 'execute_hook';
    default:
      return 'core_event';
  }
}

const KIND: Record<string, string> = { chat: 'LLM', execute_tool: 'TOOL', invoke_agent: 'AGENT', execute_hook: 'CHAIN', core_event: 'CHAIN' };

export interface AttributeOptions {
  /** prompts, tool arguments and results, user and agent text: the file export always; forwarding with --otlp-content */
  content: boolean;
  /** the archived line whole (chronoscope.entry): what makes our own import lossless */
  rawEntry: boolean;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
/** Integers stay intValue (VS Code's importer turns doubleValue into ''); anything else is left out. */
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : undefined);

/** The text a core_event carries in copilot_chat.event_details, which is what VS Code shows for it. */
function eventDetails(s: ExportSpan): string | undefined {
  const a = s.attrs;
  switch (s.entry.type) {
    case 'user_message':
      return str(a.content);
    case 'agent_response':
      return [responseText(a.response), str(a.reasoning) ? `reasoning: ${String(a.reasoning)}` : ''].filter((x) => x).join('\n') || undefined;
    case 'turn_start':
    case 'turn_end':
      return a.turnId === undefined ? undefined : `iteration ${String(a.turnId)}`;
    case 'child_session_ref':
      return str(a.childLogFile) ?? str(a.childSessionId);
    case 'session_start':
      return [str(a.copilotVersion) && `Copilot ${String(a.copilotVersion)}`, str(a.vscodeVersion) && `VS Code ${String(a.vscodeVersion)}`].filter((x) => x).join(' · ') || undefined;
    default:
      return str(a.details);
  }
}

export function spanAttributes(s: ExportSpan, rootSessionId: string, o: AttributeOptions): Attributes {
  const e = s.entry;
  const a = s.attrs;
  const op = operationOf(e.type);
  const out: Attributes = {
    'gen_ai.operation.name': op,
    'gen_ai.conversation.id': rootSessionId,
    'copilot_chat.session_id': e.sessionId,
    'openinference.span.kind': KIND[op],
    'chronoscope.type': e.type,
    'chronoscope.log_span_id': e.spanId ?? undefined,
    'chronoscope.log_parent_span_id': e.parentSpanId ?? undefined,
    'chronoscope.run': s.rIdx,
  };
  switch (op) {
    case 'chat': {
      out['gen_ai.request.model'] = e.model ?? str(a.model);
      out['gen_ai.provider.name'] = 'github';
      out['gen_ai.usage.input_tokens'] = int(a.inputTokens);
      out['gen_ai.usage.output_tokens'] = int(a.outputTokens);
      out['gen_ai.usage.cache_read.input_tokens'] = int(a.cacheReadTokens) ?? int(a.cachedTokens);
      const ttft = int(a.ttft);
      if (ttft !== undefined) {
        out['gen_ai.response.time_to_first_chunk'] = ttft / 1000;
        out['copilot_chat.time_to_first_token_ms'] = ttft;
        if (e.ts !== null) out['langfuse.observation.completion_start_time'] = new Date(e.ts + ttft).toISOString();
      }
      out['copilot_chat.copilot_usage_nano_aiu'] = int(a.copilotUsageNanoAiu);
      out['copilot_chat.debug_name'] = str(a.debugName);
      out['gen_ai.response.id'] = str(a.responseId);
      out['gen_ai.request.max_tokens'] = int(a.maxTokens);
      out['copilot_chat.system_prompt_file'] = str(a.systemPromptFile);
      out['copilot_chat.tools_file'] = str(a.toolsFile);
      if (o.content) {
        out['gen_ai.input.messages'] = str(a.inputMessages);
        out['copilot_chat.user_request'] = str(a.userRequest);
        out['input.value'] = str(a.userRequest);
        // a Copilot CLI model call's answer (assistant.message content); a debug log's is its agent_response event
        if (isCliEnvelope(s.raw as RawLogEntry)) out['output.value'] = str(a.content);
      }
      break;
    }
    case 'execute_tool':
      out['gen_ai.tool.name'] = e.tool ?? e.name;
      out['gen_ai.tool.call.id'] = e.spanId ?? undefined;
      if (o.content) {
        out['gen_ai.tool.call.arguments'] = str(a.args);
        out['gen_ai.tool.call.result'] = str(a.result);
        out['input.value'] = str(a.args);
        out['output.value'] = str(a.result);
      }
      break;
    case 'invoke_agent':
      out['gen_ai.agent.name'] = str(a.agentName) ?? e.name;
      if (o.content) out['gen_ai.agent.description'] = str(a.description);
      break;
    case 'execute_hook':
      out['copilot_chat.hook.type'] = e.name;
      out['copilot_chat.hook.result_kind'] = str(a.resultKind);
      if (o.content) {
        out['copilot_chat.hook.command'] = str(a.command);
        out['copilot_chat.hook.input'] = str(a.input);
        out['copilot_chat.hook.output'] = str(a.output);
      }
      break;
    default: {
      out['copilot_chat.event_category'] = e.type === 'discovery' ? 'discovery' : (str(a.category) ?? e.type);
      const details = eventDetails(s);
      // User and agent text are content; discovery, turn and session facts are not.
      if (details !== undefined && (o.content || (e.type !== 'user_message' && e.type !== 'agent_response'))) out['copilot_chat.event_details'] = details;
    }
  }
  if (e.status === 1) out['error.type'] = str(a.error) ? 'error' : e.type;
  if (o.rawEntry) out['chronoscope.entry'] = s.rawText;
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}
