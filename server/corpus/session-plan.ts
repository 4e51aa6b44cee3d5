// What the planner decides about one top-level session before any of it is written.
import type { Lang } from './text';
import type { WorkspacePlan } from './workspace';

/** Logger generation (FORMAT §0): LVS writes everything; LMAR has no session_start, turns, prompt files or inputMessages. */
export type Era = 'lvs' | 'lmar';

/** FORMAT §4.6: resumed because spans arrived for a known folder (no new session_start) or startSession ran first. */
export type RestartKind = 'spans-first' | 'start-first';

/** One-off cases forced into a session, each consumed the first time the generator can place it. */
export type ForcedFeature =
  | 'nestedSubagent'
  | 'sanitizedLabel'
  | 'searchSubagent'
  | 'defaultSubagent'
  | 'childHookError'
  | 'chatUnknown'
  | 'surrogateSplit'
  | 'danglingParent'
  | 'longResponse'
  | 'bigCreate';

/** A line some other source broadcasts into this session (FORMAT §4.9 user_message fallback). */
export interface Injection {
  ts: number;
  spanId: string;
  content: string;
}

export interface SessionPlan {
  id: string;
  ws: WorkspacePlan;
  seed: number;
  /** First activity. */
  start: number;
  /** Idle gaps are stretched or squeezed so the last activity lands near here. */
  end: number;
  /** Bytes of *.jsonl for the session and all its child logs. */
  budget: number;
  lang: Lang;
  era: Era;
  copilotVersion: string;
  vscodeVersion: string;
  model: string;
  /** Attributes seen after LVS (debugName, cachedTokens, copilotUsageNanoAiu, responseId), FORMAT §3.3. */
  postLvsAttrs: boolean;
  /** Third-party naming variants: `llm_request`, `tool:<name>`, `turn_start` without `:<n>` (FORMAT §8). */
  variantNames: boolean;
  forced: ForcedFeature[];
  restarts: RestartKind[];
  /** Requests whose history holds a huge attachment, so inputMessages hits the 64,000-character cap. */
  longContextBursts: number;
  /** Characters of pasted log in the first request's userRequest (0 = none); FORMAT §7.24. */
  bigUserRequestChars: number;
  /** Characters of conversation the prompt keeps (inputMessages size, before the OTel cap). */
  historyBudget: number;
  /** Characters pruned from the prompt after which a summarize child replaces the history. */
  summarizeAfter: number;
  forkOf?: string;
  rareWord?: string;
  /** The model list grew mid-session (a new MCP server): a second tools_N.json. */
  toolsChange: boolean;
  /** So many MCP tools that tools_0.json's inner string is OTel-truncated (FORMAT §7.4). */
  hugeTools: boolean;
  modelSwitch: boolean;
  /** The file was cut by the size cap: starts with a fragment, no session_start; a stray main.jsonl.tmp beside it. */
  sizeCapped: boolean;
  /** Still being written: the last line has no newline yet. */
  partialTail: boolean;
  garbage: boolean;
  injections: Injection[];
  modelsJson: number | null;
}
