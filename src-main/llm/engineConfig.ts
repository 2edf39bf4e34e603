import { availableParallelism } from 'node:os';
import { parseKvCacheType, type KvCacheChoice } from './memoryPlan.js';

export type GpuChoice = 'auto' | 'cuda' | 'vulkan' | 'metal' | false;

export interface EngineConfig {
  /** CPU threads for llama.cpp. node-llama-cpp's own default oversubscribes small CPUs (20-30x slower on 2 cores). */
  readonly threads: number;
  readonly contextSize: number;
  readonly gpu: GpuChoice;
  readonly systemPrompt: string;
  /** The KV cache's number type, or 'auto' by its size (see memoryPlan.ts); HOMEBODY_KV_CACHE overrides it. */
  readonly kvCache: KvCacheChoice;
  /**
   * Where the evaluated system prompt + tool definitions are saved (context sequence state files), so a restart
   * does not evaluate them again. Without it they are kept in memory only.
   */
  readonly prefixCacheDir?: string;
  /** Where the engine reports what it recovered from (an unusable cache file); console.warn by default. */
  readonly log?: (line: string) => void;
}

export const DEFAULT_SYSTEM_PROMPT =
  "You are Homebody, a helpful assistant that runs privately on the user's own computer. Answer clearly and briefly.";

/**
 * The machine's defaults, adjustable through HOMEBODY_THREADS, HOMEBODY_CONTEXT_SIZE, HOMEBODY_GPU and
 * HOMEBODY_KV_CACHE.
 */
export function defaultEngineConfig(env: NodeJS.ProcessEnv = process.env): EngineConfig {
  const threads = Number.parseInt(env.HOMEBODY_THREADS ?? '', 10);
  const contextSize = Number.parseInt(env.HOMEBODY_CONTEXT_SIZE ?? '', 10);
  return {
    threads: threads > 0 ? threads : availableParallelism(),
    contextSize: contextSize > 0 ? contextSize : 4096,
    gpu: parseGpu(env.HOMEBODY_GPU),
    systemPrompt: DEFAULT_SYSTEM_PROMPT,
    kvCache: parseKvCacheType(env.HOMEBODY_KV_CACHE) ?? 'auto',
  };
}

export function parseGpu(value: string | undefined): GpuChoice {
  switch (value?.toLowerCase()) {
    case undefined:
    case '':
    case 'auto':
      return 'auto';
    case 'false':
    case 'off':
    case 'cpu':
    case 'none':
      return false;
    case 'cuda':
    case 'vulkan':
    case 'metal':
      return value.toLowerCase() as GpuChoice;
    default:
      throw new Error(`HOMEBODY_GPU must be auto, cpu, cuda, vulkan or metal, not "${value}"`);
  }
}
