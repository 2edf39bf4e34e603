import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chatTemplateFile } from './chatTemplates.js';
import { templateDialect, templateThinking, templateThinkingDefault } from './templateThinking.js';

/** Other models' templates, copied from llama.cpp (src-main/testing/chatTemplates/LICENSES.md). */
function fixture(name: string): string {
  return readFileSync(new URL(`../../testing/chatTemplates/${name}.jinja`, import.meta.url), 'utf8');
}

// Small templates of shapes whose real files are not copied here (see the fixtures' LICENSES.md).
const CHATML_WITHOUT_TOOLS = `{%- for message in messages %}{{ '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}{%- endfor %}
{%- if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{%- endif %}`;

/** Llama 3's shape: JSON calls with "parameters", no tags. */
const LLAMA_LIKE = `{{- bos_token }}
{%- for message in messages %}
    {{- '<|start_header_id|>' + message.role + '<|end_header_id|>\\n\\n' }}
    {%- if message.tool_calls %}
        {%- set call = message.tool_calls[0].function %}
        {{- '{"name": "' + call.name + '", "parameters": ' + call.arguments | tojson + '}' }}
    {%- else %}
        {{- message.content | trim }}
    {%- endif %}
    {{- '<|eot_id|>' }}
{%- endfor %}
{%- if add_generation_prompt %}{{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}{%- endif %}`;

/** Gemma's shape: refuses any role but user and assistant. */
const GEMMA_LIKE = `{{ bos_token }}{% for message in messages %}{% if message.role not in ['user', 'assistant'] %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}<start_of_turn>{{ 'model' if message.role == 'assistant' else 'user' }}
{{ message.content | trim }}<end_of_turn>
{% endfor %}{% if add_generation_prompt %}<start_of_turn>model
{% endif %}`;

describe('templateThinkingDefault', () => {
  it("reads the three templates generated models carry: Qwen3.5's opens a thought, node-llama-cpp's closes one", () => {
    expect(templateThinkingDefault(chatTemplateFile('qwen3.5'))).toBe('on');
    expect(templateThinkingDefault(chatTemplateFile('qwen3.5-thinking-off'))).toBe('off');
    // Qwen3's generation prompt opens no thought: its model writes <think> itself.
    expect(templateThinkingDefault(chatTemplateFile('qwen3'))).toBe('none');
  });

  it('follows enable_thinking as each template does', () => {
    const table = Object.fromEntries(
      (['qwen3', 'qwen3.5', 'qwen3.5-thinking-off'] as const).map((name) => [
        name,
        [true, false].map((on) => templateThinking(chatTemplateFile(name), on)),
      ]),
    );
    expect(table).toEqual({
      qwen3: ['none', 'off'],
      'qwen3.5': ['on', 'off'],
      'qwen3.5-thinking-off': ['on', 'off'],
    });
  });

  it("reads other models' templates: a closed thought by default where llama.cpp added the switch, none without", () => {
    const defaults = Object.fromEntries(
      [
        'deepseek-ai-DeepSeek-R1-Distill-Qwen-32B',
        'Qwen-QwQ-32B',
        'Qwen-Qwen2.5-7B-Instruct',
        'Qwen3-Coder',
        'mistralai-Mistral-Nemo-Instruct-2407',
        'HuggingFaceTB-SmolLM3-3B',
      ].map((name) => [name, [templateThinkingDefault(fixture(name)), templateThinking(fixture(name), true)]]),
    );
    expect(defaults).toEqual({
      'deepseek-ai-DeepSeek-R1-Distill-Qwen-32B': ['off', 'on'],
      'Qwen-QwQ-32B': ['off', 'on'],
      'Qwen-Qwen2.5-7B-Instruct': ['none', 'none'],
      'Qwen3-Coder': ['none', 'none'],
      'mistralai-Mistral-Nemo-Instruct-2407': ['none', 'none'],
      // SmolLM3 thinks unless told not to, and then writes an empty thought itself.
      'HuggingFaceTB-SmolLM3-3B': ['none', 'none'],
    });
    expect(templateThinking(fixture('HuggingFaceTB-SmolLM3-3B'), false)).toBe('off');
  });

  it('is none for templates without thinking, one that refuses the probe, and text that is not a template', () => {
    expect(templateThinkingDefault(CHATML_WITHOUT_TOOLS)).toBe('none');
    expect(templateThinkingDefault(LLAMA_LIKE)).toBe('none');
    expect(templateThinkingDefault(GEMMA_LIKE)).toBe('none');
    expect(templateThinkingDefault("{{ raise_exception('no') }}")).toBe('none');
    expect(templateThinkingDefault('{% if %}')).toBe('none');
  });

  it('sees the thought whatever whitespace the template writes around it', () => {
    const spaced = `{% for m in messages %}{{ m.content }}{% endfor %}{% if add_generation_prompt %}A:\n<think>\n\n{% endif %}`;
    const closed = `{% for m in messages %}{{ m.content }}{% endfor %}{% if add_generation_prompt %}A:<think> </think>{% endif %}`;
    expect(templateThinkingDefault(spaced)).toBe('on');
    expect(templateThinkingDefault(closed)).toBe('off');
  });
});

describe('templateDialect', () => {
  it('recognises the call format of the templates generated models carry', () => {
    expect(templateDialect(chatTemplateFile('qwen3'))).toBe('qwen3');
    expect(templateDialect(chatTemplateFile('qwen3.5'))).toBe('qwen3.5');
    expect(templateDialect(chatTemplateFile('qwen3.5-thinking-off'))).toBe('qwen3.5');
  });

  it("recognises the same formats in other models' templates, and no other format", () => {
    const dialects = Object.fromEntries(
      [
        'Qwen-Qwen2.5-7B-Instruct',
        'Qwen-QwQ-32B',
        'Qwen3-Coder',
        'deepseek-ai-DeepSeek-R1-Distill-Qwen-32B',
        'mistralai-Mistral-Nemo-Instruct-2407',
        'HuggingFaceTB-SmolLM3-3B',
      ].map((name) => [name, templateDialect(fixture(name)) ?? 'none']),
    );
    expect(dialects).toEqual({
      // Qwen2.5 and QwQ write Qwen3's JSON calls; Qwen3-Coder wrote the per-parameter elements first.
      'Qwen-Qwen2.5-7B-Instruct': 'qwen3',
      'Qwen-QwQ-32B': 'qwen3',
      'Qwen3-Coder': 'qwen3.5',
      'deepseek-ai-DeepSeek-R1-Distill-Qwen-32B': 'none',
      'mistralai-Mistral-Nemo-Instruct-2407': 'none',
      'HuggingFaceTB-SmolLM3-3B': 'none',
    });
    expect(templateDialect(CHATML_WITHOUT_TOOLS)).toBeUndefined();
    expect(templateDialect(LLAMA_LIKE)).toBeUndefined();
    expect(templateDialect(GEMMA_LIKE)).toBeUndefined();
    expect(templateDialect('{% if %}')).toBeUndefined();
  });

  it('is robust to other whitespace around the same format, and strict about what the format is', () => {
    const compact = chatTemplateFile('qwen3').replaceAll('<tool_call>\\n{"name": "', '<tool_call>{"name":"');
    expect(compact).not.toBe(chatTemplateFile('qwen3'));
    expect(templateDialect(compact)).toBe('qwen3');
    const indented = chatTemplateFile('qwen3.5').replaceAll(
      "'<parameter=' + args_name + '>\\n'",
      "'  <parameter=' + args_name + '>\\n\\n'",
    );
    expect(indented).not.toBe(chatTemplateFile('qwen3.5'));
    expect(templateDialect(indented)).toBe('qwen3.5');
    // Hermes' order (arguments first) is not Qwen3's call, byte for byte.
    const argumentsFirst = chatTemplateFile('qwen3').replace(
      `{{- '<tool_call>\\n{"name": "' }}
                {{- tool_call.name }}
                {{- '", "arguments": ' }}
                {%- if tool_call.arguments is string %}
                    {{- tool_call.arguments }}
                {%- else %}
                    {{- tool_call.arguments | tojson }}
                {%- endif %}
                {{- '}\\n</tool_call>' }}`,
      `{{- '<tool_call>\\n{"arguments": ' + tool_call.arguments | tojson + ', "name": "' + tool_call.name + '"}\\n</tool_call>' }}`,
    );
    expect(argumentsFirst).not.toBe(chatTemplateFile('qwen3'));
    expect(templateDialect(argumentsFirst)).toBeUndefined();
  });
});
