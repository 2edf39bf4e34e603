import { GgmlType, type WritableGgmlType } from '../gguf/ggufFormat.js';
import { writeGguf, type GgufMetaValue, type GgufTensorSource } from '../gguf/ggufWriter.js';
import { deriveSeed, mulberry32 } from './prng.js';
import { encodeValues } from './quantize.js';
import { loadQwenTokenizer } from './qwenTokenizer.js';

export interface ModelShape {
  readonly layers: number;
  readonly hidden: number;
  readonly heads: number;
  readonly kvHeads: number;
  readonly headDim: number;
  readonly ffn: number;
  readonly vocab: number;
  readonly contextLength: number;
}

/** Shapes of generated models. qwen3-0.6b has Qwen3-0.6B's real dimensions, for benchmarks. */
export const MODEL_PRESETS = {
  tiny: { layers: 2, hidden: 128, heads: 4, kvHeads: 2, headDim: 32, ffn: 256, vocab: 151_936, contextLength: 8192 },
  'qwen3-0.6b': {
    layers: 28,
    hidden: 1024,
    heads: 16,
    kvHeads: 8,
    headDim: 128,
    ffn: 3072,
    vocab: 151_936,
    contextLength: 40_960,
  },
} as const satisfies Record<string, ModelShape>;
export type ModelPreset = keyof typeof MODEL_PRESETS;

export const QUANTS = { f32: GgmlType.F32, f16: GgmlType.F16, q8_0: GgmlType.Q8_0, q4_0: GgmlType.Q4_0 } as const;
export type QuantName = keyof typeof QUANTS;

/** llama_ftype values written to general.file_type. */
const FILE_TYPE: Record<QuantName, number> = { f32: 0, f16: 1, q4_0: 2, q8_0: 7 };

/** Metadata key that marks a generated model, so the app can label it as noise, never as an assistant. */
export const SYNTHETIC_MODEL_KEY = 'homebody.synthetic';

export interface MakeModelOptions {
  readonly preset: ModelPreset;
  readonly quant: QuantName;
  readonly seed: number;
  readonly out: string;
}

const ROWS_PER_CHUNK = 256;

function randomTensor(name: string, dims: [number, number], type: WritableGgmlType, seed: number): GgufTensorSource {
  const [cols, rows] = dims;
  // Uniform in [-0.5, 0.5): wide enough that greedy decoding wanders over the vocabulary instead of
  // repeating one token, which makes streaming visible in tests. Speed does not depend on the values.
  const scale = 1;
  return {
    name,
    dims,
    type,
    write(emit) {
      const next = mulberry32(deriveSeed(seed, name));
      const chunk = new Float32Array(cols * ROWS_PER_CHUNK);
      for (let row = 0; row < rows; row += ROWS_PER_CHUNK) {
        const n = Math.min(ROWS_PER_CHUNK, rows - row) * cols;
        const values = n === chunk.length ? chunk : chunk.subarray(0, n);
        for (let i = 0; i < n; i++) values[i] = (next() - 0.5) * scale;
        emit(encodeValues(type, values));
      }
    },
  };
}

function onesTensor(name: string, size: number): GgufTensorSource {
  return {
    name,
    dims: [size],
    type: GgmlType.F32,
    write(emit) {
      emit(encodeValues(GgmlType.F32, new Float32Array(size).fill(1)));
    },
  };
}

/**
 * Writes a GGUF model with the qwen3 architecture, seeded random weights and
 * the real Qwen3 tokenizer and chat template. Norm weights are 1 so
 * activations stay finite; embeddings are tied, as in Qwen3-0.6B.
 */
export function makeModel(options: MakeModelOptions): { path: string; bytes: number; shape: ModelShape } {
  const shape: ModelShape = MODEL_PRESETS[options.preset];
  const type = QUANTS[options.quant];
  const tokenizer = loadQwenTokenizer(shape.vocab);
  const arch = 'qwen3';
  const u32 = (value: number): GgufMetaValue => ({ type: 'u32', value });
  const metadata: Array<readonly [string, GgufMetaValue]> = [
    ['general.architecture', { type: 'string', value: arch }],
    [
      'general.name',
      { type: 'string', value: `Homebody synthetic ${options.preset} ${options.quant} (random weights)` },
    ],
    ['general.file_type', u32(FILE_TYPE[options.quant])],
    ['general.quantization_version', u32(2)],
    [SYNTHETIC_MODEL_KEY, { type: 'bool', value: true }],
    [`${arch}.context_length`, u32(shape.contextLength)],
    [`${arch}.embedding_length`, u32(shape.hidden)],
    [`${arch}.block_count`, u32(shape.layers)],
    [`${arch}.feed_forward_length`, u32(shape.ffn)],
    [`${arch}.attention.head_count`, u32(shape.heads)],
    [`${arch}.attention.head_count_kv`, u32(shape.kvHeads)],
    [`${arch}.attention.key_length`, u32(shape.headDim)],
    [`${arch}.attention.value_length`, u32(shape.headDim)],
    [`${arch}.rope.freq_base`, { type: 'f32', value: 1_000_000 }],
    [`${arch}.attention.layer_norm_rms_epsilon`, { type: 'f32', value: 1e-6 }],
    ...tokenizer.metadata,
  ];

  const q = shape.heads * shape.headDim;
  const kv = shape.kvHeads * shape.headDim;
  const tensors: GgufTensorSource[] = [
    randomTensor('token_embd.weight', [shape.hidden, shape.vocab], type, options.seed),
    onesTensor('output_norm.weight', shape.hidden),
  ];
  for (let i = 0; i < shape.layers; i++) {
    const b = `blk.${i}`;
    tensors.push(
      onesTensor(`${b}.attn_norm.weight`, shape.hidden),
      randomTensor(`${b}.attn_q.weight`, [shape.hidden, q], type, options.seed),
      randomTensor(`${b}.attn_k.weight`, [shape.hidden, kv], type, options.seed),
      randomTensor(`${b}.attn_v.weight`, [shape.hidden, kv], type, options.seed),
      randomTensor(`${b}.attn_output.weight`, [q, shape.hidden], type, options.seed),
      onesTensor(`${b}.attn_q_norm.weight`, shape.headDim),
      onesTensor(`${b}.attn_k_norm.weight`, shape.headDim),
      onesTensor(`${b}.ffn_norm.weight`, shape.hidden),
      randomTensor(`${b}.ffn_gate.weight`, [shape.hidden, shape.ffn], type, options.seed),
      randomTensor(`${b}.ffn_up.weight`, [shape.hidden, shape.ffn], type, options.seed),
      randomTensor(`${b}.ffn_down.weight`, [shape.ffn, shape.hidden], type, options.seed),
    );
  }
  const { bytes } = writeGguf(options.out, metadata, tensors);
  return { path: options.out, bytes, shape };
}
