import { errorText } from '../ingest/cli/normalize-cli';
import { callResult } from '../triage/error-groups';

/**
 * A Copilot CLI line's `data` (INTEROP §3) with what the exports read from a debug log's attrs added under the
 * debug log's names: a tool call's `args` (the JSON of its start line's `arguments`), `result` (the completion's
 * `result.content`, else `detailedContent`) and `error` (`error.message`); a subagent's `description`. Without
 * them a CLI session's Markdown and OTLP had its tool calls with no arguments, result or error.
 */
export function cliExportAttrs(rawType: string, data: Record<string, unknown>, startArguments: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = { ...data };
  if (rawType === 'tool.execution_complete') {
    if (startArguments !== undefined) out.args = typeof startArguments === 'string' ? startArguments : JSON.stringify(startArguments);
    out.result = callResult(data) ?? undefined;
    out.error = errorText(data.error) ?? undefined;
  } else if (rawType === 'subagent.completed' || rawType === 'subagent.failed' || rawType === 'hook.end' || rawType === 'session.error') {
    out.error = errorText(data.error) ?? (typeof data.message === 'string' ? data.message : undefined);
    if (typeof data.agentDescription === 'string') out.description = data.agentDescription;
  }
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}
