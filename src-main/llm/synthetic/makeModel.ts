import { chatTemplateText, type ChatTemplateName } from '../chatTemplates/chatTemplates.js';
import { GgmlType, type WritableGgmlType } from '../gguf/ggufFormat.js';
import { writeGguf, type GgufMetaValue, type GgufTensorSource } from '../gguf/ggufWriter.js';
import { QWEN35_0_8B, TINY_QWEN35, qwen35Metadata, qwen35Tensors, type Qwen35Shape } from './qwen35Layout.js';
import { loadQwenTokenizer } from './qwenTokenizer.js';
import { onesTensor, randomTensor, transformerMetadata, u32 } from './syntheticTensors.js';

/** A plain transformer (llama.cpp's qwen3 architecture). */
export interface Qwen3Shape {
  readonly arch: 'qwen3';
  readonly layers: number;
  readonly hidden: number;
  readonly heads: number;
  readonly kvHeads: number;
  readonly headDim: number;
  readonly ffn: number;
  readonly vocab: number;
  readonly contextLength: number;
}

export type ModelShape = Qwen3Shape | Qwen35Shape;

/**
 * Shapes of generated models. qwen3-0.6b has Qwen3-0.6B's real dimensions and qwen3.5-0.8b Qwen3.5-0.8B's
 * (hybrid linear / full attention, see qwen35Layout.ts), for benchmarks; tiny and tiny-qwen35 are for tests.
 */
export const MODEL_PRESETS = {
  tiny: {
    arch: 'qwen3',
    layers: 2,
    hidden: 128,
    heads: 4,
    kvHeads: 2,
    headDim: 32,
    ffn: 256,
    vocab: 151_936,
    contextLength: 8192,
  },
  'qwen3-0.6b': {
    arch: 'qwen3',
    layers: 28,
    hidden: 1024,
    heads: 16,
    kvHeads: 8,
    headDim: 128,
    ffn: 3072,
    vocab: 151_936,
    contextLength: 40_960,
  },
  'tiny-qwen35': TINY_QWEN35,
  'qwen3.5-0.8b': QWEN35_0_8B,
} as const satisfies Record<string, ModelShape>;
export type ModelPreset = keyof typeof MODEL_PRESETS;

export const QUANTS = { f32: GgmlType.F32, f16: GgmlType.F16, q8_0: GgmlType.Q8_0, q4_0: GgmlType.Q4_0 } as const;
export type QuantName = keyof typeof QUANTS;

/** llama_ftype values written to general.file_type. */
const FILE_TYPE: Record<QuantName, number> = { f32: 0, f16: 1, q4_0: 2, q8_0: 7 };

/** Metadata key that marks a generated model, so the app can label it as noise, never as an assistant. */
export const SYNTHETIC_MODEL_KEY = 'homebody.synthetic';

/** Metadata key naming the chat template a generated model carries (one of CHAT_TEMPLATE_NAMES), so tests can tell. */
export const CHAT_TEMPLATE_NAME_KEY = 'homebody.chat_template_name';

/**
 * The template a preset gets unless one is asked for: Qwen3.5's (llama.cpp's, which opens a thought) for the qwen35
 * presets, Qwen3's for the qwen3 ones. Every template is written with Qwen3's tokenizer, which has each of their
 * tags as one token: `<tool_call>` 151657, `</tool_call>` 151658, `<tool_response>` 151665, `</tool_response>`
 * 151666, `<think>` 151667, `</think>` 151668 (qwenTokenizer.test.ts checks them).
 */
export function defaultChatTemplate(preset: ModelPreset): ChatTemplateName {
  const arch = MODEL_PRESETS[preset].arch;
  switch (arch) {
    case 'qwen35':
      return 'qwen3.5';
    case 'qwen3':
      return 'qwen3';
    default:
      return arch satisfies never;
  }
}

export interface MakeModelOptions {
  readonly preset: ModelPreset;
  readonly quant: QuantName;
  readonly seed: number;
  readonly out: string;
  /** The chat template written into the model; default: defaultChatTemplate(preset). */
  readonly template?: ChatTemplateName;
  /**
   * Another family's template text instead (a test of a model Homebody has no dialect for); `template` then only
   * names it in the metadata.
   */
  readonly templateText?: string;
}

/** The layers of a qwen3 model: every layer full attention with q/k norms, tied embeddings. */
function qwen3Layout(shape: Qwen3Shape, type: WritableGgmlType, seed: number, realTokens: number) {
  const arch = shape.arch;
  const metadata: Array<readonly [string, GgufMetaValue]> = [
    ...transformerMetadata(shape),
    [`${arch}.rope.freq_base`, { type: 'f32', value: 1_000_000 }],
    [`${arch}.attention.layer_norm_rms_epsilon`, { type: 'f32', value: 1e-6 }],
  ];
  const q = shape.heads * shape.headDim;
  const kv = shape.kvHeads * shape.headDim;
  const tensors: GgufTensorSource[] = [
    randomTensor('token_embd.weight', [shape.hidden, shape.vocab], type, seed, realTokens),
    onesTensor('output_norm.weight', shape.hidden),
  ];
  for (let i = 0; i < shape.layers; i++) {
    const b = `blk.${i}`;
    tensors.push(
      onesTensor(`${b}.attn_norm.weight`, shape.hidden),
      randomTensor(`${b}.attn_q.weight`, [shape.hidden, q], type, seed),
      randomTensor(`${b}.attn_k.weight`, [shape.hidden, kv], type, seed),
      randomTensor(`${b}.attn_v.weight`, [shape.hidden, kv], type, seed),
      randomTensor(`${b}.attn_output.weight`, [q, shape.hidden], type, seed),
      onesTensor(`${b}.attn_q_norm.weight`, shape.headDim),
      onesTensor(`${b}.attn_k_norm.weight`, shape.headDim),
      onesTensor(`${b}.ffn_norm.weight`, shape.hidden),
      randomTensor(`${b}.ffn_gate.weight`, [shape.hidden, shape.ffn], type, seed),
      randomTensor(`${b}.ffn_up.weight`, [shape.hidden, shape.ffn], type, seed),
      randomTensor(`${b}.ffn_down.weight`, [shape.ffn, shape.hidden], type, seed),
    );
  }
  return { metadata, tensors };
}

/**
 * Writes a GGUF model of the preset's architecture (qwen3, or qwen35 for the Qwen3.5 presets) with seeded random
 * weights, the real Qwen3 tokenizer and a real chat template (Qwen3's or Qwen3.5's, see defaultChatTemplate). Norm
 * weights are 1 so activations stay finite; embeddings are tied, as in Qwen3-0.6B and Qwen3.5-0.8B.
 *
 * The Qwen3.5 presets keep Qwen3's tokenizer (151,669 tokens; the only one Homebody has) and pad it with unused
 * tokens to Qwen3.5's 248,320 embedding rows, as llama.cpp's converter pads any vocabulary to the embedding size:
 * the embedding and output matrices, the largest in a 0.8B model, then have their real size. The padding's rows are
 * zeros: with tied embeddings its logits are then 0, far below the best real token's, so the model never writes a
 * token that has no text (with random rows it did, 39% of the time on the qwen3.5 presets, and a reply showed
 * nothing for several steps). A trained model never writes its padding either.
 */
export function makeModel(options: MakeModelOptions): {
  path: string;
  bytes: number;
  shape: ModelShape;
  template: ChatTemplateName;
} {
  const shape: ModelShape = MODEL_PRESETS[options.preset];
  const template = options.template ?? defaultChatTemplate(options.preset);
  const type = QUANTS[options.quant];
  const tokenizer = loadQwenTokenizer(shape.vocab);
  const layout =
    shape.arch === 'qwen35'
      ? { metadata: qwen35Metadata(shape), tensors: qwen35Tensors(shape, type, options.seed, tokenizer.realTokenCount) }
      : qwen3Layout(shape, type, options.seed, tokenizer.realTokenCount);
  const metadata: Array<readonly [string, GgufMetaValue]> = [
    ['general.architecture', { type: 'string', value: shape.arch }],
    [
      'general.name',
      { type: 'string', value: `Homebody synthetic ${options.preset} ${options.quant} (random weights)` },
    ],
    ['general.file_type', u32(FILE_TYPE[options.quant])],
    ['general.quantization_version', u32(2)],
    [SYNTHETIC_MODEL_KEY, { type: 'bool', value: true }],
    ...layout.metadata,
    ...tokenizer.metadata,
    ['tokenizer.chat_template', { type: 'string', value: options.templateText ?? chatTemplateText(template) }],
    [CHAT_TEMPLATE_NAME_KEY, { type: 'string', value: template }],
  ];
  const { bytes } = writeGguf(options.out, metadata, layout.tensors);
  return { path: options.out, bytes, shape, template };
}
