/**
 * How a model is laid out in memory. Two choices matter on a CPU-only machine, where a 0.6-0.8B model otherwise
 * takes three times its file size:
 * - llama.cpp repacks quantized weights for the CPU into its own buffer. Through mmap, the file pages it read to
 *   repack stay mapped and count a second time, so on the CPU the file is read instead (about a third less memory,
 *   measured: 885 → 655 MB after loading a 336 MB Q4_0 file).
 * - The KV cache in f16 is the largest part at long contexts for a model whose every layer attends (28 layers × 8 KV
 *   heads × 128 × 2 bytes per token for Qwen3-0.6B: 704 MB at 6,144 tokens). q8_0 halves it, with output close to
 *   f16's in llama.cpp's perplexity measurements; a quantized V cache needs flash attention, so it is used only where
 *   the model supports that. But on the CPU a quantized cache is dequantized at every attention step, which is slow
 *   deep in a long prompt: measured on the qwen3.5-0.8b preset at 6,400 tokens, q8_0 evaluated the tools' prefix in
 *   88-96 s against f16's 52 s, and a new task's 17 tokens in 390-445 ms against 340-370 ms. So by default ('auto')
 *   the cache is f16 unless f16 would take more than KV_F16_LIMIT_BYTES: a hybrid model (Qwen3.5, BotPsy: one layer in
 *   four attends, 100 MB at 8,192 tokens) keeps f16's speed, and Qwen3-0.6B still gets q8_0's halving.
 * - Flash attention is on wherever the model supports it (llama.cpp's own default): on the CPU it evaluated a new
 *   task's tokens as fast as without it or faster, and it is what a q8_0 cache needs.
 */
export type KvCacheType = 'f16' | 'q8_0';
/** What HOMEBODY_KV_CACHE and the engine's config choose: a type, or 'auto' by the cache's size. */
export type KvCacheChoice = KvCacheType | 'auto';

/** Above this many bytes in f16, 'auto' stores the KV cache as q8_0. */
export const KV_F16_LIMIT_BYTES = 256 * 2 ** 20;

export interface MemoryChoices {
  /** No layer runs on a GPU. */
  readonly cpuOnly: boolean;
}

/** The cache type for a choice; `f16Bytes` is the cache's size in f16 at the context, null when unknown. */
export function kvCacheTypeFor(choice: KvCacheChoice, f16Bytes: number | null): KvCacheType {
  if (choice !== 'auto') return choice;
  // Unknown size: q8_0, the choice that cannot run out of memory where f16 would have.
  return f16Bytes !== null && f16Bytes <= KV_F16_LIMIT_BYTES ? 'f16' : 'q8_0';
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

/** A quantized cache without flash attention would fail to load: such a model gets f16 without it. */
export function contextMemoryOptions(kvCache: KvCacheType, flashAttentionSupported: boolean): ContextMemoryOptions {
  if (!flashAttentionSupported) return {};
  if (kvCache === 'f16') return { flashAttention: true };
  return { flashAttention: true, experimentalKvCacheKeyType: 'Q8_0', experimentalKvCacheValueType: 'Q8_0' };
}

export function parseKvCacheType(value: string | undefined): KvCacheChoice | undefined {
  if (value === undefined || value === '') return undefined;
  const lower = value.toLowerCase();
  if (lower === 'f16' || lower === 'q8_0' || lower === 'auto') return lower;
  throw new Error(`HOMEBODY_KV_CACHE must be auto, f16 or q8_0, not "${value}"`);
}
