import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeModel, type ModelPreset } from '../llm/synthetic/makeModel.js';

/**
 * Bumped whenever the generator's output changes, so cached benchmark models are made again (2: the qwen35 presets
 * carry Qwen3.5's chat template).
 */
const GENERATOR_REVISION = 3;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where the benchmark's generated models are kept (git-ignored), beside the tests' own. */
export const BENCH_MODEL_DIR = join(repoRoot, '.cache', 'models');

/**
 * A generated model with a real model's dimensions for the benchmark, made once. The bench is a command of its own,
 * so it makes its models itself rather than through the tests' helpers in testing/ (which never ship).
 */
export function ensureBenchModel(preset: ModelPreset, quant: 'q4_0' | 'q8_0'): string {
  const path = join(BENCH_MODEL_DIR, `bench-${preset}-${quant}-s1-r${GENERATOR_REVISION}.gguf`);
  if (!existsSync(path)) {
    mkdirSync(BENCH_MODEL_DIR, { recursive: true });
    // Written under a temporary name first, so an interrupted write is never taken for the model.
    const partial = `${path}.partial-${process.pid}`;
    try {
      makeModel({ preset, quant, seed: 1, out: partial });
      renameSync(partial, path);
    } finally {
      rmSync(partial, { force: true });
    }
  }
  return path;
}
