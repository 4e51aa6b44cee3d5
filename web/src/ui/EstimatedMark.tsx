/**
 * Beside a usage figure that is a CLI session's totals split over its calls (`estimated: true`): the CLI writes
 * input, cache and credits only as session totals (INTEROP §3), so any per-call or per-day share is a guess.
 */
export function EstimatedMark({ estimated }: { estimated?: boolean }) {
  if (!estimated) return null;
  return (
    <span className="estimated-mark" title="Estimated: a Copilot CLI session's totals split over its calls; the CLI writes no per-call input, cache or credit numbers">
      estimated
    </span>
  );
}
