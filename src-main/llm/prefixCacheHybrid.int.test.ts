import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { defaultEngineConfig } from './engineConfig.js';
import type { EngineTool, GenerateResult } from './engineTypes.js';
import { LlamaEngine } from './llamaEngine.js';

// The saved system prompt + tools prefix on a hybrid model (Qwen3.5's qwen35: linear-attention layers keep a
// recurrent state that cannot drop its tail). Real inference on the tiny generated qwen35 model; assertions are on
// token counts, never on times.
const model = inject('tinyQwen35ModelPath');

const TOOLS: EngineTool[] = ['list_folder', 'read_text', 'search_files', 'write_text', 'move_file', 'copy_file'].map(
  (name) => ({
    name,
    description: `The ${name.replace(/_/g, ' ')} tool: does what its name says with the user's own files and notes.`,
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', maxLength: 40, description: 'A path inside a granted folder' },
        limit: { type: 'integer', description: 'How many results at most' },
      },
      required: ['path'],
      additionalProperties: false,
    },
  }),
);

const engines: LlamaEngine[] = [];
async function start(dir: string): Promise<{ engine: LlamaEngine; logs: string[] }> {
  const logs: string[] = [];
  const engine = new LlamaEngine({
    ...defaultEngineConfig(),
    gpu: false,
    contextSize: 2048,
    prefixCacheDir: dir,
    log: (line) => logs.push(line),
  });
  engines.push(engine);
  expect((await engine.load(model)).status).toBe('ready');
  return { engine, logs };
}
afterAll(async () => {
  for (const engine of engines) await engine.dispose();
});

function ask(engine: LlamaEngine, prompt: string): Promise<GenerateResult> {
  return engine.generate({
    history: [],
    prompt,
    maxTokens: 4,
    temperature: 0,
    signal: new AbortController().signal,
    onText: () => {},
    onReasoning: () => {},
    tools: TOOLS,
    onToolCall: async () => 'ok',
  });
}

describe('the system prompt + tools prefix on a hybrid (qwen35) model', { timeout: 600_000 }, () => {
  it('is evaluated once, kept for the next task, saved, and loaded after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hb-prefix-hybrid-'));
    const { engine, logs } = await start(dir);
    const first = await ask(engine, 'Which files are in Reports?');
    expect(first.stats.promptTokens).toBeGreaterThan(300);
    expect(first.evaluatedPromptTokens).toBeGreaterThanOrEqual(first.stats.promptTokens - 1);
    expect(readdirSync(dir).filter((name) => name.endsWith('.bin'))).toHaveLength(1);

    // The next task goes back to the end of the prefix: possible on a recurrent state only because prefixCache.ts
    // takes a checkpoint there (without it, this task evaluated all of its ~660 tokens again).
    const second = await ask(engine, 'Please read the budget notes from last week');
    expect(second.evaluatedPromptTokens).toBeLessThan(30);

    // A restart: the prefix comes from the state file, and its next task again evaluates only its own tokens,
    // from the checkpoint taken right after loading the file.
    const { engine: restarted, logs: restartLogs } = await start(dir);
    const third = await ask(restarted, 'Which files are in Reports?');
    expect(third.stats.promptTokens).toBe(first.stats.promptTokens);
    expect(third.evaluatedPromptTokens).toBeLessThan(30);
    // Restoring the state changes nothing the model sees: the reply is the one the fresh evaluation gave.
    expect(third.text).toBe(first.text);
    const fourth = await ask(restarted, 'Please read the budget notes from last week');
    expect(fourth.evaluatedPromptTokens).toBeLessThan(30);
    expect(fourth.text).toBe(second.text);
    expect([...logs, ...restartLogs]).toEqual([]);
  });
});
