import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChatTemplateName } from '../llm/chatTemplates/chatTemplates.js';
import { defaultChatTemplate, makeModel, type ModelPreset, type QuantName } from '../llm/synthetic/makeModel.js';

/** Bumped whenever the generator's output changes, so cached test models are made again. */
const GENERATOR_REVISION = 3;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TEST_MODEL_DIR = join(repoRoot, '.cache', 'models');

/**
 * A generated model for tests, made once and kept in .cache/models (git-ignored), with the preset's chat template
 * (Qwen3.5's for the qwen35 presets, Qwen3's for the others) unless another is asked for.
 */
export function ensureTestModel(
  preset: ModelPreset = 'tiny',
  quant: QuantName = 'q8_0',
  seed = 1,
  template: ChatTemplateName = defaultChatTemplate(preset),
): string {
  const path = join(TEST_MODEL_DIR, `${preset}-${quant}-s${seed}-${template}-r${GENERATOR_REVISION}.gguf`);
  if (!existsSync(path)) {
    mkdirSync(TEST_MODEL_DIR, { recursive: true });
    makeModel({ preset, quant, seed, out: path, template });
  }
  return path;
}
