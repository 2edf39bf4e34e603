/**
 * A model whose template is no dialect Homebody speaks (here Qwen2.5's, whose default system prompt the Qwen3
 * dialect does not write) goes through node-llama-cpp's chat wrapper as before: it still makes scripted calls, and it
 * is offered only the callable tools, since its wrapper would put every tool in every prompt.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scripted } from '../testing/scriptedCall.js';
import { scriptedEngine, type ScriptedEngine } from '../testing/scriptedEngine.js';
import { appRoot } from '../util/appPaths.js';
import { detectDialect } from './dialect/detectDialect.js';
import type { EngineTool } from './engineTypes.js';
import { makeModel } from './synthetic/makeModel.js';

const template = readFileSync(
  join(appRoot(), 'src-main', 'testing', 'chatTemplates', 'Qwen-Qwen2.5-7B-Instruct.jinja'),
  'utf8',
);
const tool = (name: string): EngineTool => ({
  name,
  description: `The ${name.replace('_', ' ')} tool.`,
  parameters: {
    type: 'object',
    properties: { day: { type: 'string', enum: ['Monday', 'Friday'] } },
    required: ['day'],
    additionalProperties: false,
  },
});
const TOOLS = [tool('list_events'), tool('add_reminder'), tool('send_note')];
const PROMPT = 'What is on Friday?';

let engine: ScriptedEngine;
beforeAll(async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'hb-qwen25-')), 'tiny-qwen2.5-template.gguf');
  makeModel({ preset: 'tiny', quant: 'q8_0', seed: 1, out, template: 'qwen3', templateText: template });
  engine = scriptedEngine(
    { [PROMPT]: [scripted('list_events', { day: 'Friday' })] },
    { contextSize: 4096, threads: 1 },
  );
  expect((await engine.load(out)).status).toBe('ready');
});
afterAll(() => engine.dispose());

describe('a model with a template of another family', () => {
  it('has no dialect of its own', () => {
    expect(detectDialect(template)).toBeUndefined();
  });

  it("makes its calls through node-llama-cpp's wrapper, offered only the callable tools", async () => {
    const calls: Array<[string, unknown]> = [];
    const result = await engine.generate({
      history: [],
      prompt: PROMPT,
      maxTokens: 24,
      temperature: 0,
      signal: new AbortController().signal,
      onText: () => {},
      onReasoning: () => {},
      tools: TOOLS,
      callableTools: ['list_events'],
      onToolCall: async (name, args) => {
        calls.push([name, args]);
        return '[]';
      },
    });
    expect(calls).toEqual([['list_events', { day: 'Friday' }]]);
    expect(result.stopReason).toBe('complete');
    // Only the callable tool's definition was in the prompt.
    const evaluated = engine.contextText() ?? '';
    expect(evaluated).toContain('"list_events"');
    expect(evaluated).not.toContain('add_reminder');
  });
});
