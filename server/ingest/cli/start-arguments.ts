/**
 * A Copilot CLI tool call is two lines (INTEROP §3): `tool.execution_start` with the `arguments`, then
 * `tool.execution_complete` with the result. The tree shows the completion; readers that show the call whole
 * (the event detail, the exports) take its arguments from the start line.
 */
export function startArgumentsOf(line: Record<string, unknown> | null): unknown {
  const d = line?.data;
  return d !== null && typeof d === 'object' && !Array.isArray(d) ? (d as Record<string, unknown>).arguments : undefined;
}
