import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { hashSeed, hostileString, PROTOTYPE_NAMES, queryLanguageText, Rng } from '../test-support/hostile-values';
import { cjkPhrase, exclusionExpression, matchExpression, requiredExpression, termRegExp, textMatches, trigramPhrase } from './fts-match';
import { QuerySyntaxError, TYPE_FILTERS, classifyTerm, formatQuery, parseQuery, parseRefValue, type QueryTerm } from './query-parser';

const terms = (q: string) => parseQuery(q).terms.map((t) => `${t.exclude ? '-' : ''}${t.phrase ? 'P' : 'W'}[${t.text}]${t.index === 'cjk' ? 'cjk' : ''}`);
const fails = (q: string) => {
  try {
    parseQuery(q);
  } catch (e) {
    if (e instanceof QuerySyntaxError) return e.message;
    throw e;
  }
  return null;
};

describe('parseQuery: words, phrases, exclusions', () => {
  it('whitespace separates required words', () => {
    expect(terms('retry  backoff\tloop')).toEqual(['W[retry]', 'W[backoff]', 'W[loop]']);
  });

  it('empty and blank input give no terms', () => {
    expect(parseQuery('').terms).toEqual([]);
    expect(parseQuery('   \n ').terms).toEqual([]);
    expect(parseQuery('""').terms).toEqual([]);
  });

  it('a quoted phrase is one term, its whitespace folded like the index (line breaks included)', () => {
    expect(terms('"retry   with\nbackoff" loop')).toEqual(['P[retry with backoff]', 'W[loop]']);
    expect(terms('"  padded  "')).toEqual(['P[padded]']);
  });

  it('a doubled quote inside a phrase is a literal quote', () => {
    expect(terms('"say ""hi"""')).toEqual(['P[say "hi"]']);
  });

  it('an unbalanced quote is a literal character', () => {
    expect(terms('"retry with')).toEqual(['W["retry]', 'W[with]']);
    expect(terms('say "hi')).toEqual(['W[say]', 'W["hi]']);
    expect(terms('a"b"c')).toEqual(['W[a"b"c]']);
  });

  it('a quote only opens a phrase at the start of a word; a phrase ends at its closing quote', () => {
    expect(terms('x="foo"')).toEqual(['W[x="foo"]']);
    expect(terms('"foo"bar')).toEqual(['P[foo]', 'W[bar]']);
  });

  it('-word and -"phrase" exclude; a lone - and --flags are literal', () => {
    expect(terms('retry -test -"unit test"')).toEqual(['W[retry]', '-W[test]', '-P[unit test]']);
    expect(terms('npm --watch')).toEqual(['W[npm]', 'W[--watch]']);
    expect(fails('retry -')).toMatch(/too short/);
  });

  it('AND, OR and NOT are words, not operators', () => {
    expect(terms('retry AND backoff NOT loop')).toEqual(['W[retry]', 'W[AND]', 'W[backoff]', 'W[NOT]', 'W[loop]']);
    expect(fails('retry OR backoff')).toMatch(/not an operator here/);
    expect(terms('"retry OR backoff"')).toEqual(['P[retry OR backoff]']);
  });

  it('FTS5 metacharacters are literal text', () => {
    expect(terms('foo.bar( a*b* NEAR(x) ^start col:val')).toEqual(['W[foo.bar(]', 'W[a*b*]', 'W[NEAR(x)]', 'W[^start]', 'W[col:val]']);
    expect(terms('C:\\Users\\me http://localhost:8080')).toEqual(['W[C:\\Users\\me]', 'W[http://localhost:8080]']);
  });
});

describe('parseQuery: short terms and CJK', () => {
  it('1 and 2 character CJK terms use the per-character index; 3+ use trigrams', () => {
    expect(terms('盘 落盘 落盘了')).toEqual(['W[盘]cjk', 'W[落盘]cjk', 'W[落盘了]']);
    expect(terms('ログ 재시도 日')).toEqual(['W[ログ]cjk', 'W[재시도]', 'W[日]cjk']);
  });

  it('mixed scripts: 3+ characters are fine, a 1–2 character mix is too short', () => {
    expect(terms('API调用 日志abc')).toEqual(['W[API调用]', 'W[日志abc]']);
    expect(fails('a落')).toMatch(/"a落" is too short/);
  });

  it('1–2 character non-CJK words are refused with what to do instead', () => {
    expect(fails('io')).toMatch(/"io" is too short: words need at least 3 characters \(1 or 2 are enough in Chinese, Japanese or Korean\)/);
    expect(fails('*')).toMatch(/too short/);
    expect(fails('"')).toMatch(/too short/);
    expect(fails('-ab retry')).toMatch(/"-ab" is too short/);
    expect(terms('"io bound"')).toEqual(['P[io bound]']);
  });

  it('classifyTerm counts code points, not UTF-16 units', () => {
    expect(classifyTerm('😀😀')).toBeNull();
    expect(classifyTerm('😀😀😀')).toBe('trigram');
    expect(classifyTerm('𠀋')).toBe('cjk'); // a CJK Extension B character (a surrogate pair)
  });
});

describe('parseQuery: filters', () => {
  it('reads every filter, case-insensitive keys, comma lists and quoted values', () => {
    const q = parseQuery('retry repo:acme/api Branch:main type:tool,user tool:run_in status:error model:gpt-4 file:"src/a b.ts" ref:pr#12');
    expect(q.terms.map((t) => t.text)).toEqual(['retry']);
    expect(q.repo).toEqual(['acme/api']);
    expect(q.branch).toEqual(['main']);
    expect(q.type).toEqual(['tool', 'user']);
    expect(q.tool).toEqual(['run_in']);
    expect(q.status).toEqual(['error']);
    expect(q.model).toEqual(['gpt-4']);
    expect(q.file).toEqual(['src/a b.ts']);
    expect(q.ref).toEqual([{ type: 'pr', value: '12' }]);
  });

  it('an unknown key is literal text', () => {
    expect(terms('foo:bar')).toEqual(['W[foo:bar]']);
    expect(parseQuery('foo:bar').repo).toEqual([]);
  });

  it('bad filter values say what to fix', () => {
    expect(fails('retry type:tools')).toBe('type:tools is not a type: use one of user, response, tool, llm, error, discovery, hook, subagent.');
    expect(fails('retry status:failed')).toMatch(/use status:error or status:ok/);
    expect(fails('retry repo:')).toBe('repo: needs a value, e.g. repo:acme/api.');
    expect(fails('retry -repo:x')).toMatch(/filters cannot be excluded/);
  });

  it('ref values: numbers, #n, typed, shas and GitHub URLs', () => {
    expect(parseRefValue('#42')).toEqual({ type: null, value: '42' });
    expect(parseRefValue('issue/7')).toEqual({ type: 'issue', value: '7' });
    expect(parseRefValue('commit:3f2a9c1')).toEqual({ type: 'commit', value: '3f2a9c1' });
    expect(parseRefValue('https://github.com/acme/api/pull/1234')).toEqual({ type: 'pr', value: '1234' });
    expect(parseRefValue('3f2a9c1')).toEqual({ type: null, value: '3f2a9c1' });
  });

  it('formatQuery writes the query back', () => {
    expect(formatQuery(parseQuery('retry  "with  backoff" -test repo:"my project" ref:pr#3'))).toBe('retry "with backoff" -test repo:"my project" ref:pr#3');
  });
});

describe('FTS5 escaping', () => {
  const t = (text: string, exclude = false, index: QueryTerm['index'] = 'trigram'): QueryTerm => ({ text, exclude, phrase: false, index });

  it('every term is one FTS5 string with embedded quotes doubled', () => {
    expect(trigramPhrase('say "hi"')).toBe('"say ""hi"""');
    expect(trigramPhrase('a*b OR c:d')).toBe('"a*b OR c:d"');
    expect(cjkPhrase('落盘')).toBe('"落 盘"');
    expect(cjkPhrase('盘')).toBe('"盘"');
  });

  it('required terms are AND-ed, exclusions NOT-ed, per index', () => {
    expect(matchExpression([t('retry'), t('loop'), t('test', true), t('盘', false, 'cjk')], 'trigram')).toBe('("retry" AND "loop") NOT ("test")');
    expect(matchExpression([t('retry'), t('盘', false, 'cjk')], 'cjk')).toBe('"盘"');
    expect(matchExpression([t('test', true)], 'trigram')).toBeNull();
  });

  it('termRegExp and textMatches treat the term literally and case-insensitively', () => {
    expect(termRegExp('foo.bar(').test('x FOO.BAR( y')).toBe(true);
    expect(termRegExp('foo.bar(').test('fooXbar(')).toBe(false);
    expect(textMatches('Retry with backoff', [t('retry'), t('test', true)])).toBe(true);
    expect(textMatches('retry test', [t('retry'), t('test', true)])).toBe(false);
    expect(termRegExp('a-b/c').test('A-B/C')).toBe(true);
  });
});

describe('fuzz: the query language over hostile text (seeded)', () => {
  // An in-memory copy of the two event indexes: every expression the parser lets through must be one FTS5 accepts.
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE event_text USING fts5 (text, tokenize = 'trigram'); CREATE VIRTUAL TABLE event_cjk USING fts5 (text, tokenize = 'unicode61')");
  db.prepare('INSERT INTO event_text (text) VALUES (?)').run('retry loop 落盘 __proto__ constructor');
  db.prepare('INSERT INTO event_cjk (text) VALUES (?)').run('落 盘');
  const matchOn = { trigram: db.prepare('SELECT count(*) FROM event_text WHERE event_text MATCH ?').pluck(), cjk: db.prepare('SELECT count(*) FROM event_cjk WHERE event_cjk MATCH ?').pluck() };

  it('parses or refuses with a QuerySyntaxError, never anything else; what it accepts FTS5 runs and formatQuery gives back', () => {
    const rng = new Rng(hashSeed('query-language-fuzz'));
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < 3000; i++) {
      const input = i % 2 === 0 ? queryLanguageText(rng) : hostileString(rng);
      let q: ReturnType<typeof parseQuery>;
      try {
        q = parseQuery(input);
      } catch (e) {
        expect(e, JSON.stringify(input)).toBeInstanceOf(QuerySyntaxError);
        expect((e as Error).message.length, JSON.stringify(input)).toBeGreaterThan(10);
        refused++;
        continue;
      }
      accepted++;
      for (const t of q.type) expect(Object.hasOwn(TYPE_FILTERS, t), JSON.stringify(input)).toBe(true);
      for (const index of ['trigram', 'cjk'] as const) {
        for (const expr of [matchExpression(q.terms, index), exclusionExpression(q.terms, index), requiredExpression(q.terms, index)]) {
          if (expr !== null) expect(() => matchOn[index].get(expr), `${JSON.stringify(input)} → ${expr}`).not.toThrow();
        }
      }
      // the page title and the CLI header write the query back: it must read as the same query
      expect(parseQuery(formatQuery(q)), JSON.stringify(input)).toEqual(q);
    }
    // both sides were exercised (the generator is not all refusals)
    expect(accepted).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(300);
  });

  it('refuses a NUL anywhere, and the prototype names as types', () => {
    for (const q of ['retry\u0000', '"a\u0000bc"', 'file:x\u0000y retry', '\u0000']) expect(fails(q), JSON.stringify(q)).toBe('A NUL character (\\u0000) cannot be searched for: remove it.');
    for (const name of PROTOTYPE_NAMES) expect(fails(`retry type:${name}`)).toMatch(new RegExp(`^type:${name} is not a type: use one of user, response,`));
  });
});
