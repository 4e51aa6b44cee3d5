import type { Options } from '../config';

// Owned by the feature that answers `chronoscope search`; registered in server/cli/commands.ts.
export async function runSearch(_opts: Options): Promise<number> {
  process.stderr.write('chronoscope search: not available yet\n');
  return 2;
}
