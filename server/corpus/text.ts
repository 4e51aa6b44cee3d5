// Vocabulary for realistic log text: English prose, Chinese, Japanese and Korean sentences, code identifiers and
// repository paths, so search can be tested on what developers actually type ("落盘", "wsReconnectLoop").
// Templates are functions over an Rng: cheaper than string replace and trivially deterministic.
import type { Rng } from './random';

export type Lang = 'en' | 'zh' | 'ja' | 'ko';

/** Identifiers that occur throughout the corpus (manifest.notable.identifiers). */
export const IDENTIFIERS = [
  'wsReconnectLoop',
  'parseDate',
  'flushPendingWrites',
  'retryWithBackoff',
  'createSessionStore',
  'normalizeEntry',
  'useSessionQuery',
  'buildSpanTree',
  'tailFile',
  'readChunk',
  'computeLatencyP95',
  'resolveWorkspaceId',
  'debounceSave',
  'LruCache',
  'HttpClient',
  'TokenBucket',
  'parseConfigFile',
  'handleWebhook',
  'scheduleRetry',
  'serializeCursor',
  'formatDuration',
  'validateSchema',
  'openDatabase',
  'migrateSchema',
  'renderTimeline',
  'fetchPullRequest',
  'onDidChangeFile',
  'getRepositoryRoot',
] as const;

/** CJK words guaranteed to appear many times (manifest.notable.cjkWords). */
export const CJK_WORDS = ['落盘', '日志', '盘', '重试', 'ログ', '再試行', '재시도', '로그'] as const;

/**
 * Words that appear nowhere in the vocabulary: each is planted in exactly one top-level session folder so a
 * search test knows the single right answer (manifest.notable.rareWords).
 */
export const RARE_WORDS = ['quokkaflux', 'zephyrlattice', 'marmalith', 'vortexgrain', '蜂鸟缓存', 'kelpwright'] as const;

export const REPO_FILES = [
  'src/net/ws.ts',
  'src/net/http-client.ts',
  'src/util/date.ts',
  'src/util/retry.ts',
  'src/util/lru-cache.ts',
  'src/store/session-store.ts',
  'src/store/migrations.ts',
  'src/ingest/tail.ts',
  'src/ingest/normalize.ts',
  'src/api/routes.ts',
  'src/api/webhooks.ts',
  'src/ui/Timeline.tsx',
  'src/ui/SessionList.tsx',
  'src/config.ts',
  'src/index.ts',
  'test/date.test.ts',
  'test/retry.test.ts',
  'test/ws.test.ts',
  'package.json',
  'tsconfig.json',
  'README.md',
  'docs/architecture.md',
  '.github/workflows/ci.yml',
] as const;

const ERRORS = [
  "TypeError: Cannot read properties of undefined (reading 'length')",
  'Error: ECONNRESET while reading from socket',
  'RangeError: Invalid time value',
  'SqliteError: database is locked',
  'AssertionError: expected 3 to equal 2',
  "error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
  'Error: write EPIPE',
  'UnhandledPromiseRejection: timeout of 30000ms exceeded',
] as const;

export function identifier(rng: Rng): string {
  return rng.pick(IDENTIFIERS);
}

export function repoFile(rng: Rng): string {
  return rng.pick(REPO_FILES);
}

export function errorText(rng: Rng): string {
  return rng.pick(ERRORS);
}

type Template = (rng: Rng) => string;
const id = identifier;
const file = repoFile;

const USER_PROMPTS: Record<Lang, Template[]> = {
  en: [
    (r) => `Fix the retry logic in ${id(r)} so it backs off after ${r.int(2, 6)} failures.`,
    (r) => `Why does ${file(r)} throw when ${id(r)} returns null?`,
    (r) => `Add a unit test for ${id(r)} covering the empty-input case.`,
    (r) => `Refactor ${id(r)} to use async/await instead of callbacks.`,
    (r) => `The build fails on CI with "${errorText(r)}". Can you take a look?`,
    (r) => `Rename ${id(r)} to something clearer and update all call sites.`,
    (r) => `Explain how ${id(r)} interacts with ${id(r)} in ${file(r)}.`,
    (r) => `Make ${id(r)} handle timezones correctly; parseDate drops the offset.`,
    (r) => `Open a PR with these changes and link issue #${r.int(10, 400)}.`,
    (r) => `Commit this with a good message.`,
    (r) => `Can you check why wsReconnectLoop spins at 100% CPU after the server restarts?`,
    (r) => `Write docs for ${id(r)} in docs/architecture.md.`,
    (r) => `Review ${file(r)} for race conditions around ${id(r)}.`,
    (r) => `Speed up ${id(r)}; it takes ${r.int(2, 40)} seconds on large inputs.`,
  ],
  zh: [
    (r) => `日志落盘太慢了，帮我看看${id(r)}的实现。`,
    (r) => `重试${r.int(2, 5)}次以后还是失败，${file(r)}里面的逻辑有问题。`,
    () => `磁盘满了以后日志无法落盘，需要加一个降级策略。`,
    (r) => `请把${id(r)}改成支持重试，并且把错误写进日志。`,
    (r) => `这个盘的读写延迟很高，先在${id(r)}里加一些日志。`,
    (r) => `帮我给${id(r)}写单元测试，覆盖空输入的情况。`,
    (r) => `为什么${file(r)}在重启后会丢日志？`,
  ],
  ja: [
    (r) => `${id(r)}のリトライ処理を見直してください。`,
    () => `ログが重複して出力される原因を調べてほしいです。`,
    (r) => `このテストは時々失敗します。${id(r)}の再試行の間隔を延ばせますか？`,
    (r) => `${file(r)}のエラー処理を整理して、ログを分かりやすくしてください。`,
    () => `日志フォルダに出力されたファイルが大きすぎます。`,
  ],
  ko: [
    (r) => `${id(r)} 함수에 재시도 로직을 추가해 주세요.`,
    () => `로그 파일이 너무 커서 읽기가 어렵습니다.`,
    (r) => `${file(r)}에서 타임아웃이 발생하는 원인을 찾아 주세요.`,
    (r) => `${id(r)} 테스트가 가끔 실패합니다. 재시도 간격을 늘려 주세요.`,
  ],
};

const ASSISTANT_LINES: Record<Lang, Template[]> = {
  en: [
    (r) => `I'll start by reading ${file(r)} to understand how ${id(r)} works.`,
    (r) => `The failure comes from ${id(r)}: it never resets the backoff counter after a success.`,
    (r) => `I updated ${file(r)} and added a test; all ${r.int(3, 120)} tests pass now.`,
    (r) => `${id(r)} is called from ${r.int(2, 9)} places. I'll update each of them.`,
    (r) => `Let me search for usages of ${id(r)} first.`,
    () => `The retry now waits 250 ms, 500 ms, 1 s and gives up after the fourth attempt.`,
    (r) => `Done. The change is limited to ${file(r)}; nothing else depends on the old behaviour.`,
    (r) => `I couldn't reproduce the error locally, but the stack trace points at ${id(r)}.`,
  ],
  zh: [
    (r) => `已修改${file(r)}，现在失败后会重试并记录日志。`,
    () => `问题在于日志先写缓存再落盘，进程退出时缓存没有刷新。`,
    (r) => `我在${id(r)}里加了重试，最多三次，每次间隔翻倍。`,
  ],
  ja: [
    (r) => `${file(r)}を修正しました。再試行の間隔は指数的に増えます。`,
    () => `ログの重複は二つのリスナーが登録されていたためでした。`,
  ],
  ko: [
    (r) => `${file(r)}을 수정했습니다. 이제 실패하면 재시도합니다.`,
    () => `로그가 중복된 원인은 리스너가 두 번 등록되었기 때문입니다.`,
  ],
};

export function userPrompt(rng: Rng, lang: Lang): string {
  let s = rng.pick(USER_PROMPTS[lang])(rng);
  // Real prompts often mix languages and add context; keep it short so most user_message lines stay small.
  if (rng.chance(0.2)) s += ' ' + rng.pick(USER_PROMPTS[rng.chance(0.7) ? 'en' : lang])(rng);
  if (rng.chance(0.1)) s += ` See ${repoFile(rng)}:${rng.int(1, 400)}.`;
  return s;
}

export function assistantText(rng: Rng, lang: Lang, sentences: number): string {
  let s = '';
  for (let i = 0; i < sentences; i++) {
    const l: Lang = i === 0 || rng.chance(0.8) ? lang : 'en';
    s += (i ? ' ' : '') + rng.pick(ASSISTANT_LINES[l])(rng);
  }
  return s;
}

/** A reply long enough to exceed the 5,000-character attribute cap (FORMAT §7.19). */
export function longAssistantText(rng: Rng, lang: Lang, minChars: number): string {
  let s = '';
  while (s.length < minChars) {
    s += assistantText(rng, lang, 3) + '\n\n```ts\n' + codeSnippet(rng, 6) + '\n```\n\n';
  }
  return s;
}

const CODE_LINES: Template[] = [
  (r) => `export async function ${id(r)}(input: string): Promise<void> {`,
  (r) => `  const result = await ${id(r)}(options);`,
  (r) => `  if (attempt > ${r.int(2, 8)}) throw new Error('gave up after retries');`,
  () => `  for (const entry of entries) {`,
  (r) => `    logger.debug('flushing %d entries', ${r.int(1, 500)});`,
  (r) => `  return ${id(r)}(value, { timeoutMs: ${r.int(1, 60) * 500} });`,
  () => `}`,
  (r) => `import { ${id(r)} } from './${r.pick(['util', 'store', 'net', 'api'])}';`,
  () => `  // 日志先写入缓冲区，定时落盘`,
  (r) => `  const delay = Math.min(${r.int(100, 500)} * 2 ** attempt, 30_000);`,
  () => `  await new Promise((resolve) => setTimeout(resolve, delay));`,
  (r) => `export class ${r.pick(['LruCache', 'HttpClient', 'TokenBucket', 'SessionStore'])} {`,
  () => `  private readonly pending = new Map<string, number>();`,
];

export function codeSnippet(rng: Rng, lines: number): string {
  let s = '';
  for (let i = 0; i < lines; i++) s += (i ? '\n' : '') + rng.pick(CODE_LINES)(rng);
  return s;
}

/** At least `chars` characters of code (whole-file reads, big attachments, large create_file content). */
export function bulkCode(rng: Rng, chars: number): string {
  let s = '';
  while (s.length < chars) s += codeSnippet(rng, 8) + '\n';
  return s;
}

/** A log the user pasted into the chat: the userRequest attribute keeps all of it (FORMAT §3.4). */
export function pastedLog(rng: Rng, chars: number): string {
  let s = '';
  let t = Date.UTC(2026, 9, 3, 9, 14, 22);
  while (s.length < chars) {
    t += rng.int(1, 900);
    const level = rng.weighted([['INFO', 6], ['WARN', 2], ['ERROR', 1]] as const);
    s += `${new Date(t).toISOString()} ${level} [${identifier(rng)}] ${level === 'ERROR' ? errorText(rng) : 'flushed ' + rng.int(1, 500) + ' entries (日志落盘)'}\n`;
  }
  return s;
}

export function commitMessage(rng: Rng): string {
  const kind = rng.pick(['fix', 'feat', 'refactor', 'test', 'docs', 'chore']);
  const what = rng.pick([
    `retry ${id(rng)} with exponential backoff`,
    `handle null in ${id(rng)}`,
    `add tests for ${id(rng)}`,
    `flush logs before exit (日志落盘)`,
    `rename ${id(rng)}`,
    `document ${id(rng)}`,
  ]);
  return `${kind}: ${what}`;
}

export function summaryText(rng: Rng, lang: Lang): string {
  return `Summary of the conversation so far: the user asked about ${id(rng)} in ${repoFile(rng)}. ${assistantText(rng, lang, 2)}`;
}

export function titleText(rng: Rng): string {
  return rng.pick([
    `Fix retry in ${id(rng)}`,
    `Tests for ${id(rng)}`,
    `日志落盘问题`,
    `Refactor ${id(rng)}`,
    `ログの重複`,
    `재시도 로직 추가`,
    `CI failure in ${repoFile(rng)}`,
  ]);
}

export function pickLang(rng: Rng): Lang {
  return rng.weighted<Lang>([
    ['en', 70],
    ['zh', 15],
    ['ja', 8],
    ['ko', 7],
  ]);
}
