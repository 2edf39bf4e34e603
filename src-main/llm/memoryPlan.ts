/**
 * How a model is laid out in memory. Two choices matter on a CPU-only machine, where a 0.6-0.8B model otherwise
 * takes three times its file size:
 * - llama.cpp repacks quantized weights for the CPU into its own buffer. Through mmap, the file pages it read to
 *   repack stay mapped and count a second time, so on the CPU the file is read instead (about a third less memory,
 *   measured: 885 → 655 MB after loading a 336 MB Q4_0 file).
 * - The KV cache in f16 is the largest part at long contexts (28 layers × 8 KV heads × 128 × 2 bytes per token for
 *   Qwen3-0.6B: 704 MB at 6,144 tokens). q8_0 halves it, with output close to f16's in llama.cpp's perplexity measurements; a
 *   quantized V cache needs flash attention, so it is used only where the model supports that.
 */
export type KvCacheType = 'f16' | 'q8_0';

export interface MemoryChoices {
  /** No layer runs on a GPU. */
  readonly cpuOnly: boolean;
  readonly kvCache: KvCacheType;
}

export interface ModelMemoryOptions {
  readonly useMmap: boolean | 'auto';
}

export interface ContextMemoryOptions {
  readonly flashAttention?: boolean;
  readonly experimentalKvCacheKeyType?: 'Q8_0';
  readonly experimentalKvCacheValueType?: 'Q8_0';
}

export function modelMemoryOptions(choices: MemoryChoices): ModelMemoryOptions {
  return { useMmap: choices.cpuOnly ? false : 'auto' };
}

export function contextMemoryOptions(choices: MemoryChoices, flashAttentionSupported: boolean): ContextMemoryOptions {
  if (choices.kvCache === 'f16' || !flashAttentionSupported) return {};
  return { flashAttention: true, experimentalKvCacheKeyType: 'Q8_0', experimentalKvCacheValueType: 'Q8_0' };
}

export function parseKvCacheType(value: string | undefined): KvCacheType | undefined {
  if (value === undefined || value === '') return undefined;
  const lower = value.toLowerCase();
  if (lower === 'f16' || lower === 'q8_0') return lower;
  throw new Error(`HOMEBODY_KV_CACHE must be f16 or q8_0, not "${value}"`);
}
