import type { Options } from '../config';

// Owned by the feature that answers `chronoscope slow`; registered in server/cli/commands.ts.
export async function runSlow(_opts: Options): Promise<number> {
  process.stderr.write('chronoscope slow: not available yet\n');
  return 2;
}
