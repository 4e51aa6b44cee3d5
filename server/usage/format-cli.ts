import type { UsageResponse, UsageTotals } from '../../shared/api';
import { formatCount, formatCredits } from '../../shared/format-numbers';
import { NO_WORKSPACE_LABEL } from '../../shared/group-by-repository';
import { WINDOW_WORDS } from '../../shared/time-window';
import { table } from '../triage/format-cli';

// Plain text for `chronoscope usage`. Pure: the command prints what this returns.

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
const usd = (v: number) => `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function cells(key: string, t: UsageTotals, withRequests: boolean): string[] {
  return [key, withRequests ? formatCount(t.requests) : '—', formatCount(t.modelCalls), formatCount(t.tokensIn), formatCount(t.tokensOut), formatCount(t.tokensCached), pct(t.cacheHitRatio), formatCredits(t.credits), usd(t.usd), formatCount(t.callsWithoutCredits)];
}

export function formatUsage(r: UsageResponse): string {
  if (r.totals.modelCalls === 0) {
    const wider = r.window === 'all' ? '' : ' (--window all for every one)';
    return `Usage, ${WINDOW_WORDS[r.window]}: no model calls${wider}.\n`;
  }
  const head = [r.by, 'requests', 'model calls', 'tokens in', 'tokens out', 'cached', 'cache hit', 'credits', 'US$', 'no credit data'];
  const rows = r.rows.map((x) => cells(x.key ?? (r.by === 'repository' ? NO_WORKSPACE_LABEL : '(unknown model)'), x, r.by !== 'model'));
  rows.push(cells('total', r.totals, true));
  const right = new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const note =
    r.totals.callsWithoutCredits > 0
      ? `${formatCount(r.totals.callsWithoutCredits)} model calls carry no credit data (copilotUsageNanoAiu): counted apart, not estimated.\n`
      : '';
  const t = r.totals;
  const estimates = t.estimated
    ? `Estimated (Copilot CLI session totals split over their calls by output tokens): ${formatCount(t.tokensInEstimated)} tokens in, ${formatCount(t.tokensCachedEstimated)} cached, ${formatCredits(t.creditsEstimated)} credits.\n`
    : '';
  const incomplete = t.sessionsWithoutUsage > 0 ? `${formatCount(t.sessionsWithoutUsage)} Copilot CLI sessions have no session.shutdown (running or crashed): only their output tokens are known.\n` : '';
  return `Usage, ${WINDOW_WORDS[r.window]}, by ${r.by} (1 credit = US$0.01)\n\n${table(head, rows, right)}${note}${estimates}${incomplete}`;
}
