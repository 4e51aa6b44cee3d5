// Core discovery/generic events (FORMAT §3.2 last rows, §4.4). VS Code emits them once per window run; the
// logger keeps the last 100 and replays them into every session promoted in that run. So the same spanId and
// ts appear in many sessions of one workspace, and their ts is older than the session_start above them.
import { Attrs, type Entry } from './entry';
import { Rng, hashSeed } from './random';
import type { WorkspacePlan } from './workspace';

const DAY = 86_400_000;

export interface CoreRun {
  start: number;
  events: Entry[];
}

export class CoreEventSource {
  private readonly starts = new Map<number, number[]>();
  private readonly cache = new Map<string, CoreRun>();

  constructor(
    private readonly seed: number,
    private readonly now: number,
  ) {}

  /** The window run of `ws` that was active at time `t`. */
  runAt(ws: WorkspacePlan, t: number): CoreRun {
    const starts = this.runStarts(ws.index);
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= t) lo = mid;
      else hi = mid - 1;
    }
    const key = `${ws.index}:${lo}`;
    let run = this.cache.get(key);
    if (!run) {
      run = buildRun(new Rng(hashSeed(this.seed, 'core', ws.index, lo)), starts[lo], ws.hooks);
      this.cache.set(key, run);
    }
    return run;
  }

  /** A run private to one session: a VS Code restart that resumed it (FORMAT §4.6). */
  restartRun(rng: Rng, start: number, hooks: boolean): CoreRun {
    return buildRun(rng, start, hooks);
  }

  private runStarts(wsIndex: number): number[] {
    let starts = this.starts.get(wsIndex);
    if (!starts) {
      const rng = new Rng(hashSeed(this.seed, 'runs', wsIndex));
      starts = [];
      // Start before the oldest session (120 days back) so every session has a run; a new window every few hours to days.
      for (let t = this.now - 122 * DAY; t < this.now; t += Math.round(2 * 3_600_000 + rng.exp(2 * DAY))) starts.push(t);
      this.starts.set(wsIndex, starts);
    }
    return starts;
  }
}

const INSTRUCTION_FILES = ['.github/copilot-instructions.md', '.github/instructions/typescript.instructions.md', '.github/instructions/tests.instructions.md', 'AGENTS.md'];
const SKILLS = ['troubleshoot', 'chronicle', 'release-notes', 'db-migrations'];
const AGENTS = ['Explore', 'Reviewer', 'Planner', 'my/agent'];

function list(items: string[]): string {
  return '[' + items.map((s) => JSON.stringify(s)).join(', ') + ']';
}

function buildRun(rng: Rng, start: number, hooks: boolean): CoreRun {
  const events: Entry[] = [];
  let t = start + rng.int(200, 1500);
  const useCoreTsIds = rng.chance(0.3); // some VS Code builds give no event id, so the logger uses core-<now>
  const nextId = () => (useCoreTsIds ? `core-${t}` : rng.hex(16));
  const add = (type: string, name: string, details: string, category: string, parent?: string, status: 'ok' | 'error' = 'ok') => {
    const spanId = nextId();
    events.push({ ts: t, dur: 0, type, name, spanId, parentSpanId: parent, status, attrs: new Attrs().str('details', details).str('category', category).str('source', 'core').toString() });
    t += rng.int(3, 400);
    return spanId;
  };

  const loaded = INSTRUCTION_FILES.filter(() => rng.chance(0.6));
  const root = add('discovery', 'Load Instructions', `Loaded ${loaded.length} instruction files. loaded: ${list(loaded)} folders: [".github/instructions"]`, 'discovery');
  const skills = SKILLS.filter(() => rng.chance(0.7));
  add(
    'discovery',
    'Load Skills',
    // seed 004's example: folder `testing`, `name: testing2` in its SKILL.md
    `Discovered ${SKILLS.length + 1} skills, loaded ${skills.length}. loaded: ${list(skills)} skipped: [{"name": "testing2", "path": ".github/skills/testing/SKILL.md", "reason": "name-mismatch"}]`,
    'discovery',
    root,
  );
  add('discovery', 'Load Agents', `loaded: ${list(AGENTS.filter(() => rng.chance(0.6)))} folders: [".github/agents"]`, 'discovery', root);
  if (rng.chance(0.5)) add('discovery', 'Load Prompt Files', 'loaded: [".github/prompts/review.prompt.md"] skipped: []', 'discovery');
  if (hooks) add('discovery', 'Load Hooks', 'loaded: [".github/hooks/guard.json"] events: ["PreToolUse", "PostToolUse", "Stop"]', 'discovery');
  if (rng.chance(0.2)) {
    add('discovery', 'Load Instructions', 'Failed to read .github/instructions/legacy.instructions.md: EACCES: permission denied', 'discovery', root, 'error');
  }
  add('generic', 'MCP Servers Started', `started: ["github"${rng.chance(0.3) ? ', "atlassian"' : ''}] tools: ${rng.int(20, 90)}`, 'mcp');
  return { start, events };
}
