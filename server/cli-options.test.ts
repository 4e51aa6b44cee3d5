import { describe, expect, it } from 'vitest';
import { parseOptions, UsageError } from './config';

const usageError = (argv: string[]): string => {
  try {
    parseOptions(argv);
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
  throw new Error(`${argv.join(' ')} parsed`);
};

describe('a search query word that starts with "-" (an excluded word) needs no --', () => {
  // `chronoscope search retry -flaky` said "Unknown option '-f'" (parseArgs read -flaky as -f -l -a -k -y), and
  // `search -- retry -flaky --window 7d` took --window 7d into the query.
  it('is a query word, wherever it stands, and the options around it stay options', () => {
    const o = parseOptions(['search', 'retry', '-flaky', '--window', '7d']);
    expect(o.command).toBe('search');
    expect(o.positionals).toEqual(['retry', '-flaky']);
    expect(o.flags.window).toBe('7d');
    const first = parseOptions(['--db', 'x.db', 'search', '-flaky', 'retry', '--json']);
    expect(first.positionals).toEqual(['retry', '-flaky']);
    expect(first.db).toBe('x.db');
    expect(first.json).toBe(true);
  });
  it('keeps the short options every command has, and what follows -- as it is', () => {
    expect(parseOptions(['search', 'retry', '-h']).command).toBe('help');
    expect(parseOptions(['search', '-x', '--', 'a', '-b']).positionals).toEqual(['-x', 'a', '-b']);
    expect(parseOptions(['search', '--repo', '-odd-name', 'retry']).flags.repo).toBe('-odd-name');
  });
  it('is still an unknown option to any other command', () => {
    expect(usageError(['errors', '-flaky'])).toBe('unknown option -flaky');
  });
});

describe('an option the command line does not know says what was meant', () => {
  it.each([
    [['slow', '--minimum', '5000'], 'unknown option --minimum: did you mean --min?'],
    [['search', 'retry', '--windw', '7d'], 'unknown option --windw: did you mean --window?'],
    [['search', 'retry', '--colour'], 'unknown option --colour'],
    [['serve', '--db'], '--db needs a value'],
    [['search', 'x', '--json=yes'], '--json takes no value'],
  ])('%j', (argv, message) => {
    expect(usageError(argv)).toBe(message);
  });
});

describe('--version', () => {
  it('is its own command, long or short', () => {
    expect(parseOptions(['--version']).command).toBe('version');
    expect(parseOptions(['-v']).command).toBe('version');
    expect(parseOptions(['search', 'x', '--help', '--version']).command).toBe('help');
  });
});
