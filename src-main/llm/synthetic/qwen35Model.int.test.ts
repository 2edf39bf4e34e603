import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GgmlType,
  getLlama,
  type Llama,
  type LlamaContextSequence,
  LlamaLogLevel,
  type LlamaModel,
  QwenChatWrapper,
  resolveChatWrapper,
  type Token,
} from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { scriptedEngine } from '../../testing/scriptedEngine.js';

// Real inference on the generated tiny qwen35 model (3 linear-attention layers, then 1 full-attention layer),
// in llama.cpp through node-llama-cpp: no mock.
const modelPath = inject('tinyQwen35ModelPath');
const dir = mkdtempSync(join(tmpdir(), 'hb-qwen35-'));
let llama: Llama;
let model: LlamaModel;
// One llama.cpp thread: the tiny model's work per token is too small to share, and two test files run at once on
// two cores, so a second thread mostly waits for the first (several times slower on a busy machine).
const THREADS = 1;
beforeAll(async () => {
  llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error, maxThreads: THREADS });
  model = await llama.loadModel({ modelPath });
});
afterAll(async () => {
  await model?.dispose();
});

async function newSequence(): Promise<LlamaContextSequence> {
  const context = await model.createContext({ contextSize: 2048, threads: THREADS });
  return context.getSequence();
}

/** Evaluates `input` and returns the next `count` tokens, greedy. */
async function greedy(sequence: LlamaContextSequence, input: Token[], count = 12): Promise<Token[]> {
  const out: Token[] = [];
  for await (const token of sequence.evaluate(input, { temperature: 0 })) {
    out.push(token);
    if (out.length >= count) break;
  }
  return out;
}

/** Tokens the sequence evaluated while `action` ran. */
async function evaluatedDuring(sequence: LlamaContextSequence, action: () => Promise<void>): Promise<number> {
  const before = sequence.tokenMeter.usedInputTokens;
  await action();
  return sequence.tokenMeter.usedInputTokens - before;
}

describe('the generated qwen35 model in llama.cpp', { timeout: 300_000 }, () => {
  it('loads as a hybrid qwen35 model with the Qwen tokenizer padded to 248,320 tokens', async () => {
    const info = model.fileInfo;
    expect(info.metadata.general.architecture).toBe('qwen35');
    const arch = (info.metadata as unknown as Record<string, Record<string, unknown>>).qwen35!;
    expect(arch.full_attention_interval).toBe(4);
    expect(arch.block_count).toBe(4);
    const tensors = new Map(info.fullTensorInfo!.map((t) => [t.name, t]));
    expect(tensors.get('token_embd.weight')!.dimensions.map(Number)).toEqual([128, 248_320]);
    expect(tensors.get('blk.0.ssm_conv1d.weight')!.ggmlType).toBe(GgmlType.F32);
    expect(tensors.get('blk.0.attn_qkv.weight')!.ggmlType).toBe(GgmlType.Q8_0);
    expect(tensors.get('blk.3.attn_q.weight')!.ggmlType).toBe(GgmlType.Q8_0);
    // Qwen's real tokens: <|im_end|> is one control token with its Qwen id.
    expect(model.tokenize('<|im_end|>', true)).toEqual([151_645]);
    expect(model.tokens.eos).toBe(151_645);
    // The chat template is Qwen's, so node-llama-cpp picks its Qwen wrapper (function calls as <tool_call>).
    expect(resolveChatWrapper(model)).toBeInstanceOf(QwenChatWrapper);
    // Linear-attention layers keep a recurrent state: the tail of a sequence cannot be dropped without a checkpoint.
    const sequence = await newSequence();
    expect(sequence.needsCheckpoints).toBe(true);
    await sequence.context.dispose();
  });

  it('generates the same tokens at temperature 0 every time, and others for another prompt', async () => {
    const sequence = await newSequence();
    const prompt = model.tokenize('Which files are in the Reports folder?');
    const first = await greedy(sequence, prompt);
    await sequence.clearHistory();
    const second = await greedy(sequence, prompt);
    await sequence.clearHistory();
    const other = await greedy(sequence, model.tokenize('Please read the budget notes from last week.'));
    expect(first).toHaveLength(12);
    expect(second).toEqual(first);
    expect(other).not.toEqual(first);
    await sequence.context.dispose();
  });

  it('restores a saved sequence state exactly: the same tokens follow as after evaluating it', async () => {
    const prefix = model.tokenize('The system prompt and the tool definitions. '.repeat(12));
    const question = model.tokenize(' Which files are in Reports?');
    const file = join(dir, 'prefix.bin');

    const original = await newSequence();
    await original.evaluateWithoutGeneratingNewTokens(prefix);
    const { fileSize } = await original.saveStateToFile(file);
    expect(fileSize).toBeGreaterThan(0);
    const expected = await greedy(original, question);
    await original.context.dispose();

    const restored = await newSequence();
    await restored.loadStateFromFile(file, { acceptRisk: true });
    expect(restored.contextTokens).toEqual(prefix);
    expect(await greedy(restored, question)).toEqual(expected);
    // A different prefix leads elsewhere: the equality above is the restored state's doing.
    await restored.clearHistory();
    const elsewhere = model.tokenize('Something else entirely. '.repeat(12));
    expect(await greedy(restored, [...elsewhere, ...question])).not.toEqual(expected);
    await restored.context.dispose();
  });

  it('goes back to a prefix without evaluating it again only from a checkpoint taken at its end', async () => {
    const prefix = model.tokenize('The system prompt and the tool definitions. '.repeat(12));
    const task = model.tokenize(' Which files are in Reports?');
    const sequence = await newSequence();

    // No checkpoint: dropping the task's tokens throws the recurrent state away, and llama.cpp evaluates the
    // whole prefix again.
    await sequence.evaluateWithoutGeneratingNewTokens(prefix);
    await sequence.evaluateWithoutGeneratingNewTokens(task);
    const withoutCheckpoint = await evaluatedDuring(sequence, () =>
      sequence.eraseContextTokenRanges([{ start: prefix.length, end: sequence.nextTokenIndex }]),
    );
    expect(withoutCheckpoint).toBe(prefix.length);
    expect(sequence.contextTokens).toEqual(prefix);

    // A checkpoint at the end of the prefix (what prefixCache.ts takes): going back costs nothing.
    await sequence.clearHistory();
    await sequence.evaluateWithoutGeneratingNewTokens(prefix);
    await sequence.takeCheckpoint();
    await sequence.evaluateWithoutGeneratingNewTokens(task);
    const withCheckpoint = await evaluatedDuring(sequence, () =>
      sequence.eraseContextTokenRanges([{ start: prefix.length, end: sequence.nextTokenIndex }]),
    );
    expect(withCheckpoint).toBe(0);
    expect(sequence.contextTokens).toEqual(prefix);
    await sequence.context.dispose();
  });
});

describe("Homebody's engine on the generated qwen35 model", { timeout: 300_000 }, () => {
  const engine = scriptedEngine(
    {
      'What is in my folders?': [
        { name: 'list_folder', params: '{"path": "Reports"}' },
        { name: 'list_folder', params: '{"path": "Archive"}' },
      ],
    },
    { gpu: false, contextSize: 2048, threads: THREADS },
    { unscriptedTokens: Infinity },
  );
  afterAll(() => engine.dispose());

  it('loads it, reporting the architecture, and runs Qwen function calls through the real grammar and parser', async () => {
    const state = await engine.load(modelPath);
    expect(state).toMatchObject({ status: 'ready', info: { architecture: 'qwen35', synthetic: true } });
    const calls: Array<[string, unknown]> = [];
    const result = await engine.generate({
      history: [],
      prompt: 'What is in my folders?',
      maxTokens: 60,
      temperature: 0,
      signal: new AbortController().signal,
      onText: () => {},
      onReasoning: () => {},
      tools: [
        {
          name: 'list_folder',
          description: 'List a folder',
          parameters: {
            type: 'object',
            properties: { path: { type: 'string', enum: ['Reports', 'Archive'] } },
            required: ['path'],
            additionalProperties: false,
          },
        },
      ],
      onToolCall: async (name, args) => {
        calls.push([name, args]);
        return 'draft.txt, budget.xlsx';
      },
    });
    expect(calls).toEqual([
      ['list_folder', { path: 'Reports' }],
      ['list_folder', { path: 'Archive' }],
    ]);
    expect(result.stopReason).toBe('complete');
  });

  it('is deterministic at temperature 0 and continues a task evaluating only the new turn', async () => {
    const ask = (prompt: string, history: Array<{ role: 'user' | 'assistant'; text: string }> = []) =>
      engine.generate({
        history,
        prompt,
        maxTokens: 8,
        temperature: 0,
        signal: new AbortController().signal,
        onText: () => {},
        onReasoning: () => {},
      });
    const a = await ask('Count to five.');
    const b = await ask('Count to five.');
    expect(a.stats.completionTokens).toBe(8);
    expect(b.text).toBe(a.text);
    const next = await ask('And then?', [
      { role: 'user', text: 'Count to five.' },
      { role: 'assistant', text: b.text },
    ]);
    expect(next.stats.promptTokens).toBeGreaterThan(b.stats.promptTokens);
    // The template renders the earlier reply without its thought, so the model reads again from where that reply's
    // generation prompt (`<|im_start|>assistant\n<think>\n`, 5 tokens) began: a checkpoint there (there was none
    // nearer) lets the hybrid model go back to it rather than to the start.
    expect(next.evaluatedPromptTokens).toBeLessThan(next.stats.promptTokens - b.stats.promptTokens + 5);
  });
});
