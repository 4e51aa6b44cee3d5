// State shared by everything written for one top-level session: its clock, randomness, open files, the byte
// budget (main.jsonl plus child logs) and the companion-file indices.
import path from 'node:path';
import { systemPromptText, toolsContent, writeContentFile } from './companions';
import type { Entry } from './entry';
import { History } from './history';
import { JsonlFile, type FileStats } from './jsonl-file';
import { Rng } from './random';
import type { ForcedFeature, SessionPlan } from './session-plan';

/** LVS: characters `/ \ : * ? " < > |`, control characters and `..` become `_` in the file name only. */
export function safeLabel(label: string): string {
  return label.replace(/[/\\:*?"<>|\x00-\x1f]/g, '_').replace(/\.\./g, '_');
}

/**
 * Span ids as the writer makes them (FORMAT §10.2): a counter of the extension host, 16 hex digits, starting at
 * 1. Unrelated sessions therefore share ids, which is what an indexer must survive.
 */
export function counterSpanId(n: number): string {
  return n.toString(16).padStart(16, '0');
}

export interface PromptFiles {
  system: string;
  tools: string;
}

export class SessionContext {
  readonly rng: Rng;
  readonly main: JsonlFile;
  readonly attrLimit = 5000;
  clock: number;
  /** Conversation and model of the top-level agent, carried across requests. */
  readonly mainHistory: History;
  mainModel: string;
  /** Child sessions started by a subagent (their log still lives in this top-level folder). */
  readonly nestedChildIds: string[] = [];

  private spans = 0;
  private readonly closed: FileStats[] = [];
  private closedBytes = 0;
  private readonly children = new Set<JsonlFile>();
  private readonly pending: Set<ForcedFeature>;
  private systemKey = '';
  private systemIndex = -1;
  private toolsKey = '';
  private toolsIndex = -1;
  private toolsExtra: number;

  constructor(
    readonly plan: SessionPlan,
    readonly dir: string,
  ) {
    this.rng = new Rng(plan.seed);
    this.clock = plan.start;
    this.mainModel = plan.model;
    this.mainHistory = new History(plan.historyBudget);
    this.pending = new Set(plan.forced);
    this.toolsExtra = plan.hugeTools ? 400 : 0;
    this.main = new JsonlFile(path.join(dir, 'main.jsonl'), plan.id, 'main');
  }

  get lvs(): boolean {
    return this.plan.era === 'lvs';
  }

  /** Bytes written so far by the whole session family. */
  bytes(): number {
    let b = this.main.bytes + this.closedBytes;
    for (const c of this.children) b += c.bytes;
    return b;
  }

  /** The next span id of the session's window: one counter for its main log and its child logs. */
  spanId(): string {
    return counterSpanId(++this.spans);
  }

  /** VS Code reloaded (a resumed run): the extension host numbers its spans from 1 again. */
  newWindow(): void {
    this.spans = 0;
  }

  tick(ms: number): void {
    this.clock += Math.max(1, Math.round(ms));
  }

  /** True once per forced feature: the caller places it now. */
  take(feature: ForcedFeature): boolean {
    return this.pending.delete(feature);
  }

  has(feature: ForcedFeature): boolean {
    return this.pending.has(feature);
  }

  hasPending(): boolean {
    return this.pending.size > 0;
  }

  openChild(label: string, childId: string): JsonlFile {
    const file = new JsonlFile(path.join(this.dir, `${safeLabel(label)}-${childId}.jsonl`), childId, 'child');
    this.children.add(file);
    return file;
  }

  closeChild(file: JsonlFile): void {
    this.children.delete(file);
    const stats = file.close();
    this.closed.push(stats);
    this.closedBytes += stats.bytes;
  }

  write(entry: Entry): void {
    this.main.write(entry);
  }

  /** A new MCP server appeared: the tool list length changes, so the next request writes tools_N+1. */
  addMcpTools(count: number): void {
    this.toolsExtra += count;
  }

  /**
   * The system prompt and tools files in effect for a main-session chat call, writing a new numbered file when
   * the length-based key changes (FORMAT §2.2). Queued before the llm_request that names them (FORMAT §4.10).
   */
  promptFiles(model: string): PromptFiles {
    const system = systemPromptText(model, this.plan.seed & 1);
    const systemKey = `${model}:${system.length}`;
    if (systemKey !== this.systemKey) {
      this.systemKey = systemKey;
      this.systemIndex++;
      writeContentFile(this.dir, `system_prompt_${this.systemIndex}.json`, system);
    }
    const toolsKey = `tools:${this.toolsExtra}`;
    if (toolsKey !== this.toolsKey) {
      this.toolsKey = toolsKey;
      this.toolsIndex++;
      writeContentFile(this.dir, `tools_${this.toolsIndex}.json`, toolsContent(this.toolsExtra));
    }
    return { system: `system_prompt_${this.systemIndex}.json`, tools: `tools_${this.toolsIndex}.json` };
  }

  finish(): FileStats[] {
    for (const c of [...this.children]) this.closeChild(c);
    return [this.main.close(), ...this.closed];
  }
}
