// The conversation as the model sees it, serialised as OTel gen_ai input messages for `llm_request.inputMessages`
// (FORMAT §3.2, §3.4). The prompt renderer keeps only the newest messages that fit a budget (older ones are
// pruned, as prompt-tsx does when the token budget is exceeded), and a `summarize` child replaces the whole
// history once enough has been pruned. The budget is deliberately small so the average llm_request line stays
// small; a huge single message (an attachment, a pasted log) still reaches the 64,000-character OTel cap.
import { otelCap } from './entry';

/** How much of a tool result the history keeps: Copilot trims old tool output, and it keeps lines small. */
const TOOL_RESULT_IN_HISTORY = 80;

export class History {
  private messages: string[] = [];
  private chars = 2; // "[" and "]"
  /** Characters pruned since the last reset: the trigger for a summarize child. */
  pruned = 0;

  /** @param budget characters of messages kept; the newest message is always kept, however long. */
  constructor(private readonly budget: number) {}

  get length(): number {
    return this.chars;
  }

  add(messageJson: string): void {
    this.chars += messageJson.length + (this.messages.length ? 1 : 0);
    this.messages.push(messageJson);
    while (this.chars > this.budget && this.messages.length > 1) {
      const dropped = this.messages.shift()!;
      this.chars -= dropped.length + 1;
      this.pruned += dropped.length;
    }
  }

  reset(): void {
    this.messages = [];
    this.chars = 2;
    this.pruned = 0;
  }

  /** The attribute value: the JSON array text, OTel-capped (so over 64,000 characters it is no longer JSON). */
  inputMessages(): string {
    return otelCap('[' + this.messages.join(',') + ']');
  }
}

export function userMessage(text: string): string {
  return '{"role":"user","parts":[{"type":"text","content":' + JSON.stringify(text) + '}]}';
}

export function toolResultMessage(callId: string, result: string): string {
  const clipped = result.length > TOOL_RESULT_IN_HISTORY ? result.slice(0, TOOL_RESULT_IN_HISTORY) : result;
  return '{"role":"tool","parts":[{"type":"tool_call_response","id":' + JSON.stringify(callId) + ',"response":' + JSON.stringify(clipped) + '}]}';
}

export interface ResponseCall {
  callId: string;
  name: string;
  args: string;
}

/** The assistant message FETCH builds: optional text part, then one tool_call part per call. */
export function assistantMessage(text: string, calls: readonly ResponseCall[]): string {
  let parts = text ? '{"type":"text","content":' + JSON.stringify(text) + '}' : '';
  for (const c of calls) {
    parts += (parts ? ',' : '') + '{"type":"tool_call","id":' + JSON.stringify(c.callId) + ',"name":"' + c.name + '","arguments":' + JSON.stringify(c.args) + '}';
  }
  return '{"role":"assistant","parts":[' + parts + ']}';
}
