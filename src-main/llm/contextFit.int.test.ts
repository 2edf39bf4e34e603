import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ChatTurn, GenerateOptions } from './engineTypes.js';
import { omissionNote } from './fitHistory.js';
import { scriptedEngine } from '../testing/scriptedEngine.js';

// Real inference on the generated tiny model with a small context: a long task must keep working past it.
const CONTEXT = 512;
const PLAN_PROMPT = 'Read my plan';
const GARDEN_PROMPT = 'Read all my garden files';
const engine = scriptedEngine(
  {
    [PLAN_PROMPT]: [{ name: 'read_text', params: '{"path": "plan.txt"}' }],
    [GARDEN_PROMPT]: [1, 2, 3, 4, 5, 6].map((i) => ({ name: 'read_text', params: `{"path": "f${i}.txt"}` })),
  },
  { gpu: false, contextSize: CONTEXT },
  { unscriptedTokens: Infinity },
);
beforeAll(async () => {
  expect((await engine.load(inject('tinyModelPath'))).status).toBe('ready');
});
afterAll(() => engine.dispose());

function request(overrides: Partial<GenerateOptions> = {}): GenerateOptions {
  return {
    history: [],
    prompt: 'Hello',
    maxTokens: 8,
    temperature: 0,
    signal: new AbortController().signal,
    onText: () => undefined,
    onReasoning: () => undefined,
    ...overrides,
  };
}

const READ_TEXT = {
  name: 'read_text',
  description: 'Read a text file',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', maxLength: 20 } },
    required: ['path'],
    additionalProperties: false,
  },
};
const SENTENCE = 'Here is one more detail about the garden plan for the spring, with beds, paths and a pond. ';

describe('LlamaEngine with a 512-token context', () => {
  it('keeps replying as a task grows past the context, leaving the oldest turns out', async () => {
    const history: ChatTurn[] = [];
    const dropped: number[] = [];
    for (let i = 0; i < 8; i++) {
      const prompt = `Step ${i}: ${SENTENCE.repeat(2)}`;
      const result = await engine.generate(request({ history, prompt }));
      expect(result.stopReason).toBe('maxTokens');
      expect(result.stats.promptTokens + result.stats.completionTokens).toBeLessThanOrEqual(CONTEXT);
      dropped.push(result.droppedTurns ?? 0);
      history.push({ role: 'user', text: prompt }, { role: 'assistant', text: `Noted step ${i}. ${SENTENCE}` });
    }
    // The first replies saw everything; later ones had earlier turns left out, more as the task grew.
    expect(dropped[0]).toBe(0);
    expect(dropped.at(-1)).toBeGreaterThan(0);
    for (let i = 1; i < dropped.length; i++) expect(dropped[i]).toBeGreaterThanOrEqual(dropped[i - 1]!);
  });

  it('refuses a single message too long for the context, saying what to do', async () => {
    await expect(engine.generate(request({ prompt: SENTENCE.repeat(20) }))).rejects.toMatchObject({
      code: 'CONTEXT_OVERFLOW',
      message: expect.stringMatching(/too long to send: .*context size.*Shorten it or split it/),
    });
  });

  it('cuts a tool result too long for the context before the model reads it, and finishes the reply', async () => {
    const result = await engine.generate(
      request({
        prompt: PLAN_PROMPT,
        maxTokens: 40,
        tools: [READ_TEXT],
        onToolCall: async () => SENTENCE.repeat(60),
      }),
    );
    expect(result.stopReason).toBe('complete');
    expect(result.stats.promptTokens).toBeLessThanOrEqual(CONTEXT);
  });

  it('stops a reply whose tool results fill the context with CONTEXT_OVERFLOW saying so', async () => {
    const reply = engine.generate(
      request({
        maxTokens: 40,
        prompt: GARDEN_PROMPT,
        history: [
          { role: 'user', text: `Plan the garden. ${SENTENCE}` },
          { role: 'assistant', text: SENTENCE.repeat(3) },
        ],
        tools: [READ_TEXT],
        onToolCall: async () => SENTENCE.repeat(30),
      }),
    );
    await expect(reply).rejects.toMatchObject({
      code: 'CONTEXT_OVERFLOW',
      message: expect.stringMatching(/context filled up while it was replying/),
    });
    // The engine goes on: the next reply runs as usual.
    expect((await engine.generate(request())).stopReason).toBe('maxTokens');
  });

  it('writes the note the model reads in place of the left-out turns', () => {
    expect(omissionNote(4)).toBe("[4 earlier messages were left out to fit the model's context.]");
  });
});
