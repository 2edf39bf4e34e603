/**
 * Constants of the GGUF file format (version 3) and the ggml tensor types
 * Homebody reads or writes. Sizes follow ggml's type traits: a quantized type
 * stores `blockBytes` bytes for every `blockSize` elements along dimension 0.
 */

export const GGUF_MAGIC = 0x46554747; // "GGUF" read as a little-endian uint32
export const GGUF_VERSION = 3;
export const GGUF_DEFAULT_ALIGNMENT = 32;

export const GgufValueType = {
  UINT8: 0,
  INT8: 1,
  UINT16: 2,
  INT16: 3,
  UINT32: 4,
  INT32: 5,
  FLOAT32: 6,
  BOOL: 7,
  STRING: 8,
  ARRAY: 9,
  UINT64: 10,
  INT64: 11,
  FLOAT64: 12,
} as const;
export type GgufValueType = (typeof GgufValueType)[keyof typeof GgufValueType];

export interface GgmlTypeTraits {
  readonly name: string;
  readonly blockSize: number;
  readonly blockBytes: number;
}

/** ggml_type ids and their storage layout (ggml/include/ggml.h, ggml.c type_traits). */
export const GGML_TYPES: ReadonlyMap<number, GgmlTypeTraits> = new Map([
  [0, { name: 'F32', blockSize: 1, blockBytes: 4 }],
  [1, { name: 'F16', blockSize: 1, blockBytes: 2 }],
  [2, { name: 'Q4_0', blockSize: 32, blockBytes: 18 }],
  [3, { name: 'Q4_1', blockSize: 32, blockBytes: 20 }],
  [6, { name: 'Q5_0', blockSize: 32, blockBytes: 22 }],
  [7, { name: 'Q5_1', blockSize: 32, blockBytes: 24 }],
  [8, { name: 'Q8_0', blockSize: 32, blockBytes: 34 }],
  [9, { name: 'Q8_1', blockSize: 32, blockBytes: 36 }],
  [10, { name: 'Q2_K', blockSize: 256, blockBytes: 84 }],
  [11, { name: 'Q3_K', blockSize: 256, blockBytes: 110 }],
  [12, { name: 'Q4_K', blockSize: 256, blockBytes: 144 }],
  [13, { name: 'Q5_K', blockSize: 256, blockBytes: 176 }],
  [14, { name: 'Q6_K', blockSize: 256, blockBytes: 210 }],
  [15, { name: 'Q8_K', blockSize: 256, blockBytes: 292 }],
  [16, { name: 'IQ2_XXS', blockSize: 256, blockBytes: 66 }],
  [17, { name: 'IQ2_XS', blockSize: 256, blockBytes: 74 }],
  [18, { name: 'IQ3_XXS', blockSize: 256, blockBytes: 98 }],
  [19, { name: 'IQ1_S', blockSize: 256, blockBytes: 50 }],
  [20, { name: 'IQ4_NL', blockSize: 32, blockBytes: 18 }],
  [21, { name: 'IQ3_S', blockSize: 256, blockBytes: 110 }],
  [22, { name: 'IQ2_S', blockSize: 256, blockBytes: 82 }],
  [23, { name: 'IQ4_XS', blockSize: 256, blockBytes: 136 }],
  [24, { name: 'I8', blockSize: 1, blockBytes: 1 }],
  [25, { name: 'I16', blockSize: 1, blockBytes: 2 }],
  [26, { name: 'I32', blockSize: 1, blockBytes: 4 }],
  [27, { name: 'I64', blockSize: 1, blockBytes: 8 }],
  [28, { name: 'F64', blockSize: 1, blockBytes: 8 }],
  [29, { name: 'IQ1_M', blockSize: 256, blockBytes: 56 }],
  [30, { name: 'BF16', blockSize: 1, blockBytes: 2 }],
  [34, { name: 'TQ1_0', blockSize: 256, blockBytes: 54 }],
  [35, { name: 'TQ2_0', blockSize: 256, blockBytes: 66 }],
  [39, { name: 'MXFP4', blockSize: 32, blockBytes: 17 }],
]);

export const GgmlType = { F32: 0, F16: 1, Q4_0: 2, Q8_0: 8 } as const;
export type WritableGgmlType = (typeof GgmlType)[keyof typeof GgmlType];

/** Bytes a tensor of `type` and `dims` occupies, or undefined for a type this table does not know. */
export function tensorByteSize(type: number, dims: readonly bigint[]): bigint | undefined {
  const traits = GGML_TYPES.get(type);
  if (!traits) return undefined;
  const elements = dims.reduce((a, b) => a * b, 1n);
  return (elements / BigInt(traits.blockSize)) * BigInt(traits.blockBytes);
}

export function alignUp(value: bigint, alignment: bigint): bigint {
  return ((value + alignment - 1n) / alignment) * alignment;
}
