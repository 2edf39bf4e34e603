import { GgmlType, type WritableGgmlType } from '../gguf/ggufFormat.js';
import type { GgufMetaValue, GgufTensorSource } from '../gguf/ggufWriter.js';
import { deriveSeed, mulberry32 } from './prng.js';
import { onesTensor, randomTensor, transformerMetadata, u32, vectorTensor } from './syntheticTensors.js';

/**
 * The tensor layout and metadata of llama.cpp's `qwen35` architecture (Qwen3.5 dense models), as llama.cpp's
 * loader (src/models/qwen35.cpp) reads them and its converter (conversion/qwen.py, Qwen3_5TextModel) writes them.
 *
 * A Qwen3.5 model is a hybrid: of every `fullAttentionInterval` layers, the last is full (softmax) attention and
 * the others are linear attention (a gated delta net, a recurrent state per sequence, with a short causal
 * convolution before it). llama.cpp derives the pattern from `qwen35.full_attention_interval`: layer i is
 * recurrent unless (i + 1) % interval == 0.
 *
 * Full-attention layer: attn_q projects to query + output gate (2 × heads × headDim), attn_k / attn_v to the KV
 * heads, RMS norms on q and k per head, sigmoid-gated output, interleaved multi-section RoPE on a quarter of each
 * head (rope.dimension_count, rope.dimension_sections).
 * Linear-attention layer: attn_qkv (q and k of `linearKeyHeads`, v of `linearValueHeads`), attn_gate (z),
 * ssm_conv1d over the qkv channels, ssm_alpha / ssm_beta (per value head), ssm_a (the decay, negative) and
 * ssm_dt.bias, ssm_norm (gated RMS norm per head), ssm_out.
 * Every layer: attn_norm, post_attention_norm, a SwiGLU FFN. Embeddings are tied (no output.weight), as in the
 * small Qwen3.5 models.
 *
 * As the converter does, 1-D tensors (norms, ssm_a, ssm_dt.bias) and ssm_conv1d stay f32; every other matrix
 * takes the file's quantization. Qwen3.5 checkpoints also carry a multi-token-prediction block, which the
 * converter appends as an extra layer; llama.cpp skips it unless asked to load it, so it is left out here.
 */
export interface Qwen35Shape {
  readonly arch: 'qwen35';
  readonly layers: number;
  readonly hidden: number;
  /** Full-attention query heads, KV heads and their size. */
  readonly heads: number;
  readonly kvHeads: number;
  readonly headDim: number;
  /** Rotary dimensions per head (partial rotary) and their split into llama.cpp's four M-RoPE sections. */
  readonly ropeDims: number;
  readonly ropeSections: readonly [number, number, number, number];
  readonly ropeFreqBase: number;
  readonly ffn: number;
  readonly vocab: number;
  readonly contextLength: number;
  readonly fullAttentionInterval: number;
  /** Linear attention: key heads (llama.cpp's ssm.group_count), value heads (ssm.time_step_rank), head size. */
  readonly linearKeyHeads: number;
  readonly linearValueHeads: number;
  readonly linearHeadDim: number;
  readonly convKernel: number;
}

/**
 * Qwen3.5-0.8B's text model (Qwen/Qwen3.5-0.8B config.json, text_config): hidden_size 1024, num_hidden_layers 24,
 * layer_types 3 × linear_attention then 1 × full_attention (full_attention_interval 4), num_attention_heads 8,
 * num_key_value_heads 2, head_dim 256, partial_rotary_factor 0.25 (64 rotary dimensions, mrope_section
 * [11, 11, 10]), rope_theta 10,000,000, intermediate_size 3584, linear_num_key_heads 16,
 * linear_num_value_heads 16, linear_key_head_dim = linear_value_head_dim 128, linear_conv_kernel_dim 4,
 * vocab_size 248,320, tie_word_embeddings true, max_position_embeddings 262,144, rms_norm_eps 1e-6.
 */
export const QWEN35_0_8B: Qwen35Shape = {
  arch: 'qwen35',
  layers: 24,
  hidden: 1024,
  heads: 8,
  kvHeads: 2,
  headDim: 256,
  ropeDims: 64,
  ropeSections: [11, 11, 10, 0],
  ropeFreqBase: 10_000_000,
  ffn: 3584,
  vocab: 248_320,
  contextLength: 262_144,
  fullAttentionInterval: 4,
  linearKeyHeads: 16,
  linearValueHeads: 16,
  linearHeadDim: 128,
  convKernel: 4,
};

/** For tests: the same layer types and vocabulary (3 linear-attention layers, then 1 full-attention), tiny widths. */
export const TINY_QWEN35: Qwen35Shape = {
  arch: 'qwen35',
  layers: 4,
  hidden: 128,
  heads: 2,
  kvHeads: 1,
  headDim: 64,
  ropeDims: 16,
  ropeSections: [3, 3, 2, 0],
  ropeFreqBase: 10_000_000,
  ffn: 256,
  vocab: 248_320,
  contextLength: 8192,
  fullAttentionInterval: 4,
  linearKeyHeads: 2,
  linearValueHeads: 2,
  linearHeadDim: 32,
  convKernel: 4,
};

/** Whether layer `index` is a linear-attention (recurrent) layer, by llama.cpp's rule for qwen35. */
export function isLinearAttentionLayer(shape: Qwen35Shape, index: number): boolean {
  return (index + 1) % shape.fullAttentionInterval !== 0;
}

/** The architecture's own metadata keys (general.* and the tokenizer's are the caller's). */
export function qwen35Metadata(shape: Qwen35Shape): Array<readonly [string, GgufMetaValue]> {
  const arch = shape.arch;
  const sections = shape.ropeSections.reduce((a, b) => a + b, 0);
  if (sections * 2 > shape.ropeDims || shape.ropeDims > shape.headDim) {
    throw new Error(`qwen35: rope sections ${shape.ropeSections.join(',')} do not fit ${shape.ropeDims} rotary dims`);
  }
  return [
    ...transformerMetadata(shape),
    [`${arch}.attention.layer_norm_rms_epsilon`, { type: 'f32', value: 1e-6 }],
    [`${arch}.rope.freq_base`, { type: 'f32', value: shape.ropeFreqBase }],
    [`${arch}.rope.dimension_count`, u32(shape.ropeDims)],
    [`${arch}.rope.dimension_sections`, { type: 'i32s', value: [...shape.ropeSections] }],
    [`${arch}.full_attention_interval`, u32(shape.fullAttentionInterval)],
    [`${arch}.ssm.conv_kernel`, u32(shape.convKernel)],
    [`${arch}.ssm.state_size`, u32(shape.linearHeadDim)],
    [`${arch}.ssm.group_count`, u32(shape.linearKeyHeads)],
    [`${arch}.ssm.time_step_rank`, u32(shape.linearValueHeads)],
    [`${arch}.ssm.inner_size`, u32(shape.linearHeadDim * shape.linearValueHeads)],
  ];
}

/** Every tensor of the model, in the order the converter writes them. */
export function qwen35Tensors(
  shape: Qwen35Shape,
  type: WritableGgmlType,
  seed: number,
  /** Rows of the embedding that hold real tokens; the padding after them is zeros (makeModel.ts). */
  realTokens = shape.vocab,
): GgufTensorSource[] {
  const { hidden, ffn } = shape;
  const random = (name: string, dims: [number, number]) => randomTensor(name, dims, type, seed);
  const keyDim = shape.linearKeyHeads * shape.linearHeadDim;
  const valueDim = shape.linearValueHeads * shape.linearHeadDim;
  const convChannels = 2 * keyDim + valueDim;
  const tensors: GgufTensorSource[] = [
    randomTensor('token_embd.weight', [hidden, shape.vocab], type, seed, realTokens),
  ];
  for (let i = 0; i < shape.layers; i++) {
    const b = `blk.${i}`;
    tensors.push(onesTensor(`${b}.attn_norm.weight`, hidden), onesTensor(`${b}.post_attention_norm.weight`, hidden));
    if (isLinearAttentionLayer(shape, i)) {
      const next = mulberry32(deriveSeed(seed, `${b}.ssm_a`));
      const decay = Array.from({ length: shape.linearValueHeads }, () => -(1 + 15 * next()));
      tensors.push(
        random(`${b}.attn_qkv.weight`, [hidden, convChannels]),
        random(`${b}.attn_gate.weight`, [hidden, valueDim]),
        // f32 like the converter's: ggml's ssm_conv takes f32 kernels.
        randomTensor(`${b}.ssm_conv1d.weight`, [shape.convKernel, convChannels], GgmlType.F32, seed),
        // The converter stores -exp(A_log); Qwen initializes A in (0, 16]. Negative keeps the state decaying,
        // so a long prompt cannot overflow it.
        vectorTensor(`${b}.ssm_a`, shape.linearValueHeads, (h) => decay[h] ?? -1),
        vectorTensor(`${b}.ssm_dt.bias`, shape.linearValueHeads, () => 1),
        random(`${b}.ssm_alpha.weight`, [hidden, shape.linearValueHeads]),
        random(`${b}.ssm_beta.weight`, [hidden, shape.linearValueHeads]),
        onesTensor(`${b}.ssm_norm.weight`, shape.linearHeadDim),
        random(`${b}.ssm_out.weight`, [valueDim, hidden]),
      );
    } else {
      const q = shape.heads * shape.headDim;
      const kv = shape.kvHeads * shape.headDim;
      tensors.push(
        // Query and its output gate, interleaved per head.
        random(`${b}.attn_q.weight`, [hidden, 2 * q]),
        random(`${b}.attn_k.weight`, [hidden, kv]),
        random(`${b}.attn_v.weight`, [hidden, kv]),
        random(`${b}.attn_output.weight`, [q, hidden]),
        onesTensor(`${b}.attn_q_norm.weight`, shape.headDim),
        onesTensor(`${b}.attn_k_norm.weight`, shape.headDim),
      );
    }
    tensors.push(
      random(`${b}.ffn_gate.weight`, [hidden, ffn]),
      random(`${b}.ffn_up.weight`, [hidden, ffn]),
      random(`${b}.ffn_down.weight`, [ffn, hidden]),
    );
  }
  tensors.push(onesTensor('output_norm.weight', hidden));
  return tensors;
}
