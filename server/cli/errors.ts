import type { Options } from '../config';

// Owned by the feature that answers `chronoscope errors`; registered in server/cli/commands.ts.
export async function runErrors(_opts: Options): Promise<number> {
  process.stderr.write('chronoscope errors: not available yet\n');
  return 2;
}
