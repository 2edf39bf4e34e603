import { inspectGguf, type GgufSummary } from './gguf/ggufInspect.js';
import { kvCacheTypeFor, type KvCacheChoice, type KvCacheType } from './memoryPlan.js';
import { kvCacheBytes, type KvShape } from './modelFit.js';

/** A GGUF's KV cache shape and context, read from its metadata. */
export interface GgufKvFacts {
  readonly shape?: KvShape;
  readonly trainContextSize?: number;
  readonly bytes: number;
}

/** The KV cache's shape from a GGUF's already read metadata; no shape when it does not say. */
export function kvFactsOf(summary: GgufSummary): GgufKvFacts {
  const meta = summary.metadata;
  const num = (key: string) => {
    const value = meta.get(`${summary.architecture}.${key}`);
    return typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : undefined;
  };
  const blocks = num('block_count');
  // A hybrid model (qwen35) keeps a KV cache only in every n-th block, its full-attention layers.
  const interval = num('full_attention_interval');
  const layers = blocks && interval ? Math.floor(blocks / interval) : blocks;
  const heads = num('attention.head_count');
  const kvHeads = num('attention.head_count_kv') ?? heads;
  const headDim = num('attention.key_length') ?? (heads ? (num('embedding_length') ?? 0) / heads : undefined);
  const shape = layers && kvHeads && headDim ? { layers, kvHeads, headDim } : undefined;
  return {
    ...(shape ? { shape } : {}),
    ...(summary.contextLength ? { trainContextSize: summary.contextLength } : {}),
    bytes: summary.fileBytes,
  };
}

/** The KV cache's shape from a GGUF file; undefined when it cannot be read. */
export function kvShapeOf(path: string): GgufKvFacts | undefined {
  try {
    return kvFactsOf(inspectGguf(path));
  } catch {
    return undefined;
  }
}

/** The KV cache type a model gets at a context size: the choice, with 'auto' decided by the f16 cache's size. */
export function kvCacheTypeOf(choice: KvCacheChoice, contextSize: number, shape: KvShape | undefined): KvCacheType {
  return kvCacheTypeFor(choice, kvCacheBytes(contextSize, shape, undefined, 'f16'));
}
