import { z } from 'zod';
import { LatencyStatsQuery } from '../../../shared/api';
import { latencyStats } from '../../triage/latency';
import { defineTool } from '../tool-context';
import { windowArg } from './args';

export const latencyStatsTool = defineTool({
  name: 'latency_stats',
  title: 'Latency percentiles',
  description:
    'Latency statistics across every indexed session, one row per model, tool or repository: call count, error rate, exact nearest-rank p50/p90/p99/max duration in ms, ' +
    'time-to-first-token percentiles for model calls, token totals (each over the calls that reported it, with their count; null when none did: Copilot CLI writes input and cached tokens per session, see usage) and output tokens per second. Use it to tell a slow model or tool from a slow session.',
  input: {
    by: z.enum(['model', 'tool', 'repository']).default('model').describe('group by model (model calls), tool (tool calls) or repository (model calls by repository); default model'),
    window: windowArg,
  },
  run(ctx, a) {
    const r = latencyStats(ctx.db, LatencyStatsQuery.parse({ by: a.by, window: a.window }), ctx.now());
    return {
      listKey: 'rows',
      payload: {
        by: r.by,
        percentiles: r.percentileDefinition,
        rows: r.rows.map((x) => ({
          key: x.key,
          calls: x.count,
          errors: x.errors,
          error_rate: Number(x.errorRate.toFixed(4)),
          duration_ms: x.dur,
          ttft_ms: x.ttft,
          ttft_calls: x.ttftCount,
          tokens_in: x.tokensIn,
          tokens_in_calls: x.tokensInCount,
          tokens_out: x.tokensOut,
          tokens_out_calls: x.tokensOutCount,
          tokens_cached: x.tokensCached,
          tokens_cached_calls: x.tokensCachedCount,
          output_tokens_per_sec: x.outputTokensPerSec === null ? null : Number(x.outputTokensPerSec.toFixed(1)),
        })),
      },
    };
  },
});
