import { meantName } from '../../shared/nearest-name';

/**
 * parseArgs' refusal, said as what to fix. Its own words suit a script's author, not a person at a prompt:
 * "Unknown option '--minimum'. To specify a positional argument starting with a '-', place it at the end of the
 * command after '--', as in '-- "--minimum"" is now "unknown option --minimum: did you mean --min?" (an option
 * within two edits, or one the written name starts with or is the start of); "Option '--db <value>' argument
 * missing" is "--db needs a value"; a cluster of short options is named as written (`-flaky`, not `-f`). Any other
 * error keeps its message.
 */
export function optionErrorText(err: unknown, argv: readonly string[], optionNames: readonly string[]): string {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const written = /^Unknown option '([^']+)'/.exec(message)?.[1];
    if (written === undefined) return message;
    // `-flaky` is refused as its first letter, `-f`: named as written
    if (!written.startsWith('--')) return `unknown option ${argv.find((a) => !a.startsWith('--') && a.startsWith(written)) ?? written}`;
    const meant = meantName(written.slice(2), optionNames);
    return meant === null ? `unknown option ${written}` : `unknown option ${written}: did you mean --${meant}?`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const missing = /^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(message);
    if (missing) return `${missing[1]} needs a value`;
    const extra = /^Option '(?:-\w, )?(--[\w-]+)' does not take an argument/.exec(message);
    if (extra) return `${extra[1]} takes no value`;
  }
  return message;
}
