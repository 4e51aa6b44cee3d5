// Decides every session before anything is written: byte budgets (one big session, a heavy tail, a few tiny
// ones), time windows over the last 120 days, workspaces, versions, and which session carries which edge case.
// Planning first keeps generation a single streaming pass and makes cross-session cases (forks, broadcast
// user_message, fork parents quoted by the fork) consistent.
import { CHAT_MODELS } from './companions';
import { Rng, hashSeed } from './random';
import type { ForcedFeature, SessionPlan } from './session-plan';
import { RARE_WORDS, pickLang } from './text';
import type { WorkspacePlan } from './workspace';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const SPAN = 120 * DAY;
const MiB = 1 << 20;
/** Rough bytes per user request, only used to size time windows (the budget, not this, ends a session). */
const BYTES_PER_REQUEST = 9_000;

export interface PlanOptions {
  seed: number;
  targetBytes: number;
  sessions: number;
  now: number;
  edgeCases: boolean;
}

export interface SessionsPlan {
  /** In chronological order of start: the order they are written (a fork is written after its parent). */
  sessions: SessionPlan[];
  bigSessionId: string;
  forkWithMissingParent: { sessionId: string; missingParentId: string };
  fork: { sessionId: string; parentId: string } | null;
  rareWordSessions: Record<string, string>;
  broadcast: { spanId: string; sessionIds: string[] } | null;
  liveSessionId: string;
  lmarSessionId: string | null;
  sizeCappedSessionId: string | null;
  nonUuidSessionIds: string[];
}

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/** Versions drift forward over the 120 days; Insiders builds carry a date stamp like the real ones. */
function versions(rng: Rng, t: number, now: number, ws: WorkspacePlan): { copilot: string; vscode: string; minor: number } {
  const frac = Math.min(1, Math.max(0, (t - (now - SPAN)) / SPAN));
  const minor = 45 + Math.round(frac * 22);
  const vsMinor = 105 + Math.round(frac * 6);
  if (ws.product === 'Code - Insiders') {
    const d = new Date(t);
    const stamp = `${d.getUTCFullYear()}${pad2(d.getUTCMonth() + 1)}${pad2(d.getUTCDate())}${pad2(rng.int(0, 23))}`;
    return { copilot: `0.${minor}.${stamp}`, vscode: `1.${vsMinor + 1}.0-insider`, minor };
  }
  return { copilot: `0.${minor}.${rng.int(0, 3)}`, vscode: `1.${vsMinor}.${rng.int(0, 2)}`, minor };
}

/** Splits `total` over n weights, clamping each to [lo, hi] and rescaling the rest so the sum still matches. */
function distribute(weights: number[], total: number, lo: number, hi: number): number[] {
  let sizes = weights.slice();
  const fixed = new Array<boolean>(weights.length).fill(false);
  for (let pass = 0; pass < 6; pass++) {
    let fixedSum = 0;
    let freeWeight = 0;
    weights.forEach((w, i) => (fixed[i] ? (fixedSum += sizes[i]) : (freeWeight += w)));
    const scale = freeWeight > 0 ? Math.max(0, total - fixedSum) / freeWeight : 0;
    let changed = false;
    sizes = sizes.map((s, i) => {
      if (fixed[i]) return s;
      const v = weights[i] * scale;
      if (v < lo || v > hi) {
        fixed[i] = true;
        changed = true;
        return Math.min(hi, Math.max(lo, v));
      }
      return v;
    });
    if (!changed) break;
  }
  return sizes.map((s) => Math.round(s));
}

function baseSession(rng: Rng, o: PlanOptions, index: number, ws: WorkspacePlan, budget: number): SessionPlan {
  return {
    id: rng.uuid(),
    ws,
    seed: hashSeed(o.seed, 'session', index),
    start: 0,
    end: 0,
    budget,
    lang: pickLang(rng),
    era: 'lvs',
    copilotVersion: '',
    vscodeVersion: '',
    model: rng.weighted<string>([
      [CHAT_MODELS[0], 30],
      [CHAT_MODELS[1], 35],
      [CHAT_MODELS[2], 25],
      [CHAT_MODELS[3], 10],
    ]),
    postLvsAttrs: false,
    variantNames: false,
    forced: [],
    restarts: [],
    longContextBursts: 0,
    bigUserRequestChars: 0,
    historyBudget: Math.round(Math.min(3_000, Math.max(600, rng.logNormal(1_000, 0.4)))),
    summarizeAfter: Math.round(rng.logNormal(40_000, 0.4)),
    toolsChange: rng.chance(0.1),
    hugeTools: false,
    modelSwitch: rng.chance(0.12),
    sizeCapped: false,
    partialTail: false,
    garbage: false,
    injections: [],
    modelsJson: rng.chance(0.97) ? rng.int(0, 1) : null,
  };
}

function setTimes(rng: Rng, p: SessionPlan, o: PlanOptions, end?: number): void {
  const requests = Math.max(1, p.budget / BYTES_PER_REQUEST);
  const len = Math.min(25 * DAY, Math.max(10 * MIN, requests * rng.logNormal(20 * MIN, 0.7), requests * 2 * MIN));
  if (end !== undefined) {
    p.end = end;
    p.start = Math.round(end - len);
  } else {
    const room = Math.max(0, SPAN - len - 30 * MIN);
    p.start = Math.round(o.now - SPAN + rng.next() * room);
    p.end = Math.round(Math.min(p.start + len, o.now - 30 * MIN));
  }
}

function stampVersions(rng: Rng, p: SessionPlan, o: PlanOptions): void {
  const v = versions(rng, p.start, o.now, p.ws);
  p.copilotVersion = v.copilot;
  p.vscodeVersion = v.vscode;
  p.postLvsAttrs = o.edgeCases && v.minor >= 60;
}

export function planSessions(rng: Rng, o: PlanOptions, workspaces: WorkspacePlan[], availableBytes: number): SessionsPlan {
  const n = Math.max(1, o.sessions);
  const sessions: SessionPlan[] = [];
  const wsWeights = workspaces.map((_, i) => [workspaces[i], 1 / Math.pow(i + 1, 0.8)] as const);
  const wsFor = (i: number) => (i < workspaces.length ? workspaces[i] : rng.weighted(wsWeights));

  // The LMAR-era folder is a small extra session written by the same code with the older logger's rules.
  const lmarBudget = o.edgeCases ? Math.min(25_000, Math.round(availableBytes * 0.02)) : 0;
  let bytes = availableBytes - lmarBudget;

  // Budgets: one big session (80 MB at 1 GiB; in small corpora at least 2.5x the average so it stays the
  // biggest), ~6% tiny ones, the rest log-normal.
  const bigBudget = n > 1 ? Math.round(Math.max(o.targetBytes * 0.0745, (2.5 * bytes) / n)) : bytes;
  const tinyCount = n > 3 ? Math.max(1, Math.round(n * 0.06)) : 0;
  const tiny = Array.from({ length: tinyCount }, () => rng.int(8_000, 16_000));
  const restCount = n - 1 - tinyCount;
  bytes -= bigBudget + tiny.reduce((a, b) => a + b, 0);
  const rest = restCount > 0 ? distribute(Array.from({ length: restCount }, () => rng.logNormal(1, 1.0)), bytes, 12_000, bigBudget * 0.7) : [];
  const budgets = [bigBudget, ...tiny, ...rest].slice(0, n);

  budgets.forEach((b, i) => sessions.push(baseSession(rng, o, i, i === 0 ? workspaces[0] : wsFor(i), b)));
  const big = sessions[0];

  // The live session: a mid-small one still being written as `now` arrives.
  const bySize = sessions.slice(1).sort((a, b) => a.budget - b.budget);
  const live = bySize.length ? bySize[Math.floor(bySize.length * 0.3)] : big;
  for (const p of sessions) setTimes(rng, p, o, p === live ? o.now - 2 * MIN - rng.int(0, 60_000) : undefined);
  for (const p of sessions) stampVersions(rng, p, o);

  const result: SessionsPlan = {
    sessions,
    bigSessionId: big.id,
    forkWithMissingParent: { sessionId: '', missingParentId: '' },
    fork: null,
    rareWordSessions: {},
    broadcast: null,
    liveSessionId: live.id,
    lmarSessionId: null,
    sizeCappedSessionId: null,
    nonUuidSessionIds: [],
  };

  // Rotating picker over the ordinary sessions so cases spread out; small corpora reuse sessions.
  const pool = rng.shuffle(sessions.filter((p) => p !== big && p !== live));
  if (pool.length === 0) pool.push(big);
  let cursor = 0;
  const take = (ok: (p: SessionPlan) => boolean = () => true): SessionPlan => {
    for (let k = 0; k < pool.length; k++) {
      const p = pool[(cursor + k) % pool.length];
      if (ok(p)) {
        cursor = (cursor + k + 1) % pool.length;
        return p;
      }
    }
    return pool[cursor++ % pool.length];
  };
  const forkParents = new Set<SessionPlan>();
  const plain = (p: SessionPlan) => !p.sizeCapped && !p.forkOf && !forkParents.has(p) && p.injections.length === 0;

  big.restarts = ['start-first', 'spans-first']; // rIdx 1 then 2 in one file (FORMAT §7.15)
  // Every child label in one folder (FORMAT §7.9); summarize comes from the big session's long history.
  big.forced.push('searchSubagent', 'defaultSubagent');
  const bursts = Math.max(1, Math.round(o.targetBytes / (64 * MiB)));
  big.longContextBursts = 1;
  for (let i = 1; i < bursts; i++) take((p) => p.budget >= 300_000).longContextBursts++;

  if (o.edgeCases) {
    const capped = take();
    capped.sizeCapped = true;
    result.sizeCappedSessionId = capped.id;
    live.partialTail = true;

    // A user_message broadcast into two sessions of one workspace that are open at the same time.
    const a = take(plain);
    const b = take((p) => plain(p) && p !== a);
    if (a !== b) {
      const len = b.end - b.start;
      b.ws = a.ws;
      b.start = a.start + rng.int(5, 30) * MIN;
      b.end = Math.max(b.start + 5 * MIN, Math.min(b.start + len, o.now - 20 * MIN));
      stampVersions(rng, b, o);
      const inj = { ts: b.start + rng.int(2, 15) * MIN, spanId: rng.hex(16), content: 'What did we change in the retry logic today?' };
      a.injections.push(inj);
      b.injections.push({ ...inj });
      result.broadcast = { spanId: inj.spanId, sessionIds: [a.id, b.id] };
    }
  }

  // Forks: one of a session in the corpus, one of a session that is gone (FORMAT lineage).
  const missing = take(plain);
  missing.forkOf = rng.uuid();
  result.forkWithMissingParent = { sessionId: missing.id, missingParentId: missing.forkOf };
  const fork = take((p) => plain(p) && sessions.some((q) => q !== p && plain(q) && q.start < p.start));
  const parents = sessions.filter((q) => q !== fork && plain(q) && q.start < fork.start);
  if (parents.length && plain(fork)) {
    const parent = rng.pick(parents);
    forkParents.add(parent);
    fork.forkOf = parent.id;
    fork.ws = parent.ws;
    stampVersions(rng, fork, o);
    result.fork = { sessionId: fork.id, parentId: parent.id };
  }

  take(plain).restarts = ['spans-first'];
  take(plain).restarts = ['start-first'];
  const forced: ForcedFeature[] = ['nestedSubagent', 'nestedSubagent', 'searchSubagent', 'childHookError'];
  if (o.edgeCases) forced.push('sanitizedLabel', 'chatUnknown', 'surrogateSplit', 'danglingParent', 'longResponse', 'bigCreate');
  for (const f of forced) take((p) => !p.forced.includes(f)).forced.push(f);
  take().modelSwitch = true; // system_prompt_0 and _1 in one folder (FORMAT §7.3)
  take().hugeTools = true;

  if (o.edgeCases) {
    take().variantNames = true;
    if (!sessions.some((p) => p.postLvsAttrs)) take().postLvsAttrs = true;
    take().bigUserRequestChars = Math.min(2_600_000, Math.max(20_000, Math.round(o.targetBytes / 400)));
    take().garbage = true;
    for (const word of RARE_WORDS) {
      const p = take((q) => plain(q) && !q.rareWord && q !== big);
      if (!p.rareWord && plain(p)) {
        p.rareWord = word;
        result.rareWordSessions[word] = p.id;
      }
    }
    // Copilot CLI / Claude Code style ids; the second needs path-safe handling in folder names and URLs.
    const ids = [`cli-${rng.hex(10)}`, `claude code #${rng.int(2, 99)}`];
    for (const id of ids) {
      const p = take((q) => plain(q) && !q.rareWord && !result.nonUuidSessionIds.includes(q.id));
      if (!plain(p) || p.rareWord || result.nonUuidSessionIds.includes(p.id)) continue;
      p.id = id;
      result.nonUuidSessionIds.push(id);
    }

    const lmar = baseSession(rng, o, n, workspaces[Math.min(1, workspaces.length - 1)], lmarBudget);
    lmar.era = 'lmar';
    lmar.toolsChange = false;
    lmar.modelSwitch = false;
    lmar.forced = ['searchSubagent'];
    setTimes(rng, lmar, o);
    lmar.copilotVersion = '0.42.2026032701';
    lmar.vscodeVersion = '1.104.0-insider';
    sessions.push(lmar);
    result.lmarSessionId = lmar.id;
  }

  sessions.sort((a, b) => a.start - b.start);
  return result;
}

/** The session of FORMAT §7.7 (main.jsonl = session_start + child_session_ref only). */
export function planRefsOnlySession(rng: Rng, o: PlanOptions, ws: WorkspacePlan): SessionPlan {
  const p = baseSession(rng, o, -1, ws, 0);
  setTimes(rng, p, o);
  stampVersions(rng, p, o);
  return p;
}
