// The time windows a list can be narrowed by, and their lengths: apart from the HTTP contract (shared/api/common.ts
// makes the schema of them) so that the ingest worker, which keeps the triage model's windows, loads without zod.

export const TIME_WINDOWS = ['24h', '7d', '30d', '90d', 'all'] as const;
export type TimeWindow = (typeof TIME_WINDOWS)[number];

/** A window in words, the same on the pages and the command line: "last 7 days", "all time". */
export const WINDOW_WORDS: Record<TimeWindow, string> = {
  '24h': 'last 24 hours',
  '7d': 'last 7 days',
  '30d': 'last 30 days',
  '90d': 'last 90 days',
  all: 'all time',
};

export const WINDOW_MS: Record<TimeWindow, number | null> = {
  '24h': 24 * 3600_000,
  '7d': 7 * 24 * 3600_000,
  '30d': 30 * 24 * 3600_000,
  '90d': 90 * 24 * 3600_000,
  all: null,
};
