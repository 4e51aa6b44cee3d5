// Companion files in a session folder (FORMAT §2.2): models.json, system_prompt_N.json, tools_N.json.
// They are not *.jsonl, so they do not count toward targetBytes; contents are small and mostly shared.
import fs from 'node:fs';
import path from 'node:path';
import { otelCap } from './entry';

export const CHAT_MODELS = ['gpt-4.1', 'claude-sonnet-4', 'gpt-5-mini', 'o4-mini'] as const;
export type ChatModel = (typeof CHAT_MODELS)[number];
/** Model the housekeeping children (title, categorization, summarize) use. */
export const UTILITY_MODEL = 'gpt-4o-mini';

interface ModelInfo {
  id: string;
  vendor: string;
  name: string;
  family: string;
  maxPrompt: number;
  maxOutput: number;
  premium: boolean;
  thinking: boolean;
}

const MODEL_INFO: ModelInfo[] = [
  { id: 'gpt-4.1', vendor: 'Azure OpenAI', name: 'GPT-4.1', family: 'gpt-4.1', maxPrompt: 111616, maxOutput: 16384, premium: false, thinking: false },
  { id: 'claude-sonnet-4', vendor: 'Anthropic', name: 'Claude Sonnet 4', family: 'claude-sonnet-4', maxPrompt: 111836, maxOutput: 16000, premium: true, thinking: true },
  { id: 'gpt-5-mini', vendor: 'Azure OpenAI', name: 'GPT-5 mini', family: 'gpt-5-mini', maxPrompt: 127988, maxOutput: 64000, premium: false, thinking: true },
  { id: 'o4-mini', vendor: 'Azure OpenAI', name: 'o4-mini (Preview)', family: 'o4-mini', maxPrompt: 127988, maxOutput: 65536, premium: true, thinking: true },
  { id: 'gpt-4o-mini', vendor: 'Azure OpenAI', name: 'GPT-4o mini', family: 'gpt-4o-mini', maxPrompt: 12288, maxOutput: 4096, premium: false, thinking: false },
  { id: 'text-embedding-3-small', vendor: 'Azure OpenAI', name: 'Embedding V3 small', family: 'text-embedding-3-small', maxPrompt: 8191, maxOutput: 0, premium: false, thinking: false },
];

export function maxOutputTokens(model: string): number {
  return MODEL_INFO.find((m) => m.id === model)?.maxOutput ?? 16384;
}

function modelObject(m: ModelInfo, isDefault: boolean): object {
  const embeddings = m.maxOutput === 0;
  return {
    id: m.id,
    vendor: m.vendor,
    name: m.name,
    version: `${m.id}-2026-04-14`,
    model_picker_enabled: !embeddings && m.id !== 'gpt-4o-mini',
    preview: m.id === 'o4-mini' ? true : undefined,
    is_chat_default: isDefault,
    is_chat_fallback: m.id === 'gpt-4.1',
    billing: embeddings ? undefined : { is_premium: m.premium, multiplier: m.premium ? 1 : 0 },
    capabilities: {
      type: embeddings ? 'embeddings' : 'chat',
      family: m.family,
      tokenizer: 'o200k_base',
      limits: embeddings
        ? { max_prompt_tokens: m.maxPrompt }
        : { max_prompt_tokens: m.maxPrompt, max_output_tokens: m.maxOutput, max_context_window_tokens: m.maxPrompt + m.maxOutput, vision: { max_prompt_images: 1 } },
      supports: embeddings
        ? {}
        : { tool_calls: true, parallel_tool_calls: true, streaming: true, vision: true, thinking: m.thinking, reasoning_effort: m.thinking ? ['low', 'medium', 'high'] : undefined },
    },
    supported_endpoints: embeddings ? undefined : ['/chat/completions'],
  };
}

// Two catalogue snapshots: the model list changes across VS Code runs, so not every session shows the same one.
const MODELS_JSON = [0, 1].map((variant) =>
  JSON.stringify(
    MODEL_INFO.filter((m) => variant === 1 || m.id !== 'o4-mini').map((m) => modelObject(m, m.id === (variant ? 'gpt-5-mini' : 'gpt-4.1'))),
    null,
    2,
  ),
);

export function writeModelsJson(dir: string, variant: number): void {
  fs.writeFileSync(path.join(dir, 'models.json'), MODELS_JSON[variant % MODELS_JSON.length]);
}

const PROMPT_PARAGRAPHS = [
  'You are an expert AI programming assistant, working with a user in the VS Code editor.',
  'When asked for your name, you must respond with "GitHub Copilot". Follow the user\'s requirements carefully & to the letter.',
  'Keep your answers short and impersonal. Use tools to gather context instead of guessing; prefer reading files over asking the user.',
  'When editing files, make the smallest change that solves the problem and keep the existing style. Never print a code block with file changes unless the user asked for it; use the edit tools instead.',
  'If a command fails, read the error, fix the cause and try again at most twice. Run tests after changes when a test command is known.',
  '<instructions>\nFollow the repository instructions in .github/copilot-instructions.md. 日志必须落盘后才能返回成功。\n</instructions>',
  '<environment_info>\nThe user\'s current OS is: Linux. The user\'s default shell is: "bash".\n</environment_info>',
];

/** A system prompt whose length depends on the model, so a model switch creates a new system_prompt_N file. */
export function systemPromptText(model: string, variant: number): string {
  const reps = 3 + ((model.length + variant) % 4);
  let s = `You are using the model ${model}.\n\n`;
  for (let r = 0; r < reps; r++) s += PROMPT_PARAGRAPHS.join('\n\n') + '\n\n';
  return s;
}

const TOOL_DESCRIPTIONS: Record<string, string> = {
  read_file: 'Read the contents of a file. Line numbers are 1-indexed.',
  replace_string_in_file: 'Replace an exact string in a file with a new string.',
  multi_replace_string_in_file: 'Apply several string replacements across files in one call.',
  create_file: 'Create a new file with the given content.',
  apply_patch: 'Edit files by applying a patch in the V4A diff format.',
  list_dir: 'List the contents of a directory.',
  file_search: 'Search for files by glob pattern.',
  grep_search: 'Do a fast text search in the workspace.',
  run_in_terminal: 'Run a shell command in a persistent terminal session.',
  get_errors: 'Get compile or lint errors in a file.',
  manage_todo_list: 'Manage a structured todo list to track progress.',
  fetch_webpage: 'Fetch the main content of a web page.',
  runSubagent: 'Launch a subagent to handle a complex, multi-step task autonomously.',
  search_subagent: 'Launch a search subagent that explores the codebase and reports findings.',
  mcp_github_get_pull_request: 'Get details of a pull request in a GitHub repository.',
  mcp_github_get_issue: 'Get details of an issue in a GitHub repository.',
  mcp_github_get_commit: 'Get details of a commit in a GitHub repository.',
};

/**
 * The `content` string of tools_N.json: itself JSON text (parse twice). `extraMcpTools` simulates a large MCP
 * server; with enough of them the inner text is OTel-capped and no longer parses (FORMAT §7.4).
 */
export function toolsContent(extraMcpTools: number): string {
  const tools: { type: string; name: string; description: string }[] = Object.entries(TOOL_DESCRIPTIONS).map(([name, description]) => ({
    type: 'function',
    name,
    description,
  }));
  for (let i = 0; i < extraMcpTools; i++) {
    tools.push({
      type: 'function',
      name: `mcp_atlassian_tool_${i}`,
      description: `Tool ${i} of the Atlassian MCP server. Searches, reads and updates Jira issues and Confluence pages; supports JQL and CQL filters, pagination, field selection and bulk operations. `.repeat(3),
    });
  }
  return otelCap(JSON.stringify(tools));
}

export function writeContentFile(dir: string, name: string, content: string): void {
  fs.writeFileSync(path.join(dir, name), JSON.stringify({ content }, null, 2));
}
