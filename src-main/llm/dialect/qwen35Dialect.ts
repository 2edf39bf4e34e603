/**
 * Qwen3.5's dialect (BotPsy's): tools as JSON lines in `<tools>` at the top of the system turn, a call as
 * `<tool_call>\n<function=NAME>\n<parameter=KEY>\nVALUE\n</parameter>\n...</function>\n</tool_call>` with one element
 * per argument (a scalar printed as Python's str() prints it, an object or array as JSON), results in
 * `<tool_response>`. `render` follows Qwen3.5's chat template line by line (src-main/llm/chatTemplates/qwen3.5.jinja);
 * the two known templates differ only in whether a reply opens a thought when enable_thinking is not given.
 */
import type { EngineTool } from '../engineTypes.js';
import { parseWrittenJson, WrittenNumber, type WrittenValue } from '../writtenJson.js';
import { pyJson, pyStr } from './pythonValues.js';
import { GrammarRules, elementValueGrammar, gbnfLiteral, isBareParameter, sequence } from './schemaGrammar.js';
import type { TemplateContext, TemplateToolCall } from './templateTypes.js';
import { CALL_CLOSE, lastQueryIndex, pyStrip, splitThought, type ParsedCall, type ToolDialect } from './toolDialect.js';

const TOOLS_INTRO = '# Tools\n\nYou have access to the following functions:\n\n<tools>';
const TOOLS_OUTRO =
  '\n</tools>\n\nIf you choose to call a function ONLY reply in the following format with NO suffix:\n\n' +
  '<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\nvalue_1\n</parameter>\n' +
  '<parameter=example_parameter_2>\nThis is the value for the second parameter\nthat can span\nmultiple lines\n' +
  '</parameter>\n</function>\n</tool_call>\n\n<IMPORTANT>\nReminder:\n' +
  '- Function calls MUST follow the specified format: an inner <function=...></function> block must be nested ' +
  'within <tool_call></tool_call> XML tags\n- Required parameters MUST be specified\n' +
  '- You may provide optional reasoning for your function call in natural language BEFORE the function call, but ' +
  'NOT after\n- If there is no function call available, answer the question like normal with your current ' +
  'knowledge and do not tell the user about function calls\n</IMPORTANT>';

/** `args_value | tojson` for a mapping or a list, `args_value | string` for anything else. */
function elementText(value: WrittenValue): string {
  return value !== null && typeof value === 'object' && !(value instanceof WrittenNumber)
    ? pyJson(value)
    : pyStr(value);
}

function callBody(call: TemplateToolCall): string {
  let out = `\n<function=${call.function.name}>\n`;
  for (const [key, value] of Object.entries(call.function.arguments)) {
    out += `<parameter=${key}>\n${elementText(value)}\n</parameter>\n`;
  }
  return `${out}</function>\n${CALL_CLOSE}`;
}

function renderWith(thinksByDefault: boolean) {
  return (context: TemplateContext): string => {
    const { messages } = context;
    if (messages.length === 0) throw new Error('No messages provided.');
    let out = '';
    const first = messages[0]!;
    if (context.tools?.length) {
      out += `<|im_start|>system\n${TOOLS_INTRO}`;
      for (const tool of context.tools) out += `\n${pyJson(tool)}`;
      out += TOOLS_OUTRO;
      if (first.role === 'system') {
        const content = pyStrip(first.content);
        if (content) out += `\n\n${content}`;
      }
      out += '<|im_end|>\n';
    } else if (first.role === 'system') {
      out += `<|im_start|>system\n${pyStrip(first.content)}<|im_end|>\n`;
    }
    const lastQuery = lastQueryIndex(context, pyStrip);
    if (lastQuery < 0) throw new Error('No user query found in messages.');
    messages.forEach((message, index) => {
      let content = pyStrip(message.content);
      if (message.role === 'system') {
        if (index > 0) throw new Error('System message must be at the beginning.');
      } else if (message.role === 'user') {
        out += `<|im_start|>user\n${content}<|im_end|>\n`;
      } else if (message.role === 'assistant') {
        const split = splitThought(content, message.reasoning_content);
        content = split.content;
        const reasoning = pyStrip(split.reasoning);
        out +=
          index > lastQuery
            ? `<|im_start|>assistant\n<think>\n${reasoning}\n</think>\n\n${content}`
            : `<|im_start|>assistant\n${content}`;
        (message.tool_calls ?? []).forEach((call, i) => {
          if (i === 0) out += pyStrip(content) ? '\n\n<tool_call>' : '<tool_call>';
          else out += '\n<tool_call>';
          out += callBody(call);
        });
        out += '<|im_end|>\n';
      } else {
        const previous = messages[index - 1];
        if (previous && previous.role !== 'tool') out += '<|im_start|>user';
        out += `\n<tool_response>\n${content}\n</tool_response>`;
        const next = messages[index + 1];
        if (!next || next.role !== 'tool') out += '<|im_end|>\n';
      }
    });
    if (context.add_generation_prompt) {
      out += '<|im_start|>assistant\n';
      const thinking = context.enable_thinking ?? thinksByDefault;
      out += thinking ? '<think>\n' : '<think>\n\n</think>\n\n';
    }
    return out;
  };
}

function callGrammar(tools: readonly EngineTool[]): string {
  const rules = new GrammarRules();
  const calls = tools.map((tool) => {
    const properties = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
    const required = new Set(Array.isArray(tool.parameters.required) ? (tool.parameters.required as string[]) : []);
    const elements = Object.entries(properties).map(([key, schema]) => ({
      pair: `${gbnfLiteral(`<parameter=${key}>\n`)} ${elementValueGrammar(rules, schema)} ${gbnfLiteral('\n</parameter>\n')}`,
      required: required.has(key),
    }));
    return rules.rule(
      `${gbnfLiteral(`\n<function=${tool.name}>\n`)} ${sequence(rules, elements, '')} ${gbnfLiteral(`</function>\n${CALL_CLOSE}`)}`,
    );
  });
  return rules.file(calls.join(' | '));
}

/** One element's value, typed by the parameter's schema as llama.cpp's Qwen3-Coder parser types it. */
function elementValue(raw: string, schema: Record<string, unknown> | undefined): WrittenValue {
  if (!isBareParameter(schema)) {
    try {
      return parseWrittenJson(raw);
    } catch {
      // A parameter without a usable schema that holds plain text.
      return raw;
    }
  }
  const types = new Set<string>(
    typeof schema!.type === 'string' ? [schema!.type] : Array.isArray(schema!.type) ? schema!.type : [],
  );
  const literal = 'const' in schema! ? [schema!.const] : Array.isArray(schema!.enum) ? schema!.enum : undefined;
  if (literal) {
    const match = literal.find((value) => pyStr(value) === raw || JSON.stringify(value) === raw);
    if (match !== undefined) return typeof match === 'number' ? new WrittenNumber(raw) : (match as WrittenValue);
    return raw;
  }
  if ((types.has('null') && (raw === 'None' || raw === 'null')) || raw === '') {
    if (types.has('null')) return null;
  }
  if (types.has('boolean') && /^(True|False|true|false)$/.test(raw)) return raw === 'True' || raw === 'true';
  if ((types.has('integer') || types.has('number')) && /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/.test(raw)) {
    return new WrittenNumber(raw);
  }
  return raw;
}

const CALL_PATTERN = /^\n?<function=([^>\n]+)>\n([\s\S]*?)<\/function>\n?$/;
const ELEMENT_PATTERN = /<parameter=([^>\n]+)>\n([\s\S]*?)\n<\/parameter>\n?/y;

function parseCall(text: string, tools: readonly EngineTool[]): ParsedCall {
  const body = text.endsWith(CALL_CLOSE) ? text.slice(0, -CALL_CLOSE.length) : text;
  const match = CALL_PATTERN.exec(body);
  if (!match) throw new Error('The model\'s call is not a "<function=NAME>" block.');
  const name = match[1]!;
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`The model called ${JSON.stringify(name)}, which is not one of the tools it was offered.`);
  const properties = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  const args: Record<string, WrittenValue> = {};
  const elements = match[2]!;
  ELEMENT_PATTERN.lastIndex = 0;
  while (ELEMENT_PATTERN.lastIndex < elements.length) {
    const element = ELEMENT_PATTERN.exec(elements);
    if (!element) throw new Error(`The model's call of ${name} has text outside its "<parameter=...>" elements.`);
    const key = element[1]!;
    Object.defineProperty(args, key, {
      value: elementValue(element[2]!, properties[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { name, arguments: args };
}

export function qwen35Dialect(thinksByDefault: boolean): ToolDialect {
  return { name: 'qwen3.5', thinksByDefault, render: renderWith(thinksByDefault), callGrammar, parseCall, callBody };
}
