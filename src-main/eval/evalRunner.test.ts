import { describe, expect, it } from 'vitest';
import type { ModelState } from '../../src-shared/contract/index.js';
import type { ChatEngine, GenerateResult } from '../llm/engineTypes.js';
import { parseWrittenJson, plainValue } from '../llm/writtenJson.js';
import type { EvalCase, ExpectedCall } from './evalCase.js';
import { evaluateModel } from './evalRunner.js';

const READY: ModelState = {
  status: 'ready',
  info: {
    path: '/m.gguf',
    name: 'm',
    architecture: 'qwen3',
    sizeBytes: 1,
    contextSize: 2048,
    trainContextSize: 2048,
    synthetic: true,
    gpu: 'cpu',
  },
};

/** An engine that makes one call, its arguments as the text a model wrote; `written: false` hands args only. */
function callingEngine(argsText: string, written = true): ChatEngine {
  const value = parseWrittenJson(argsText);
  return {
    state: READY,
    onStateChange: () => () => undefined,
    load: async () => READY,
    dispose: async () => undefined,
    async generate(options): Promise<GenerateResult> {
      await options.onToolCall?.('count_items', plainValue(value), written ? value : undefined);
      const stats = { promptTokens: 10, completionTokens: 5, ttftMs: 1, tokensPerSecond: 50 };
      return { text: '', reasoning: '', stopReason: 'complete', stats, evaluatedPromptTokens: 10 };
    },
  };
}

const expected = parseWrittenJson('{"count_items": {"count": [5], "label": ["a", ""]}}') as unknown as ExpectedCall;
const countCase: EvalCase = {
  id: 'count_0',
  category: 'simple_python',
  suite: 'BFCL simple_python',
  history: [],
  prompt: 'Count five items.',
  tools: [
    {
      name: 'count_items',
      description: 'Counts items.',
      parameters: {
        type: 'dict',
        properties: { count: { type: 'integer' }, label: { type: 'string' } },
        required: ['count'],
      },
    },
  ],
  expected: [expected],
  rule: 'simple',
  results: {},
  unsafe: [],
  recovery: false,
};

async function run(argsText: string, written = true) {
  const result = await evaluateModel({ path: '/m.gguf', label: 'm' }, [countCase], {
    createEngine: () => callingEngine(argsText, written),
    builtins: new Map(),
    signal: new AbortController().signal,
    rssBytes: () => 0,
  });
  return result.cases[0]!;
}

describe('evaluation runner: the arguments as the model wrote them', () => {
  it('scores the written form: an int written as a float is the type error BFCL finds', async () => {
    expect(await run('{"count": 5}')).toMatchObject({ correct: true, validArgs: true });
    const asFloat = await run('{"count": 5.0}');
    expect(asFloat).toMatchObject({
      correct: false,
      // Valid against the JSON Schema (5.0 is an integer there); wrong by BFCL's rules.
      validArgs: true,
      failure: "Incorrect type for parameter 'count'. Expected type integer, got float. Parameter value: 5.0.",
    });
    // The result records plain JSON: what the handler got.
    expect(asFloat.calls).toEqual([
      { name: 'count_items', args: { count: 5 }, valid: true, decision: 'auto', result: '{"status":"ok"}' },
    ]);
  });

  it('leaves out an optional argument given as null in the written form too', async () => {
    expect(await run('{"count": 5, "label": null}')).toMatchObject({ correct: true });
    expect((await run('{"count": 5.0, "label": null}')).correct).toBe(false);
  });

  it('keeps the JavaScript reading for a call with no written form', async () => {
    expect(await run('{"count": 5.0}', false)).toMatchObject({ correct: true });
  });
});
