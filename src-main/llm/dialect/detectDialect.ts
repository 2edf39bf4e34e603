/**
 * Which dialect a model speaks, decided by its own chat template: a candidate dialect is used only when its
 * rendering of a probe conversation (tools, a call, a result, a new turn) is the template's own rendering, character
 * for character. A template that differs anywhere (Qwen2.5's default system prompt, a fine-tune's edits) is left to
 * node-llama-cpp's chat wrappers, as any other model is.
 */
import { Template } from '@huggingface/jinja';
import { WrittenNumber } from '../writtenJson.js';
import { qwen35Dialect } from './qwen35Dialect.js';
import { qwen3Dialect } from './qwen3Dialect.js';
import type { TemplateContext } from './templateTypes.js';
import { toolsForTemplate, type ToolDialect } from './toolDialect.js';

/** Strings and ints only: where @huggingface/jinja and Python print values alike. */
const PROBE: TemplateContext = {
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'What is on my calendar?' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [
        {
          type: 'function',
          function: { name: 'list_events', arguments: { day: 'Thursday', limit: new WrittenNumber('3') } },
        },
      ],
    },
    { role: 'tool', content: '[]' },
    { role: 'assistant', content: 'Nothing is planned.' },
    { role: 'user', content: 'Thanks.' },
  ],
  tools: toolsForTemplate([
    {
      name: 'list_events',
      description: 'Lists events.',
      parameters: {
        type: 'object',
        properties: { day: { type: 'string' }, limit: { type: 'integer' } },
        required: ['day'],
      },
    },
  ]),
  add_generation_prompt: true,
};

const CANDIDATES: readonly ToolDialect[] = [qwen3Dialect, qwen35Dialect(true), qwen35Dialect(false)];

function plain(value: unknown): unknown {
  if (value instanceof WrittenNumber) return value.value;
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
  }
  return value;
}

/** The dialect whose rendering is the template's, with and without thinking asked for; undefined: none is. */
export function detectDialect(template: string | undefined): ToolDialect | undefined {
  if (!template || !template.includes('<tool_call>')) return undefined;
  let compiled: Template;
  try {
    compiled = new Template(template);
  } catch {
    return undefined;
  }
  const contexts: TemplateContext[] = [
    PROBE,
    { ...PROBE, enable_thinking: true },
    { ...PROBE, enable_thinking: false },
  ];
  const rendered = contexts.map((context) => {
    try {
      return compiled.render({ ...(plain(context) as object), bos_token: '', eos_token: '<|im_end|>' });
    } catch {
      return undefined;
    }
  });
  if (rendered.some((text) => text === undefined)) return undefined;
  return CANDIDATES.find((dialect) => contexts.every((context, i) => dialect.render(context) === rendered[i]));
}
