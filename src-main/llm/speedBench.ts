import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism, loadavg, platform } from 'node:os';
import type { Llama, Token } from 'node-llama-cpp';
import type { BenchResult } from '../../src-shared/contract/index.js';
import { inspectGguf } from './gguf/ggufInspect.js';
import { SYNTHETIC_MODEL_KEY, makeModel } from './synthetic/makeModel.js';

export const BENCH_PROMPT_TOKENS = 64;
export const BENCH_GENERATED_TOKENS = 32;

/** Bumped when the generated benchmark model changes, so a cached one is made again. */
const BENCH_MODEL_REVISION = 1;

/**
 * The generated benchmark model: random weights with Qwen3-0.6B's real dimensions, Q4_0 (about 341 MB), made once
 * into `cacheDir`. Speed does not depend on weight values, so it measures what a real 0.6B model gets here.
 */
export function ensureBenchModel(cacheDir: string): string {
  const path = join(cacheDir, `bench-qwen3-0.6b-q4_0-r${BENCH_MODEL_REVISION}.gguf`);
  if (!existsSync(path)) {
    mkdirSync(cacheDir, { recursive: true });
    // Written under a temporary name first, so an interrupted write is never taken for the model.
    const partial = `${path}.partial-${process.pid}`;
    makeModel({ preset: 'qwen3-0.6b', quant: 'q4_0', seed: 1, out: partial });
    renameSyncSafe(partial, path);
  }
  return path;
}

function renameSyncSafe(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    rmSync(from, { force: true });
    throw error;
  }
}

export interface BenchOptions {
  readonly modelPath: string;
  readonly threads: number;
  readonly catalogId: string | null;
  /** Called between phases ('load', 'prompt', 'decode'), for a progress line. */
  readonly onPhase?: (phase: 'load' | 'prompt' | 'decode') => void;
}

const TEXT =
  'Homebody runs a small language model on this computer. It reads files only in folders the user granted, asks ' +
  'before it writes anything, and keeps every task in a local database. ';

/** Load, ~64 prompt tokens, ~32 generated tokens (greedy); times each part. */
export async function runBench(llama: Llama, options: BenchOptions): Promise<BenchResult> {
  const summary = inspectGguf(options.modelPath);
  // Other work on the machine slows every figure: the load average is kept with them, so they can be read for what they are.
  const loadAverage = platform() === 'win32' ? null : (loadavg()[0] ?? null);
  options.onPhase?.('load');
  const loadStarted = performance.now();
  const model = await llama.loadModel({ modelPath: options.modelPath });
  try {
    const context = await model.createContext({ contextSize: 512, threads: options.threads, sequences: 1 });
    const loadMs = performance.now() - loadStarted;
    try {
      const sequence = context.getSequence();
      let prompt: Token[] = [];
      while (prompt.length < BENCH_PROMPT_TOKENS) prompt = [...prompt, ...model.tokenize(TEXT)];
      prompt = prompt.slice(0, BENCH_PROMPT_TOKENS);

      options.onPhase?.('prompt');
      const promptStarted = performance.now();
      await sequence.evaluateWithoutGeneratingNewTokens(prompt.slice(0, -1));
      const promptMs = performance.now() - promptStarted;

      options.onPhase?.('decode');
      let generated = 0;
      const decodeStarted = performance.now();
      for await (const token of sequence.evaluate(prompt.slice(-1), { temperature: 0 })) {
        void token;
        if (++generated >= BENCH_GENERATED_TOKENS) break;
      }
      const decodeMs = performance.now() - decodeStarted;
      return {
        modelName: summary.name ?? options.modelPath.split(/[\\/]/).pop() ?? options.modelPath,
        modelPath: options.modelPath,
        synthetic: summary.metadata.get(SYNTHETIC_MODEL_KEY) === true,
        sizeBytes: summary.fileBytes,
        catalogId: options.catalogId,
        threads: options.threads,
        gpu: llama.gpu === false ? 'cpu' : llama.gpu,
        loadMs,
        promptTokens: prompt.length - 1,
        promptTokensPerSecond: promptMs > 0 ? ((prompt.length - 1) * 1000) / promptMs : 0,
        generatedTokens: generated,
        decodeTokensPerSecond: decodeMs > 0 ? (generated * 1000) / decodeMs : 0,
        measuredAt: Date.now(),
        loadAverage,
        cores: availableParallelism(),
      };
    } finally {
      await context.dispose();
    }
  } finally {
    await model.dispose();
  }
}
