import { vi } from 'vitest';
import { TriageModel } from '../triage/model';

/**
 * Spies on TriageModel.step from now on: the event ids each call loaded, in order (0 for a step that found nothing
 * new). Undone by `vi.restoreAllMocks()`.
 */
export function recordTriageSteps(): number[] {
  const step = TriageModel.prototype.step;
  const loaded: number[] = [];
  vi.spyOn(TriageModel.prototype, 'step').mockImplementation(function (this: TriageModel, now: number, maxIds?: number) {
    const before = this.lastId;
    const done = step.call(this, now, maxIds);
    loaded.push(this.lastId - before);
    return done;
  });
  return loaded;
}
