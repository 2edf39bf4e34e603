/**
 * Qwen3's dialect: tools as JSON lines in `<tools>` after the system prompt, a call as
 * `<tool_call>\n{"name": "NAME", "arguments": {JSON}}\n</tool_call>`, results in `<tool_response>` inside a user turn,
 * thoughts opened by the model itself. `render` follows Qwen3's chat template line by line
 * (src-main/llm/chatTemplates/qwen3.jinja).
 */
import type { EngineTool } from '../engineTypes.js';
import { parseWrittenJson, type WrittenValue } from '../writtenJson.js';
import { pyJson } from './pythonValues.js';
import { GrammarRules, gbnfLiteral, jsonValueGrammar } from './schemaGrammar.js';
import type { TemplateContext, TemplateToolCall } from './templateTypes.js';
import {
  CALL_CLOSE,
  lastQueryIndex,
  lstripNewlines,
  splitThought,
  type ParsedCall,
  type ToolDialect,
} from './toolDialect.js';

const TOOLS_INTRO =
  '# Tools\n\nYou may call one or more functions to assist with the user query.\n\n' +
  'You are provided with function signatures within <tools></tools> XML tags:\n<tools>';
const TOOLS_OUTRO =
  '\n</tools>\n\nFor each function call, return a json object with function name and arguments within ' +
  '<tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n' +
  '</tool_call><|im_end|>\n';

const stripNewlines = (text: string) => text.replace(/^\n+|\n+$/g, '');

function callBody(call: TemplateToolCall): string {
  return `\n{"name": "${call.function.name}", "arguments": ${pyJson(call.function.arguments)}}\n${CALL_CLOSE}`;
}

function render(context: TemplateContext): string {
  const { messages } = context;
  let out = '';
  const first = messages[0];
  if (context.tools?.length) {
    out += '<|im_start|>system\n';
    if (first?.role === 'system') out += `${first.content}\n\n`;
    out += TOOLS_INTRO;
    for (const tool of context.tools) out += `\n${pyJson(tool)}`;
    out += TOOLS_OUTRO;
  } else if (first?.role === 'system') {
    out += `<|im_start|>system\n${first.content}<|im_end|>\n`;
  }
  // Qwen3's template falls back to the last message when no user query is found.
  const found = lastQueryIndex(context, (text) => text);
  const lastQuery = found < 0 ? messages.length - 1 : found;
  messages.forEach((message, index) => {
    const isLast = index === messages.length - 1;
    if (message.role === 'user' || (message.role === 'system' && index > 0)) {
      out += `<|im_start|>${message.role}\n${message.content}<|im_end|>\n`;
    } else if (message.role === 'assistant') {
      const { content, reasoning } = splitThought(message.content, message.reasoning_content);
      if (index > lastQuery && (isLast || reasoning)) {
        out += `<|im_start|>assistant\n<think>\n${stripNewlines(reasoning)}\n</think>\n\n${lstripNewlines(content)}`;
      } else {
        out += `<|im_start|>assistant\n${content}`;
      }
      (message.tool_calls ?? []).forEach((call, i) => {
        if ((i === 0 && content) || i > 0) out += '\n';
        out += `<tool_call>${callBody(call)}`;
      });
      out += '<|im_end|>\n';
    } else if (message.role === 'tool') {
      if (index === 0 || messages[index - 1]!.role !== 'tool') out += '<|im_start|>user';
      out += `\n<tool_response>\n${message.content}\n</tool_response>`;
      if (isLast || messages[index + 1]!.role !== 'tool') out += '<|im_end|>\n';
    }
  });
  if (context.add_generation_prompt) {
    out += '<|im_start|>assistant\n';
    if (context.enable_thinking === false) out += '<think>\n\n</think>\n\n';
  }
  return out;
}

function callGrammar(tools: readonly EngineTool[]): string {
  const rules = new GrammarRules();
  const calls = tools.map((tool) =>
    rules.rule(
      `${gbnfLiteral(`\n{"name": "${tool.name}", "arguments": `)} ${jsonValueGrammar(rules, { ...tool.parameters, type: 'object' })} ${gbnfLiteral(`}\n${CALL_CLOSE}`)}`,
    ),
  );
  return rules.file(calls.join(' | '));
}

function parseCall(text: string, tools: readonly EngineTool[]): ParsedCall {
  const body = text.endsWith(CALL_CLOSE) ? text.slice(0, -CALL_CLOSE.length) : text;
  let parsed: WrittenValue;
  try {
    parsed = parseWrittenJson(body);
  } catch (error) {
    throw new Error(`The model's call is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error('The model\'s call is not a JSON object with "name" and "arguments".');
  }
  const record = parsed as { readonly [key: string]: WrittenValue };
  const name = record.name;
  if (typeof name !== 'string' || !tools.some((tool) => tool.name === name)) {
    throw new Error(`The model called ${JSON.stringify(name)}, which is not one of the tools it was offered.`);
  }
  const args = record.arguments ?? {};
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw new Error(`The model's arguments for ${name} are not a JSON object.`);
  }
  return { name, arguments: args as ParsedCall['arguments'] };
}

export const qwen3Dialect: ToolDialect = {
  name: 'qwen3',
  thinksByDefault: true,
  render,
  callGrammar,
  parseCall,
  callBody,
};
