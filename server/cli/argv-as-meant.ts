/** What parseArgs needs to know of an option to step over it: whether it takes a value, and its one-letter form. */
export interface OptionShape {
  type: 'string' | 'boolean';
  short?: string;
}

/**
 * argv rewritten into what parseArgs reads the way a person at a prompt meant it, in two cases it refuses:
 * - `chronoscope search retry -flaky`: in a search query `-word` excludes a word (the search box's query language),
 *   but parseArgs reads `-flaky` as the short options -f -l -a -k -y and refuses the first. For `search`, a token
 *   that starts with one "-" and is not one of the short options every command has (`-h`, `-v`, `-o`) is a query
 *   word: it is moved behind `--`, where parseArgs takes it as a positional, so it joins the query after the words
 *   before it (the words are ANDed: their order does not matter), and the options around it stay options. The
 *   only way before was `search -- retry -flaky`, which took every option after `--` into the query too.
 * - `--repo -odd-name`: a value that starts with "-" is "ambiguous" to parseArgs; written as `--repo=-odd-name` it
 *   is the option's value, as the person meant.
 */
export function argvAsMeant(argv: readonly string[], options: Readonly<Record<string, OptionShape>>): string[] {
  const shortOptions = new Map(Object.values(options).flatMap((o) => (o.short ? [[o.short, o] as const] : [])));
  const kept: string[] = [];
  const words: string[] = [];
  let command: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return [...kept, '--', ...words, ...argv.slice(i + 1)];
    if (a.startsWith('--')) {
      const takesValue = !a.includes('=') && options[a.slice(2)]?.type === 'string' && i + 1 < argv.length;
      kept.push(takesValue ? `${a}=${argv[++i]}` : a);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      const short = a.length === 2 ? shortOptions.get(a[1]) : undefined;
      if (command === 'search' && short === undefined) {
        words.push(a);
        continue;
      }
      kept.push(a);
      if (short?.type === 'string' && i + 1 < argv.length) kept.push(argv[++i]);
      continue;
    }
    command ??= a;
    kept.push(a);
  }
  return words.length > 0 ? [...kept, '--', ...words] : kept;
}
