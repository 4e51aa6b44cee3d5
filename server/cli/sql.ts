import type { Options } from '../config';

// Owned by the feature that answers `chronoscope sql`; registered in server/cli/commands.ts.
export async function runSql(_opts: Options): Promise<number> {
  process.stderr.write('chronoscope sql: not available yet\n');
  return 2;
}
