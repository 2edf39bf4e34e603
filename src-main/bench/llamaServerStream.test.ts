import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SseReader, hasContent, isDelta, parseSseLine, streamTotals, type ChatChunk } from './llamaServerStream.js';

// One real answer of llama-server (built from node-llama-cpp's bundled llama.cpp, `--jinja`) to a second identical
// request on the tiny qwen35 model: 342 prompt tokens, 338 of them from its cache, 4 generated (max_tokens 4).
const FIXTURE = readFileSync(join(import.meta.dirname, 'fixtures', 'llamaServerChatStream.sse'), 'utf8');

const chunksOf = (events: ReturnType<SseReader['push']>): ChatChunk[] =>
  events.flatMap((e) => (e.kind === 'chunk' ? [e.chunk] : []));

function readAll(text: string, pieceLength: number) {
  const reader = new SseReader();
  const events = [];
  for (let i = 0; i < text.length; i += pieceLength) events.push(...reader.push(text.slice(i, i + pieceLength)));
  events.push(...reader.end());
  return events;
}

describe("llama-server's streamed chat answer", () => {
  it('reads the same events however the text is split, ending with [DONE]', () => {
    const whole = readAll(FIXTURE, FIXTURE.length);
    expect(whole).toHaveLength(6);
    expect(whole.at(-1)).toEqual({ kind: 'done' });
    for (const length of [1, 7, 64]) expect(readAll(FIXTURE, length)).toEqual(whole);
  });

  it('starts with the role delta, then text; the finish chunk and the usage chunk carry no delta', () => {
    const chunks = chunksOf(readAll(FIXTURE, FIXTURE.length));
    expect(chunks.map(isDelta)).toEqual([true, true, true, false, false]);
    expect(chunks.map(hasContent)).toEqual([false, true, true, false, false]);
  });

  it('takes the prompt, cached and generated tokens and the decode speed from the last chunk', () => {
    expect(streamTotals(chunksOf(readAll(FIXTURE, 100)))).toEqual({
      promptTokens: 342,
      cachedTokens: 338,
      completionTokens: 4,
      decodeTokensPerSecond: 312.5,
      finishReason: 'length',
    });
  });

  it('keeps an answer whose end llama-server refused after streaming it, and throws for a request refused at once', () => {
    const refused = {
      error: { code: 500, message: 'The model produced output that does not match the expected peg-native format' },
    };
    const streamed: ChatChunk = { choices: [{ delta: { reasoning_content: 'x' } }] };
    expect(streamTotals([streamed, refused])).toMatchObject({ endError: expect.stringMatching(/peg-native/) });
    expect(() => streamTotals([refused])).toThrowError(/llama-server answered with an error: The model produced/);
    expect(streamTotals([streamed])).not.toHaveProperty('endError');
  });

  it('falls back on timings when no usage was asked for', () => {
    const totals = streamTotals([
      { timings: { cache_n: 6341, prompt_n: 16, predicted_n: 8, predicted_per_second: 30 } },
    ]);
    expect(totals).toMatchObject({ promptTokens: 6357, cachedTokens: 6341, completionTokens: 8 });
    expect(totals.decodeTokensPerSecond).toBe(30);
  });

  it('gives no decode speed for one generated token, and nulls when the figures are missing', () => {
    expect(streamTotals([{ timings: { predicted_n: 1, predicted_per_second: 900 } }]).decodeTokensPerSecond).toBeNull();
    expect(streamTotals([])).toEqual({
      promptTokens: null,
      cachedTokens: null,
      completionTokens: null,
      decodeTokensPerSecond: null,
      finishReason: null,
    });
  });

  it('counts a thought and a tool call as content, as server-chat.cpp writes their deltas', () => {
    const thought: ChatChunk = { choices: [{ delta: { reasoning_content: 'Let me see' } }] };
    const call: ChatChunk = {
      choices: [{ delta: { tool_calls: [{ index: 0, id: 'x', type: 'function', function: { name: 'calculate' } }] } }],
    };
    for (const chunk of [thought, call]) {
      expect(isDelta(chunk)).toBe(true);
      expect(hasContent(chunk)).toBe(true);
    }
  });

  it('ignores pings, other fields and blank lines; reads CRLF line ends', () => {
    expect(parseSseLine(':')).toBeNull();
    expect(parseSseLine('')).toBeNull();
    expect(parseSseLine('event: message')).toBeNull();
    expect(parseSseLine('data: [DONE]\r')).toEqual({ kind: 'done' });
    expect(new SseReader().push(':\n\ndata: {"choices":[]}\r\n\r\n')).toEqual([
      { kind: 'chunk', chunk: { choices: [] } },
    ]);
  });

  it("throws llama-server's own message on an error chunk, and on a data line that is not JSON", () => {
    const error = parseSseLine(
      'data: {"error":{"code":400,"message":"the request exceeds the context size","type":"x"}}',
    );
    expect(error?.kind).toBe('chunk');
    expect(() => streamTotals([(error as { chunk: ChatChunk }).chunk])).toThrow(
      /llama-server answered with an error: the request exceeds the context size/,
    );
    expect(() => parseSseLine('data: {"choices": [')).toThrow(/not JSON/);
  });
});
