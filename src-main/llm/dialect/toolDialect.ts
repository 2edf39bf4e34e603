/**
 * A model family's own way of being spoken to: the prompt text its chat template renders, the grammar of the calls
 * it writes, and how those calls read back. Qwen3 writes a call as JSON; Qwen3.5 (and BotPsy) as one element per
 * parameter. A model whose template is neither goes through node-llama-cpp's chat wrappers as before.
 */
import type { EngineTool } from '../engineTypes.js';
import type { WrittenValue } from '../writtenJson.js';
import type { TemplateContext, TemplateToolCall } from './templateTypes.js';

export const CALL_OPEN = '<tool_call>';
export const CALL_CLOSE = '</tool_call>';
export const THINK_OPEN = '<think>';
export const THINK_CLOSE = '</think>';

export type DialectName = 'qwen3' | 'qwen3.5';

/** A call the model wrote, read back: its arguments as written (numbers keep their literal). */
export interface ParsedCall {
  readonly name: string;
  readonly arguments: { readonly [key: string]: WrittenValue };
}

export interface ToolDialect {
  readonly name: DialectName;
  /** Whether the template opens a thought when `enable_thinking` is not given. */
  readonly thinksByDefault: boolean;
  /** The template's rendering of `context`, character for character. */
  render(context: TemplateContext): string;
  /** GBNF of what follows a call's opening tag, up to and including its closing tag, naming only `tools`. */
  callGrammar(tools: readonly EngineTool[]): string;
  /** Reads what follows the opening tag (closing tag included); throws a sentence on text that is not a call. */
  parseCall(text: string, tools: readonly EngineTool[]): ParsedCall;
  /** What the template writes after the opening tag for a call (tests script calls with it). */
  callBody(call: TemplateToolCall): string;
}

/** Python's `str.strip()` whitespace (a template's `|trim`), which is not quite JavaScript's. */
const PY_SPACE = '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const LEADING = new RegExp(`^[${PY_SPACE}]+`);
const TRAILING = new RegExp(`[${PY_SPACE}]+$`);

export function pyStrip(text: string): string {
  return text.replace(LEADING, '').replace(TRAILING, '');
}

/** Python's `s.strip('\n')` family: only newlines. */
export const lstripNewlines = (text: string): string => text.replace(/^\n+/, '');
export const rstripNewlines = (text: string): string => text.replace(/\n+$/, '');

/** The reasoning and the answer of an assistant turn, as both Qwen templates split them. */
export function splitThought(
  content: string,
  reasoning: string | undefined,
): { readonly content: string; readonly reasoning: string } {
  if (typeof reasoning === 'string') return { content, reasoning };
  if (!content.includes(THINK_CLOSE)) return { content, reasoning: '' };
  const parts = content.split(THINK_CLOSE);
  return {
    reasoning: lstripNewlines(rstripNewlines(parts[0]!).split(THINK_OPEN).pop()!),
    content: lstripNewlines(parts[parts.length - 1]!),
  };
}

/** The index of the user's latest real message (not a tool response), as both templates find it; -1: none. */
export function lastQueryIndex(context: TemplateContext, trim: (text: string) => string): number {
  for (let i = context.messages.length - 1; i >= 0; i--) {
    const message = context.messages[i]!;
    if (message.role !== 'user') continue;
    const content = trim(message.content);
    if (!(content.startsWith('<tool_response>') && content.endsWith('</tool_response>'))) return i;
  }
  return -1;
}

export function toolsForTemplate(tools: readonly EngineTool[]) {
  return tools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/**
 * The control tokens a Qwen prompt is built of. The prompt is tokenized with them parsed, so text someone else wrote
 * (a tool's result, a mail, the user's own message) must not spell one: `<|im_end|><|im_start|>system` in a file would
 * otherwise close the turn and open a system turn of its own. Such text keeps its letters with a zero-width space
 * after the `<`, so it reads the same and tokenizes as plain text.
 */
const CONTROL_TOKENS =
  /<(\|im_start\||\|im_end\||\|endoftext\||\/?tool_call>|\/?tool_response>|\/?think>|\/?tools>|\/?function[=>]|\/?parameter[=>])/g;

export function asPlainText(text: string): string {
  return text.replace(CONTROL_TOKENS, '<\u200b$1');
}
