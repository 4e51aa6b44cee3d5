import type { Options } from '../config';

// Owned by the feature that answers `chronoscope trace`; registered in server/cli/commands.ts.
export async function runTrace(_opts: Options): Promise<number> {
  process.stderr.write('chronoscope trace: not available yet\n');
  return 2;
}
