/**
 * A new task starts at once: every tool's definition sits in one stable prefix, evaluated ahead of the task when the
 * tools change (`prepare`), kept for the next task, saved to disk and loaded after a restart; the relevance ranking
 * reaches the model only through the call grammar. Real inference on a generated model with Qwen3.5's template.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LlamaGrammar, getLlama, type LlamaContextSequence } from 'node-llama-cpp';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { scriptSteering, scriptedEngine, type ScriptedEngine } from '../../testing/scriptedEngine.js';
import { scripted, type ScriptedCall } from '../../testing/scriptedCall.js';
import { defaultEngineConfig } from '../engineConfig.js';
import { LlamaEngine } from '../llamaEngine.js';
import { ensureTestModel } from '../../testing/testModels.js';
import { BUILTIN_TOOLS } from '../../tools/builtin/index.js';
import { normalizeParameters } from '../../tools/schema/index.js';
import type { EngineTool, GenerateOptions } from '../engineTypes.js';
import { qwen35Dialect } from './qwen35Dialect.js';
import { qwen3Dialect } from './qwen3Dialect.js';

const TOOLS: EngineTool[] = BUILTIN_TOOLS.map((tool) => ({
  name: tool.name,
  description: tool.description,
  parameters: normalizeParameters(tool.parameters),
}));
const model = ensureTestModel('tiny-qwen35', 'q8_0', 1, 'qwen3.5');
const cacheDir = mkdtempSync(join(tmpdir(), 'hb-dialect-prefix-'));
const READ = 'read my notes';
const engines: LlamaEngine[] = [];

/** An engine whose every reply is pushed toward these calls, whatever the callable tools are. */
class SteeredTo extends LlamaEngine {
  constructor(calls: readonly ScriptedCall[]) {
    super({ ...defaultEngineConfig(), contextSize: 16_384, threads: 1, prefixCacheDir: cacheDir });
    this.steering = scriptSteering(calls);
  }
}

async function engine(): Promise<ScriptedEngine> {
  const made = scriptedEngine(
    { [READ]: [scripted('read_text', { path: 'notes.txt' })] },
    { contextSize: 16_384, threads: 1, prefixCacheDir: cacheDir },
  );
  engines.push(made);
  expect((await made.load(model)).status).toBe('ready');
  return made;
}
afterAll(async () => {
  for (const made of engines) await made.dispose();
});

/** How many tokens a new task's turn has after its opening: the message, its end, the reply's opening. */
async function ownTokens(prompt: string): Promise<number> {
  const turn = qwen35Dialect(true).render({
    messages: [{ role: 'user', content: prompt }],
    add_generation_prompt: true,
  });
  const opening = '<|im_start|>user\n';
  expect(turn.startsWith(opening)).toBe(true);
  const llama = await getLlama({ gpu: false, build: 'never' });
  try {
    const vocab = await llama.loadModel({ modelPath: model, vocabOnly: true });
    return vocab.tokenize(turn.slice(opening.length), true).length;
  } finally {
    await llama.dispose();
  }
}

function request(prompt: string, extra: Partial<GenerateOptions> = {}): GenerateOptions {
  return {
    history: [],
    prompt,
    maxTokens: 4,
    temperature: 0,
    signal: new AbortController().signal,
    onText: () => {},
    onReasoning: () => {},
    tools: TOOLS,
    onToolCall: async () => 'ok',
    ...extra,
  };
}

describe('the prompt prefix of a model spoken to in its own dialect', () => {
  it('is evaluated ahead of the first task, so the task evaluates only its own words', async () => {
    const first = await engine();
    first.prepare({ tools: TOOLS, maxTokens: 4 });
    // Evaluated in the background and saved; a reply sent meanwhile would go first (and evaluate the rest itself).
    await expect
      .poll(() => readdirSync(cacheDir).filter((name) => name.endsWith('.bin')).length, { timeout: 120_000 })
      .toBe(1);
    const prompt = 'What is on my calendar on Thursday?';
    const reply = await first.generate(request(prompt));
    // Thousands of tokens of tool definitions in the prompt; the task itself evaluated its own words and the turn's
    // end, not even the turn's opening (`<|im_start|>user\n`, evaluated with the tools). node-llama-cpp's meter counts
    // the prompt's last token, the one whose logits give the first reply token, as output.
    expect(reply.stats.promptTokens).toBeGreaterThan(4000);
    expect(reply.evaluatedPromptTokens).toBe((await ownTokens(prompt)) - 1);
    expect(readdirSync(cacheDir).filter((name) => name.endsWith('.bin'))).toHaveLength(1);
    // A different new task, with a different choice of callable tools: still only its own words.
    const next = await first.generate(request('Remind me to call the dentist', { callableTools: ['reminder_add'] }));
    expect(next.evaluatedPromptTokens).toBe((await ownTokens('Remind me to call the dentist')) - 1);
    // One that begins with the last one's words: back to the prefix's checkpoint and all of its own turn in the
    // prompt's one pass, not "Remind me" again in a pass of its own, a checkpoint and then the rest.
    const sequence = (first as unknown as { loaded: { sequence: LlamaContextSequence } }).loaded.sequence;
    const passes = vi.spyOn(sequence, 'evaluateWithoutGeneratingNewTokens');
    const checkpoints = vi.spyOn(sequence, 'takeCheckpoint');
    const again = await first.generate(request('Remind me to water the plants'));
    expect(again.evaluatedPromptTokens).toBe((await ownTokens('Remind me to water the plants')) - 1);
    expect(passes).not.toHaveBeenCalled();
    expect(checkpoints).not.toHaveBeenCalled();
    passes.mockRestore();
    checkpoints.mockRestore();
  });

  it('is loaded from disk after a restart, so the first task there starts at once too', async () => {
    const restarted = await engine();
    // Loaded with the model, before any task: the tools the last task started with.
    expect(restarted.contextText()).toContain('<tools>');
    const reply = await restarted.generate(request('Draft an email to Ana saying I am late'));
    expect(reply.stats.promptTokens).toBeGreaterThan(4000);
    expect(reply.evaluatedPromptTokens).toBeLessThan(40);
  });

  it('lets the model call only the callable tools, though it reads them all', async () => {
    // Steered hard toward read_text, which is not callable here: the grammar has no such name, so the biased tokens
    // are refused and no read_text call can be written.
    const steered = new SteeredTo([scripted('read_text', { path: 'notes.txt' })]);
    engines.push(steered);
    expect((await steered.load(model)).status).toBe('ready');
    const calls: string[] = [];
    const reply = await steered.generate(
      request('read my notes', {
        callableTools: ['calendar_events'],
        maxTokens: 8,
        onToolCall: async (name) => {
          calls.push(name);
          return 'ok';
        },
      }),
    );
    expect(calls).not.toContain('read_text');
    expect(calls.every((name) => name === 'calendar_events')).toBe(true);
    // Every tool is still in the prompt: the callable choice never touches it.
    expect(reply.stats.promptTokens).toBeGreaterThan(4000);
  });

  it('builds a call grammar llama.cpp accepts for every built-in tool, in both dialects', async () => {
    const llama = await getLlama({ gpu: false, build: 'never' });
    for (const dialect of [qwen3Dialect, qwen35Dialect(true)]) {
      expect(() => new LlamaGrammar(llama, { grammar: dialect.callGrammar(TOOLS) })).not.toThrow();
      for (const tool of TOOLS) {
        expect(() => new LlamaGrammar(llama, { grammar: dialect.callGrammar([tool]) }), tool.name).not.toThrow();
      }
    }
    await llama.dispose();
  });
});
