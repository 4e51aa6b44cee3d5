import { errorText } from '../ingest/cli/normalize-cli';
import { visibleText } from '../../shared/visible-text';
import type { SpanEntry } from './span-tree';

/** Longest label a row carries: a glance, the detail pane has the rest. */
export const LABEL_MAX = 160;

// Types labelled from their columns alone; every other label needs the attrs of the raw line.
const COLUMN_ONLY = new Set(['llm_request', 'turn_start', 'turn_end']);

/** Whether the label of `e` needs its attrs (a failed model call shows its error text). */
export function needsAttrs(e: Pick<SpanEntry, 'type' | 'status'>): boolean {
  return !COLUMN_ONLY.has(e.type) || e.status === 1;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Whitespace folded, cut at LABEL_MAX with an ellipsis. Works on a prefix so a 10 MB value costs nothing. */
export function shortText(s: string): string {
  const t = visibleText(s.slice(0, LABEL_MAX * 4).replace(/\s+/g, ' ').trim());
  return t.length > LABEL_MAX ? `${t.slice(0, LABEL_MAX - 1)}…` : t;
}

// Argument keys that say most about a tool call, in order of preference.
const ARG_KEYS = ['filePath', 'path', 'command', 'query', 'pattern', 'url', 'agentName', 'description', 'prompt', 'explanation', 'input'];

function argsSummary(args: string): string {
  try {
    const v: unknown = JSON.parse(args);
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      for (const k of ARG_KEYS) {
        const s = str(o[k]);
        if (s) return s;
      }
      for (const val of Object.values(o)) {
        const s = str(val);
        if (s) return s;
      }
    }
  } catch {
    // Copilot's 5,000-character cut leaves invalid JSON: the text itself is still the best glance.
  }
  return args;
}

function responseSummary(response: string): string {
  try {
    const messages: unknown = JSON.parse(response);
    if (Array.isArray(messages)) {
      const texts: string[] = [];
      const calls: string[] = [];
      for (const m of messages) {
        const parts = (m as { parts?: unknown })?.parts;
        if (!Array.isArray(parts)) continue;
        for (const p of parts as { type?: unknown; content?: unknown; name?: unknown }[]) {
          if (p?.type === 'text' && typeof p.content === 'string' && p.content.trim() !== '') texts.push(p.content);
          else if (p?.type === 'tool_call' && typeof p.name === 'string') calls.push(p.name);
        }
      }
      if (texts.length > 0) return texts.join(' ');
      if (calls.length > 0) return `→ ${calls.join(', ')}`;
      return '';
    }
  } catch {
    /* cut JSON: fall back to the first text content in it */
  }
  const m = /"content":"((?:[^"\\]|\\.)*)/.exec(response.slice(0, 4000));
  return m ? m[1].replace(/\\n/g, ' ').replace(/\\"/g, '"') : response;
}

function cliResult(a: Record<string, unknown>): string {
  const r = a.result;
  if (r !== null && typeof r === 'object' && !Array.isArray(r)) return str((r as Record<string, unknown>).content) ?? '';
  return str(r) ?? '';
}

function cliArgs(a: Record<string, unknown>): string {
  const args = a.arguments;
  if (args !== null && typeof args === 'object') return argsSummary(JSON.stringify(args));
  return str(args) ?? str(a.agentDescription) ?? str(a.hookType) ?? '';
}

/** The short text a row shows after its name: what the event was about, in a glance. */
export function spanLabel(e: SpanEntry, attrs: Record<string, unknown> | null): string {
  const a = attrs ?? {};
  // a debug log's error is text; a Copilot CLI completion's is `{message, code}`: errorText reads both
  const error = e.status === 1 ? errorText(a.error) : null;
  switch (e.type) {
    case 'user_message':
      return shortText(str(a.content) ?? '');
    case 'llm_request': {
      if (error) return shortText(error);
      const parts: string[] = [];
      if (e.tokensIn !== null || e.tokensOut !== null) parts.push(`${e.tokensIn ?? '?'} → ${e.tokensOut ?? '?'} tokens`);
      if (e.ttft !== null) parts.push(`ttft ${e.ttft}ms`);
      return parts.join(' · ');
    }
    case 'agent_response':
      return shortText(responseSummary(str(a.response) ?? ''));
    case 'tool_call':
      // A CLI completion carries the result; its arguments are on its start line (normalize-cli.ts).
      return shortText(error ?? argsSummary(str(a.args) ?? '') ?? '') || shortText(cliResult(a));
    case 'tool.execution_start':
    case 'subagent.started':
    case 'hook.start':
      // Its completion would have replaced it in the tree: still running, or it never finished.
      return shortText(['running (no completion yet)', cliArgs(a)].filter(Boolean).join(' · '));
    case 'subagent':
      return shortText(error ?? str(a.description) ?? str(a.agentName) ?? '');
    case 'hook':
      return shortText(error ?? [str(a.resultKind), str(a.command)].filter(Boolean).join(' · '));
    case 'generic':
    case 'discovery':
      return shortText(str(a.details) ?? str(a.category) ?? '');
    case 'child_session_ref':
      return shortText([str(a.label), str(a.childSessionId)].filter(Boolean).join(' → '));
    case 'session_start': {
      const label = str(a.label);
      if (label) return shortText(`${label} child log`);
      const v = [str(a.copilotVersion) && `Copilot ${String(a.copilotVersion)}`, str(a.vscodeVersion) && `VS Code ${String(a.vscodeVersion)}`];
      return v.filter(Boolean).join(' · ');
    }
    case 'turn_start':
    case 'turn_end': {
      const turn = e.name.includes(':') ? e.name.slice(e.name.indexOf(':') + 1) : '';
      return turn ? `iteration ${turn}` : '';
    }
    default:
      return shortText(error ?? str(a.details) ?? str(a.content) ?? '');
  }
}
