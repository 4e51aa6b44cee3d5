import { jsonValueOf } from '../search/parsed-json';

/**
 * A turn's `assistant_response` from an `agent_response.response` as Chronicle's reindex reads it (FORMAT §5.5):
 * the `text` parts of the assistant messages, joined with `\n` (reasoning and tool calls are not the answer).
 * '' when it parsed and holds no text (tool calls only: no turn text); null when it does not parse (the logger
 * cut it at 5,000 characters, §3.2): Chronicle stores NULL then, never the invalid JSON as if it were the answer.
 */
export function assistantText(response: unknown): string | null {
  if (typeof response !== 'string') return '';
  // parsed already, as a rule, when the line's search text was read (parsed-json.ts)
  const messages = jsonValueOf(response);
  if (!Array.isArray(messages)) return null;
  const out: string[] = [];
  for (const m of messages) {
    const msg = m as { role?: unknown; parts?: unknown } | null;
    if (msg === null || typeof msg !== 'object' || (msg.role !== undefined && msg.role !== 'assistant') || !Array.isArray(msg.parts)) continue;
    for (const p of msg.parts) {
      const part = p as { type?: unknown; content?: unknown } | null;
      if (part !== null && typeof part === 'object' && part.type === 'text' && typeof part.content === 'string') out.push(part.content);
    }
  }
  return out.join('\n');
}
