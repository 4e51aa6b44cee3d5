import type { ReadSpan } from './read-otlp';

// One OTLP span back into the debug-log line it stands for. Our own export carries the line itself
// (chronoscope.entry): it is written back verbatim, so a round trip loses nothing. A span from elsewhere (VS
// Code's export, Copilot's otel.outfile, a collector) becomes the entry Copilot's logger would have written for
// it (FORMAT §3.2): chat → llm_request, execute_tool → tool_call, invoke_agent → subagent (or, without a parent,
// the request's user_message), execute_hook → hook, core_event → discovery or generic.

export interface ImportedLine {
  /** the session whose log the line goes to */
  sessionId: string;
  entry: Record<string, unknown>;
}

const s = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function ms(ns: string | number | undefined): number | null {
  if (ns === undefined) return null;
  try {
    return Number(BigInt(typeof ns === 'number' ? Math.trunc(ns) : ns) / 1_000_000n);
  } catch {
    return null;
  }
}

/** The session a span belongs to: the file's, else the span's own attributes, else its trace. */
export function sessionOf(r: ReadSpan): string {
  return r.documentSessionId ?? s(r.attrs['gen_ai.conversation.id']) ?? s(r.attrs['copilot_chat.session_id']) ?? s(r.resource['session.id']) ?? r.span.traceId ?? 'imported';
}

export function toEntries(r: ReadSpan, root = sessionOf(r)): ImportedLine[] {
  const raw = s(r.attrs['chronoscope.entry']);
  if (raw) {
    try {
      const entry = JSON.parse(raw) as Record<string, unknown>;
      return [{ sessionId: s(r.attrs['copilot_chat.session_id']) ?? root, entry }];
    } catch {
      /* a damaged entry: rebuild it from the attributes below */
    }
  }
  const a = r.attrs;
  const sp = r.span;
  const ts = ms(sp.startTimeUnixNano);
  const end = ms(sp.endTimeUnixNano);
  const dur = ts !== null && end !== null ? Math.max(0, end - ts) : 0;
  const status = sp.status?.code === 2 ? 'error' : 'ok';
  const base = { ts, dur, sid: root, spanId: sp.spanId, ...(sp.parentSpanId ? { parentSpanId: sp.parentSpanId } : {}), status };
  const error = status === 'error' ? { error: sp.status?.message ?? 'error' } : {};
  const op = s(a['gen_ai.operation.name']);
  const name = s(sp.name) ?? op ?? 'span';
  const out: ImportedLine[] = [];
  const push = (entry: Record<string, unknown>) => out.push({ sessionId: root, entry: Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined)) });
  const attrs = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  switch (op) {
    case 'chat': {
      const model = s(a['gen_ai.request.model']) ?? s(a['gen_ai.response.model']);
      const ttft = num(a['copilot_chat.time_to_first_token_ms']) ?? (num(a['gen_ai.response.time_to_first_chunk']) !== undefined ? Math.round(num(a['gen_ai.response.time_to_first_chunk'])! * 1000) : undefined);
      push({
        ...base,
        type: 'llm_request',
        name: name.startsWith('chat') ? name : `chat:${model ?? 'unknown'}`,
        attrs: attrs({
          model,
          inputTokens: num(a['gen_ai.usage.input_tokens']),
          outputTokens: num(a['gen_ai.usage.output_tokens']),
          cachedTokens: num(a['gen_ai.usage.cache_read.input_tokens']),
          ttft,
          copilotUsageNanoAiu: num(a['copilot_chat.copilot_usage_nano_aiu']),
          debugName: s(a['copilot_chat.debug_name']),
          inputMessages: s(a['gen_ai.input.messages']),
          userRequest: s(a['copilot_chat.user_request']),
          ...error,
        }),
      });
      break;
    }
    case 'execute_tool':
      push({ ...base, type: 'tool_call', name: s(a['gen_ai.tool.name']) ?? name, attrs: attrs({ args: s(a['gen_ai.tool.call.arguments']), result: s(a['gen_ai.tool.call.result']), ...error }) });
      break;
    case 'invoke_agent':
      if (!sp.parentSpanId) break; // a request's container: its user_message (span event below) stands for it
      push({ ...base, type: 'subagent', name: s(a['gen_ai.agent.name']) ?? name, attrs: attrs({ agentName: s(a['gen_ai.agent.name']) ?? name, description: s(a['gen_ai.agent.description']), ...error }) });
      break;
    case 'execute_hook':
      push({ ...base, type: 'hook', name: s(a['copilot_chat.hook.type']) ?? name.replace(/^Hook: /, ''), attrs: attrs({ resultKind: s(a['copilot_chat.hook.result_kind']), ...error }) });
      break;
    default: {
      const category = s(a['copilot_chat.event_category']);
      push({ ...base, type: category === 'discovery' ? 'discovery' : 'generic', name, attrs: attrs({ details: s(a['copilot_chat.event_details']), category, ...error }) });
    }
  }
  // Span events named user_message carry the prompt (VS Code takes the session title from the first one).
  for (const ev of sp.events ?? []) {
    if (ev.name !== 'user_message') continue;
    const content = ev.attributes?.find((kv) => kv.key === 'content')?.value?.stringValue;
    if (!content) continue;
    push({ ts: ms(ev.timeUnixNano) ?? ts, dur: 0, sid: root, type: 'user_message', name: 'user_message', spanId: sp.spanId, ...(sp.parentSpanId && op !== 'invoke_agent' ? { parentSpanId: sp.parentSpanId } : {}), status: 'ok', attrs: { content } });
  }
  return out;
}
