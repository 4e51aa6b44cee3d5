/**
 * Runs `fn` at once, then at most once per `ms`: calls inside the window collapse into one trailing call at
 * its end, so the last change is never lost.
 */
export function throttleTrailing(fn: () => void, ms: number, now: () => number = Date.now) {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = () => {
    timer = null;
    last = now();
    fn();
  };
  const throttled = () => {
    if (timer !== null) return;
    const wait = last + ms - now();
    if (wait <= 0) run();
    else timer = setTimeout(run, wait);
  };
  throttled.cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  return throttled;
}
