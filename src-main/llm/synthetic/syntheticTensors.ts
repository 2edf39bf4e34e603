import { GgmlType, type WritableGgmlType } from '../gguf/ggufFormat.js';
import type { GgufMetaValue, GgufTensorSource } from '../gguf/ggufWriter.js';
import { deriveSeed, mulberry32 } from './prng.js';
import { encodeValues } from './quantize.js';

const ROWS_PER_CHUNK = 256;

/**
 * A matrix of seeded uniform values in [-0.5, 0.5), streamed a few rows at a time so that even the
 * embedding matrix never sits in memory whole. Each tensor's values depend on the seed and its name only.
 * Rows from `zeroRowsFrom` on are zeros (the embedding rows of a vocabulary's padding, see makeModel.ts).
 */
export function randomTensor(
  name: string,
  dims: [number, number],
  type: WritableGgmlType,
  seed: number,
  zeroRowsFrom = Infinity,
): GgufTensorSource {
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
        for (let i = 0; i < n; i++) {
          // The stream of values is the same either way, so the other rows do not change with `zeroRowsFrom`.
          const value = (next() - 0.5) * scale;
          values[i] = row + Math.floor(i / cols) >= zeroRowsFrom ? 0 : value;
        }
        emit(encodeValues(type, values));
      }
    },
  };
}

/** A small f32 vector whose values `valueAt` gives (norm weights, biases, decay rates): never quantized. */
export function vectorTensor(name: string, size: number, valueAt: (index: number) => number): GgufTensorSource {
  return {
    name,
    dims: [size],
    type: GgmlType.F32,
    write(emit) {
      const values = new Float32Array(size);
      for (let i = 0; i < size; i++) values[i] = valueAt(i);
      emit(encodeValues(GgmlType.F32, values));
    },
  };
}

/** Norm weights of 1, so activations keep their scale. */
export function onesTensor(name: string, size: number): GgufTensorSource {
  return vectorTensor(name, size, () => 1);
}

/** The shape keys every generated architecture writes first, in this order (the files' bytes depend on it). */
export interface TransformerShape {
  readonly arch: string;
  readonly contextLength: number;
  readonly hidden: number;
  readonly layers: number;
  readonly ffn: number;
  readonly heads: number;
  readonly kvHeads: number;
  readonly headDim: number;
}

export const u32 = (value: number): GgufMetaValue => ({ type: 'u32', value });

export function transformerMetadata(shape: TransformerShape): Array<readonly [string, GgufMetaValue]> {
  const arch = shape.arch;
  return [
    [`${arch}.context_length`, u32(shape.contextLength)],
    [`${arch}.embedding_length`, u32(shape.hidden)],
    [`${arch}.block_count`, u32(shape.layers)],
    [`${arch}.feed_forward_length`, u32(shape.ffn)],
    [`${arch}.attention.head_count`, u32(shape.heads)],
    [`${arch}.attention.head_count_kv`, u32(shape.kvHeads)],
    [`${arch}.attention.key_length`, u32(shape.headDim)],
    [`${arch}.attention.value_length`, u32(shape.headDim)],
  ];
}
