/**
 * What a model's own chat template says about thinking and about the tool-call dialect, found by rendering it with
 * @huggingface/jinja (the Jinja node-llama-cpp renders templates with) rather than by matching its source, so a
 * template written another way, or with other whitespace in its code, is read by what it writes.
 */
import { Template } from '@huggingface/jinja';

/** How a reply starts: inside an open thought (on), after an empty closed one (off), or neither (none). */
export type TemplateThinking = 'on' | 'off' | 'none';

/** The tool-call dialects Homebody writes byte for byte (src-main/llm/dialect/). */
export type TemplateDialect = 'qwen3' | 'qwen3.5';

/**
 * Variables a template may read besides the conversation. The texts are empty: what is looked at is the part the
 * generation prompt adds, and a template that concatenates `bos_token` must not fail on an undefined one.
 */
const SPECIAL_TOKENS = { bos_token: '', eos_token: '' } as const;

const PROBE_QUESTION = 'What time is it?';

function render(template: Template, scope: Record<string, unknown>): string | undefined {
  try {
    return template.render({ ...SPECIAL_TOKENS, ...scope });
  } catch {
    // A template that refuses the probe (roles it does not know, a required variable) tells nothing.
    return undefined;
  }
}

/**
 * How the template's generation prompt leaves the reply for a one-user-message conversation, with `enable_thinking`
 * set as given (undefined: not set, the template's own default).
 *
 * 'none' with thinking unset does not always mean the model cannot think: Qwen3's template opens no thought (its
 * model writes `<think>` itself) yet writes an empty one when enable_thinking is false, so
 * `templateThinking(t, false)` is 'off' for it. A template that cannot render the probe is 'none'.
 */
export function templateThinking(template: string, enableThinking: boolean | undefined): TemplateThinking {
  let parsed: Template;
  try {
    parsed = new Template(template);
  } catch {
    return 'none';
  }
  const messages = [{ role: 'user', content: PROBE_QUESTION }];
  const thinking = enableThinking === undefined ? {} : { enable_thinking: enableThinking };
  const withPrompt = render(parsed, { messages, add_generation_prompt: true, ...thinking });
  if (withPrompt === undefined) return 'none';
  const without = render(parsed, { messages, add_generation_prompt: false, ...thinking });
  // The generation prompt: what add_generation_prompt appends (all of it when the template renders otherwise).
  const prompt =
    without !== undefined && withPrompt.startsWith(without) ? withPrompt.slice(without.length) : withPrompt;
  if (/<think>\s*<\/think>\s*$/.test(prompt)) return 'off';
  if (/<think>\s*$/.test(prompt)) return 'on';
  return 'none';
}

/** The thinking a template implies when nothing asks for it: see templateThinking. */
export function templateThinkingDefault(template: string): TemplateThinking {
  return templateThinking(template, undefined);
}

const PROBE_TOOL = 'probe_lookup';
const PROBE_KEY = 'probe_key';
const PROBE_VALUE = 'probe value';

/** Escapes a text for a RegExp. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Qwen3.5 (and Qwen3-Coder): `<tool_call><function=NAME><parameter=KEY>VALUE</parameter></function></tool_call>`. */
const QWEN35_CALL = new RegExp(
  [
    '<tool_call>',
    `<function=${literal(PROBE_TOOL)}>`,
    `<parameter=${literal(PROBE_KEY)}>`,
    literal(PROBE_VALUE),
    '</parameter>',
    '</function>',
    '</tool_call>',
  ].join('\\s*'),
);

/** Qwen3 (and Qwen2.5, QwQ): `<tool_call>{"name": NAME, "arguments": {...}}</tool_call>`, name first. */
const QWEN3_CALL = new RegExp(
  [
    '<tool_call>',
    '\\{',
    '"name"',
    ':',
    `"${literal(PROBE_TOOL)}"`,
    ',',
    '"arguments"',
    ':',
    '\\{',
    `"${literal(PROBE_KEY)}"`,
    ':',
    `"${literal(PROBE_VALUE)}"`,
    '\\}',
    '\\}',
    '</tool_call>',
  ].join('\\s*'),
);

/**
 * The tool-call dialect a template writes, recognised from how it renders one call of a probe tool: 'qwen3.5' for
 * per-parameter elements, 'qwen3' for a JSON object in `<tool_call>` tags with the name first, undefined for any
 * other format (Llama's, Mistral's, DeepSeek's...), for a template without tools, and for one that cannot render
 * the probe.
 */
export function templateDialect(template: string): TemplateDialect | undefined {
  let parsed: Template;
  try {
    parsed = new Template(template);
  } catch {
    return undefined;
  }
  const tools = [
    {
      type: 'function',
      function: {
        name: PROBE_TOOL,
        description: 'Looks a key up.',
        parameters: { type: 'object', properties: { [PROBE_KEY]: { type: 'string' } }, required: [PROBE_KEY] },
      },
    },
  ];
  const call = {
    type: 'function',
    id: 'call00001',
    function: { name: PROBE_TOOL, arguments: { [PROBE_KEY]: PROBE_VALUE } },
  };
  const text = render(parsed, {
    messages: [
      { role: 'user', content: PROBE_QUESTION },
      { role: 'assistant', content: '', tool_calls: [call] },
      { role: 'tool', tool_call_id: call.id, name: PROBE_TOOL, content: 'noon' },
    ],
    tools,
    add_generation_prompt: true,
  });
  if (text === undefined) return undefined;
  if (QWEN35_CALL.test(text)) return 'qwen3.5';
  if (QWEN3_CALL.test(text)) return 'qwen3';
  return undefined;
}
