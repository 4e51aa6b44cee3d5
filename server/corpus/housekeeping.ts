// "UI housekeeping" child logs (FORMAT §2.3, §6): title, categorization and summarize. Each is one direct model
// call with its own session id; the parent's main.jsonl gets a child_session_ref with no parentSpanId.
import { UTILITY_MODEL } from './companions';
import { Attrs, truncateAttr } from './entry';
import { userMessage } from './history';
import type { SessionContext } from './session-context';

export type HousekeepingLabel = 'title' | 'categorization' | 'summarize';

/**
 * Writes the child log starting at time `t0` and returns the time it finished. It does not move the session
 * clock: title and categorization run beside the main request; the caller advances the clock for summarize.
 */
export function writeHousekeepingChild(ctx: SessionContext, label: HousekeepingLabel, prompt: string, response: string, t0: number): number {
  const { rng, plan } = ctx;
  const childId = rng.uuid();
  const file = ctx.openChild(label, childId);
  let t = t0;
  const ref = new Attrs().str('childSessionId', childId).str('childLogFile', `${label}-${childId}.jsonl`).str('label', label);
  ctx.write({ ts: t, dur: 0, type: 'child_session_ref', name: label, spanId: `child-ref-${childId}`, status: 'ok', attrs: ref.toString() });
  if (ctx.lvs) {
    const ss = new Attrs().str('copilotVersion', plan.copilotVersion).str('vscodeVersion', plan.vscodeVersion).str('parentSessionId', plan.id).str('label', label);
    file.write({ v: 1, ts: t, dur: 0, type: 'session_start', name: 'session_start', spanId: `session-start-${childId}`, status: 'ok', attrs: ss.toString() });
  }
  const agentSpan = ctx.spanId();
  t += rng.int(1, 8);
  file.write({ ts: t, dur: 0, type: 'user_message', name: 'user_message', spanId: agentSpan, status: 'ok', attrs: new Attrs().str('content', truncateAttr(prompt, ctx.attrLimit)).toString() });
  const chatSpan = ctx.spanId();
  const ttft = Math.round(rng.logNormal(350, 0.5));
  const outputTokens = Math.max(3, Math.round(response.length / 3.5));
  const dur = ttft + outputTokens * rng.int(3, 9);
  const a = new Attrs().str('model', UTILITY_MODEL).num('inputTokens', Math.round(prompt.length / 3.5) + 120).num('outputTokens', outputTokens).num('ttft', ttft);
  if (ctx.lvs) a.str('userRequest', prompt).str('inputMessages', '[' + userMessage(prompt) + ']');
  a.num('maxTokens', 4096);
  if (plan.postLvsAttrs) a.str('debugName', label === 'categorization' ? 'promptCategorization' : label).num('copilotUsageNanoAiu', 0).str('responseId', `resp_${rng.hex(24)}`);
  file.write({ ts: t, dur, type: 'llm_request', name: plan.variantNames ? 'llm_request' : `chat:${UTILITY_MODEL}`, spanId: chatSpan, parentSpanId: agentSpan, status: 'ok', attrs: a.toString() });
  t += dur;
  const message = '[{"role":"assistant","parts":[{"type":"text","content":' + JSON.stringify(response) + '}]}]';
  file.write({ ts: t, dur: 0, type: 'agent_response', name: 'agent_response', spanId: `agent-msg-${chatSpan}`, parentSpanId: agentSpan, status: 'ok', attrs: new Attrs().str('response', truncateAttr(message, ctx.attrLimit)).toString() });
  ctx.closeChild(file);
  return t;
}
