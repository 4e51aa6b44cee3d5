import type { Options } from '../config';

/** A CLI command: returns the process exit code. Output goes to stdout; problems to stderr. */
export type Command = (opts: Options) => Promise<number>;

export interface CommandSpec {
  run: Command;
  usage: string;
  summary: string;
}
