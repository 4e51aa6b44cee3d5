import type { Options } from '../config';

// Owned by the feature that answers `chronoscope stats`; registered in server/cli/commands.ts.
export async function runStats(_opts: Options): Promise<number> {
  process.stderr.write('chronoscope stats: not available yet\n');
  return 2;
}
