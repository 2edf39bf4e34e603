import { copyFileSync, closeSync, ftruncateSync, mkdtempSync, openSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { ModelState } from '../../src-shared/contract/index.js';
import type { GenerateOptions } from './engineTypes.js';
import { scriptedEngine } from '../testing/scriptedEngine.js';

// Real inference on the generated tiny model: no mock of node-llama-cpp.
const model = inject('tinyModelPath');
const dir = mkdtempSync(join(tmpdir(), 'hb-engine-'));
const FOLDERS_PROMPT = 'What is in Reports and Archive?';
// The real engine, steered only for the function-call case's prompt; every other reply runs to its own cap.
const engine = scriptedEngine(
  {
    [FOLDERS_PROMPT]: [
      { name: 'list_folder', params: '{"path": "Reports"}' },
      { name: 'list_folder', params: '{"path": "Archive"}' },
    ],
  },
  { gpu: false, contextSize: 2048 },
  { unscriptedTokens: Infinity },
);
afterAll(() => engine.dispose());

function request(overrides: Partial<GenerateOptions> = {}): GenerateOptions & { chunks: string[] } {
  const chunks: string[] = [];
  return {
    history: [],
    prompt: 'Hello, who are you?',
    maxTokens: 12,
    temperature: 0,
    signal: new AbortController().signal,
    onText: (text) => chunks.push(text),
    onReasoning: (text) => chunks.push(text),
    chunks,
    ...overrides,
  };
}

describe('LlamaEngine on a generated model', () => {
  it('loads with progress, reporting the model as synthetic', async () => {
    const states: ModelState[] = [];
    const off = engine.onStateChange((s) => states.push(s));
    const final = await engine.load(model);
    off();
    expect(final.status).toBe('ready');
    if (final.status !== 'ready') return;
    expect(final.info).toMatchObject({ architecture: 'qwen3', synthetic: true, contextSize: 2048, gpu: 'cpu' });
    expect(states[0]).toEqual({ status: 'loading', path: model, progress: 0 });
    expect(states.filter((s) => s.status === 'loading').length).toBeGreaterThan(1);
  });

  it('streams a reply chunk by chunk and reports token counts, first-token time and speed', async () => {
    const req = request();
    const result = await engine.generate(req);
    expect(result.stopReason).toBe('maxTokens');
    expect(req.chunks.length).toBeGreaterThan(1);
    expect(req.chunks.join('')).toBe(result.text + result.reasoning);
    expect(result.stats.completionTokens).toBe(12);
    expect(result.stats.promptTokens).toBeGreaterThan(10);
    expect(result.stats.ttftMs).toBeGreaterThan(0);
    expect(result.stats.tokensPerSecond).toBeGreaterThan(0);
  });

  it('is deterministic at temperature 0', async () => {
    const a = await engine.generate(request({ prompt: 'Count to five.' }));
    const b = await engine.generate(request({ prompt: 'Count to five.' }));
    expect(b.text).toBe(a.text);
  });

  it('reuses the evaluated prefix when a task continues', async () => {
    const first = await engine.generate(request({ prompt: 'First question' }));
    const next = await engine.generate(
      request({
        history: [
          { role: 'user', text: 'First question' },
          { role: 'assistant', text: first.text },
        ],
        prompt: 'And then?',
      }),
    );
    // The prompt grew, but only the new turn was evaluated: the system prompt and first exchange came from the cache.
    expect(next.stats.promptTokens).toBeGreaterThan(first.stats.promptTokens);
    expect(next.evaluatedPromptTokens).toBeLessThan(next.stats.promptTokens - first.stats.promptTokens);
  });

  it('stops when aborted mid-stream and keeps what was generated', async () => {
    const controller = new AbortController();
    let seen = 0;
    const result = await engine.generate(
      request({
        maxTokens: 200,
        signal: controller.signal,
        onText: () => {
          if (++seen === 3) controller.abort();
        },
      }),
    );
    expect(result.stopReason).toBe('aborted');
    expect(result.stats.completionTokens).toBeLessThan(200);
    expect(result.stats.completionTokens).toBeGreaterThanOrEqual(3);
  });

  it('stops at once when aborted before the first token', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await engine.generate(request({ signal: controller.signal }));
    expect(result.stopReason).toBe('aborted');
    expect(result.text).toBe('');
  });

  it('refuses a message too long for the context with a specific error', async () => {
    await expect(engine.generate(request({ prompt: 'word '.repeat(3000) }))).rejects.toMatchObject({
      code: 'CONTEXT_OVERFLOW',
    });
  });

  it('runs a function call through the real grammar and parser, and feeds the result back', async () => {
    const calls: Array<[string, unknown]> = [];
    const result = await engine.generate(
      request({
        prompt: FOLDERS_PROMPT,
        maxTokens: 60,
        tools: [
          {
            name: 'list_folder',
            description: 'List a folder',
            parameters: {
              type: 'object',
              properties: { path: { type: 'string', maxLength: 40 } },
              required: ['path'],
              additionalProperties: false,
            },
          },
        ],
        onToolCall: async (name, args) => {
          calls.push([name, args]);
          return 'draft.txt, budget.xlsx';
        },
      }),
    );
    expect(calls).toEqual([
      ['list_folder', { path: 'Reports' }],
      ['list_folder', { path: 'Archive' }],
    ]);
    expect(result.stopReason).toBe('complete');
  });

  it('keeps the model in use when a change to a bad file fails, and says why', async () => {
    expect((await engine.load(model)).status).toBe('ready');
    const before = engine.state;
    const notGguf = join(dir, 'notes.gguf');
    writeFileSync(notGguf, 'not a model at all');
    const states: ModelState[] = [];
    const off = engine.onStateChange((s) => states.push(s));
    for (const [path, code] of [
      [join(dir, 'gone.gguf'), 'MODEL_NOT_FOUND'],
      [notGguf, 'MODEL_NOT_GGUF'],
    ] as const) {
      await expect(engine.load(path)).rejects.toMatchObject({
        code,
        message: expect.stringContaining('is still the model in use'),
      });
      expect(engine.state).toEqual(before);
    }
    off();
    // The failed change never said "error" nor "none": loading, then the model in use again.
    expect(states.every((s) => s.status === 'loading' || s.status === 'ready')).toBe(true);
    expect(states.at(-1)).toEqual(before);
    const reply = await engine.generate(request());
    expect(reply.stats.completionTokens).toBe(12);
  });

  it('turns a bad file into an error state with a specific code when no model is in use, then loads a good one', async () => {
    await engine.close();
    const truncated = join(dir, 'cut.gguf');
    copyFileSync(model, truncated);
    const fd = openSync(truncated, 'r+');
    ftruncateSync(fd, statSync(model).size - 4096);
    closeSync(fd);
    const notGguf = join(dir, 'photo.gguf');
    writeFileSync(notGguf, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]));
    const cases: Array<[string, string]> = [
      [join(dir, 'missing.gguf'), 'MODEL_NOT_FOUND'],
      [notGguf, 'MODEL_NOT_GGUF'],
      [truncated, 'MODEL_TRUNCATED'],
    ];
    for (const [path, code] of cases) {
      const state = await engine.load(path);
      expect(state).toMatchObject({ status: 'error', path, error: { code } });
    }
    await expect(engine.generate(request())).rejects.toMatchObject({ code: 'NO_MODEL' });
    expect((await engine.load(model)).status).toBe('ready');
  });
});
