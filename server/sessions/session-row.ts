import { creditsOf, IMPORTED_WORKSPACE, type SessionSummary } from '../../shared/api';
import type { SessionFigures } from '../counts/session-events';

/** The sessions the sessions list shows (with `s` as the alias): those with events, and those whose log is gone. */
export const LISTED_SESSION = '(s.event_count > 0 OR s.log_deleted = 1)';

/** The columns of `sessions` that make a SessionSummary; selected with the `s` alias. */
export const SESSION_SUMMARY_COLUMNS = `s.id, s.title, s.repository, s.branch, s.cwd, s.first_ts, s.last_ts, s.event_count, s.error_count,
  s.is_child, s.parent_id, s.label, s.log_deleted, s.models, s.tokens_in, s.tokens_out, s.credits_nano, s.child_count, s.num, s.workspace_dir, s.source, s.usage_complete`;

export interface SessionRow {
  id: string;
  title: string | null;
  repository: string | null;
  branch: string | null;
  cwd: string | null;
  first_ts: number | null;
  last_ts: number | null;
  event_count: number;
  error_count: number;
  is_child: number;
  parent_id: string | null;
  label: string | null;
  log_deleted: number;
  models: string | null;
  tokens_in: number;
  tokens_out: number;
  credits_nano: number | null;
  child_count: number;
  num: number;
  workspace_dir: string | null;
  source: string;
  usage_complete: number;
}

/** `eventCount` and `errorCount` are the family's (shared/counts.ts), from sessionFigures: not the row's own event_count and error_count. */
export function toSessionSummary(r: SessionRow, figures: SessionFigures): SessionSummary {
  return {
    id: r.id,
    title: r.title,
    repository: r.repository,
    branch: r.branch,
    workspaceFolder: r.cwd,
    createdAt: r.first_ts,
    updatedAt: r.last_ts,
    eventCount: figures.events,
    errorCount: figures.errors,
    isChild: r.is_child === 1,
    parentId: r.parent_id,
    label: r.label,
    logDeleted: r.log_deleted === 1,
    models: r.models ? (JSON.parse(r.models) as string[]) : [],
    tokensIn: r.tokens_in,
    tokensOut: r.tokens_out,
    credits: creditsOf(r.credits_nano),
    childCount: r.child_count,
    imported: r.workspace_dir !== null && r.workspace_dir.replace(/\\/g, '/').split('/').pop() === IMPORTED_WORKSPACE,
    source: r.source === 'cli' ? 'cli' : 'vscode',
    usageComplete: r.usage_complete === 1,
  };
}
