/**
 * A queue that lets its callers go one per turn of the event loop (each in its own check phase, with a poll for
 * I/O between two of them), in the order they asked. For work that is cheap alone and long in bulk, like writing
 * out a hundred answers that arrived together: health and the stream are read between two of them.
 */
export function onePerTurn(): () => Promise<void> {
  const waiting: (() => void)[] = [];
  let running = false;
  const next = () => {
    waiting.shift()!();
    if (waiting.length > 0) setImmediate(next);
    else running = false;
  };
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (running) return;
      running = true;
      setImmediate(next);
    });
}
