import type { BenchResult, ModelFit, Speed } from '../../src-shared/contract/index.js';
import { kvCacheTypeFor, type KvCacheChoice, type KvCacheType } from './memoryPlan.js';

/**
 * Whether a model fits in this machine's memory and how fast to expect it, from figures alone (no loading).
 * The reference figures were measured on a 2-core, 24 GiB machine with a Q4_0 file of Qwen3-0.6B's shape
 * (../shared/MEASURED.md): decode is bound by how many bytes of weights each token reads, so it scales with size.
 */
export const REFERENCE = {
  sizeBytes: 341e6,
  threads: 2,
  decodeTokensPerSecond: 36,
  promptTokensPerSecond: 320,
  /** Memory read bandwidth measured there; decode cannot beat bandwidth / size. */
  bandwidthBytesPerSecond: 38e9,
} as const;

/** Qwen3-0.6B: 28 layers × (K + V) × 8 KV heads × 128 dims × 2 bytes (f16) per token. */
const REFERENCE_KV_BYTES_PER_TOKEN = 28 * 2 * 8 * 128 * 2;
const REFERENCE_PARAMS = 0.6e9;
/** Compute buffers and the runtime besides weights and KV cache. */
const OVERHEAD_BYTES = 300e6;
/** `yes` leaves this share of the free memory for everything else. */
const MARGIN = 0.8;

/** Bits per weight of common GGUF quantizations (llama.cpp's figures, rounded). */
const BITS_PER_WEIGHT: Record<string, number> = {
  F32: 32,
  F16: 16,
  BF16: 16,
  Q8_0: 8.5,
  Q6_K: 6.56,
  Q5_K_M: 5.69,
  Q5_K_S: 5.54,
  Q5_0: 5.5,
  Q4_K_M: 4.85,
  Q4_K_S: 4.58,
  Q4_0: 4.5,
  IQ4_XS: 4.25,
  IQ4_NL: 4.5,
  Q3_K_M: 3.91,
  Q3_K_S: 3.5,
  Q2_K: 3.35,
};

export function bitsPerWeight(quantization: string | null | undefined): number | undefined {
  return quantization ? BITS_PER_WEIGHT[quantization.toUpperCase()] : undefined;
}

/** Parameters from a name such as "BotPsy 0.8B" or "Qwen3-1.7B-Instruct"; undefined when it says none. */
export function parametersFromName(name: string): number | undefined {
  const match = /(\d+(?:\.\d+)?)\s*([BM])(?![a-z])/i.exec(name);
  if (!match) return undefined;
  const n = Number(match[1]) * (match[2]!.toUpperCase() === 'B' ? 1e9 : 1e6);
  return n > 0 ? n : undefined;
}

/** File size from parameters × bits per weight, when the real size is not known. */
export function estimateSizeBytes(parameters: number, bits: number): number {
  return Math.round((parameters * bits) / 8);
}

export interface KvShape {
  /** Layers that keep a KV cache (attention layers; a hybrid model's recurrent layers keep a small fixed state). */
  readonly layers: number;
  readonly kvHeads: number;
  readonly headDim: number;
}

/** Bytes per stored number: f16, or q8_0's 32 numbers in 34 bytes. */
const KV_BYTES_PER_ELEMENT: Record<KvCacheType, number> = { f16: 2, q8_0: 34 / 32 };

/**
 * KV cache bytes for `contextSize` tokens in the engine's KV type ('auto' by default: f16 unless that is large, see
 * memoryPlan.ts); from the shape (where only `layers` of the blocks are attention layers, e.g. one in four for
 * qwen35), else scaled from Qwen3-0.6B by parameters.
 */
export function kvCacheBytes(
  contextSize: number,
  shape?: KvShape,
  parameters?: number,
  kvCache: KvCacheChoice = 'auto',
): number | null {
  const f16 = shape
    ? contextSize * shape.layers * 2 * shape.kvHeads * shape.headDim * 2
    : parameters
      ? contextSize * REFERENCE_KV_BYTES_PER_TOKEN * (parameters / REFERENCE_PARAMS)
      : null;
  if (f16 === null) return null;
  return Math.round((f16 * KV_BYTES_PER_ELEMENT[kvCacheTypeFor(kvCache, f16)]) / 2);
}

export function requiredBytes(sizeBytes: number, kvBytes: number | null): number {
  return sizeBytes + (kvBytes ?? 0) + OVERHEAD_BYTES;
}

export function fitVerdict(required: number | null, available: number): ModelFit['fits'] {
  if (required === null) return 'unknown';
  if (required <= available * MARGIN) return 'yes';
  if (required <= available) return 'tight';
  return 'no';
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * Expected CPU speed for a file of `sizeBytes` run with `threads` threads: the reference scaled by size (bytes read per
 * token) and by threads (compute-bound on few cores), never above the bandwidth bound.
 */
export function estimateSpeed(sizeBytes: number, threads: number): Speed {
  const bySize = REFERENCE.sizeBytes / sizeBytes;
  const byThreads = Math.max(0.5, Math.min(threads, 16) / REFERENCE.threads);
  const decodeBound = REFERENCE.bandwidthBytesPerSecond / sizeBytes;
  return {
    kind: 'estimate',
    promptTokensPerSecond: round(REFERENCE.promptTokensPerSecond * bySize * byThreads),
    decodeTokensPerSecond: round(Math.min(REFERENCE.decodeTokensPerSecond * bySize * byThreads, decodeBound)),
    loadMs: null,
    note: `estimate from figures measured on a 2-core machine, scaled to this size and ${threads} threads (CPU only)`,
  };
}

/** Expected speed from this machine's benchmark: exact for the file measured, scaled by size for another. */
export function speedFromBench(bench: BenchResult, sizeBytes: number, path: string | null): Speed {
  if (path !== null && path === bench.modelPath) {
    return {
      kind: 'measured',
      promptTokensPerSecond: round(bench.promptTokensPerSecond),
      decodeTokensPerSecond: round(bench.decodeTokensPerSecond),
      loadMs: Math.round(bench.loadMs),
      note: `measured on this computer (${bench.threads} threads, ${bench.gpu})`,
    };
  }
  const bySize = bench.sizeBytes / sizeBytes;
  return {
    kind: 'scaled',
    promptTokensPerSecond: round(bench.promptTokensPerSecond * bySize),
    decodeTokensPerSecond: round(bench.decodeTokensPerSecond * bySize),
    loadMs: null,
    note: `scaled by size from ${bench.modelName} measured on this computer (${bench.threads} threads, ${bench.gpu})`,
  };
}

export interface FitInput {
  readonly id: string;
  readonly name: string;
  readonly quantization: string | null;
  /** The real size (a file on disk or the catalog's), when known. */
  readonly sizeBytes: number | null;
  readonly sizeSource: 'file' | 'catalog';
  readonly path: string | null;
  readonly contextSize: number;
  readonly shape?: KvShape;
}

export interface MemoryFacts {
  readonly freeRamBytes: number;
  /** Free VRAM when a GPU backend is in use; null on the CPU. */
  readonly freeVramBytes: number | null;
  readonly threads: number;
}

/** One row of the Doctor's model table. */
export function fitModel(input: FitInput, memory: MemoryFacts, bench: BenchResult | null): ModelFit {
  const parameters = parametersFromName(input.name);
  const bits = bitsPerWeight(input.quantization);
  let sizeBytes = input.sizeBytes;
  let sizeSource: ModelFit['sizeSource'] = input.sizeSource;
  if (sizeBytes === null) {
    if (parameters && bits) {
      sizeBytes = estimateSizeBytes(parameters, bits);
      sizeSource = 'estimate';
    } else sizeSource = 'unknown';
  }
  // Without a stated parameter count, the size at ~4.85 bits per weight stands in for it (only for the KV cache).
  const params = parameters ?? (sizeBytes ? (sizeBytes * 8) / (bits ?? 4.85) : undefined);
  const kv = kvCacheBytes(input.contextSize, input.shape, params);
  const required = sizeBytes === null ? null : requiredBytes(sizeBytes, kv);
  const onGpu = memory.freeVramBytes !== null && required !== null && required <= memory.freeVramBytes * MARGIN;
  const available = onGpu ? memory.freeVramBytes! : memory.freeRamBytes;
  const speed: Speed =
    sizeBytes === null
      ? {
          kind: 'estimate',
          promptTokensPerSecond: null,
          decodeTokensPerSecond: null,
          loadMs: null,
          note: 'size unknown',
        }
      : bench
        ? speedFromBench(bench, sizeBytes, input.path)
        : estimateSpeed(sizeBytes, memory.threads);
  if (onGpu && speed.kind !== 'measured') speed.note += '; on the GPU it should be faster';
  return {
    id: input.id,
    name: input.name,
    quantization: input.quantization,
    sizeBytes,
    sizeSource,
    contextSize: input.contextSize,
    kvCacheBytes: kv,
    requiredBytes: required,
    availableBytes: available,
    memory: onGpu ? 'vram' : 'ram',
    fits: fitVerdict(required, available),
    speed,
    path: input.path,
  };
}
