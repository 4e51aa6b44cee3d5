import path from 'node:path';
import type { BackfillShare } from '../../shared/api';
import { AGENT_HOST_USAGE } from './discover/layout';

// The order of a backfill and the split its progress is reported in. What a user looks for right after
// installing is this week's sessions, so whole sessions go newest first: a session counts as indexed only when
// its main.jsonl and every child log are, so ordering files by their own mtime (a child written last week under
// a session resumed today) would leave today's sessions half done behind older ones.

/** "This week": sessions whose last write is within this long of the newest log write of the backfill. */
export const RECENT_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export interface BackfillFile {
  path: string;
  size: number;
  mtimeMs: number;
}

export interface PlannedFile {
  path: string;
  size: number;
  recent: boolean;
}

export interface BackfillPlan {
  /** every file, whole sessions newest first by last write; within a session its newest file first */
  files: PlannedFile[];
  /** the first moment counted as recent (newest log write − RECENT_WINDOW_MS); null with no files */
  recentSince: number | null;
  recent: BackfillShare;
  older: BackfillShare;
}

/**
 * The session folder a file belongs to: `<debug-logs>/<folder>/<file>`, or a legacy flat `<debug-logs>/<id>.jsonl`,
 * or a Copilot CLI session's `agentHostUsage/<id>.jsonl` (its session-state folder is `<id>` too).
 * Keyed by name, not path, so that one session in two roots (a workspace and globalStorage, FORMAT §10.1) is one.
 */
export function sessionKeyOf(file: string): string {
  const dir = path.basename(path.dirname(file));
  return dir === 'debug-logs' || dir === AGENT_HOST_USAGE ? path.basename(file, '.jsonl') : dir;
}

const isUsage = (f: BackfillFile) => path.basename(path.dirname(f.path)) === AGENT_HOST_USAGE;
/** A usage file is a companion (stored, not tailed): it rides with its session and does not date it. */
const isLog = (f: BackfillFile) => f.path.endsWith('.jsonl') && !isUsage(f);

/** A session's last write: its newest log file (companions only when it has no log at all). */
function lastWrite(files: BackfillFile[]): number {
  const logs = files.some(isLog) ? files.filter(isLog) : files;
  return Math.max(...logs.map((f) => f.mtimeMs));
}

export const emptyShare = (): BackfillShare => ({ filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 });

export function planBackfill(files: BackfillFile[]): BackfillPlan {
  const bySession = new Map<string, BackfillFile[]>();
  for (const f of files) {
    const key = sessionKeyOf(f.path);
    const list = bySession.get(key);
    if (list) list.push(f);
    else bySession.set(key, [f]);
  }
  const sessions = [...bySession.entries()].map(([key, list]) => ({ key, list, last: lastWrite(list), hasLog: list.some(isLog) }));
  sessions.sort((a, b) => b.last - a.last || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  // The week ends at the newest log: a folder holding only companions (models.json written when a chat opened
  // and nothing was said) may be newer than every log and would shift the week past the sessions in it.
  const newest = sessions.find((x) => x.hasLog) ?? sessions[0];
  const recentSince = newest ? newest.last - RECENT_WINDOW_MS : null;
  const plan: BackfillPlan = { files: [], recentSince, recent: emptyShare(), older: emptyShare() };
  for (const s of sessions) {
    const recent = recentSince !== null && s.last >= recentSince;
    const share = recent ? plan.recent : plan.older;
    for (const f of [...s.list].sort((a, b) => b.mtimeMs - a.mtimeMs)) {
      plan.files.push({ path: f.path, size: f.size, recent });
      share.filesTotal++;
      share.bytesTotal += f.size;
    }
  }
  return plan;
}
