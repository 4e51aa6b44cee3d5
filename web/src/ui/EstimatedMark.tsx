/**
 * Beside a usage figure that is a CLI session's totals split over its calls (`estimated: true`): the CLI writes
 * input, cache and credits only as session totals (INTEROP §3), so any per-call or per-day share is a guess.
 */
export function EstimatedMark({ estimated, compact = false }: { estimated?: boolean; compact?: boolean }) {
  if (!estimated) return null;
  // `compact`: "est." in a narrow column (a virtualised row of fixed height); read aloud as the whole word
  return (
    <span
      className="estimated-mark"
      title="Estimated: a Copilot CLI session's totals split over its calls; the CLI writes no per-call input, cache or credit numbers"
      aria-label={compact ? 'estimated' : undefined}
    >
      {compact ? 'est.' : 'estimated'}
    </span>
  );
}
