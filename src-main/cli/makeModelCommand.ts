import { parseArgs } from 'node:util';
import { CHAT_TEMPLATE_NAMES, type ChatTemplateName } from '../llm/chatTemplates/chatTemplates.js';
import {
  MODEL_PRESETS,
  QUANTS,
  defaultChatTemplate,
  makeModel,
  type ModelPreset,
  type QuantName,
} from '../llm/synthetic/makeModel.js';
import { UsageError, intOption, usageErrors, pathArgument } from './args.js';

export const MAKE_MODEL_USAGE = `homebody make-model --preset tiny|qwen3-0.6b|tiny-qwen35|qwen3.5-0.8b --quant f32|f16|q8_0|q4_0 --seed N --out FILE
                    [--template qwen3|qwen3.5|qwen3.5-thinking-off]
  Writes a GGUF model with seeded random weights, the real Qwen3 tokenizer and a real chat template, for
  tests and benchmarks: architecture qwen3 (tiny, qwen3-0.6b: Qwen3-0.6B's dimensions) or qwen35 (tiny-qwen35,
  qwen3.5-0.8b: Qwen3.5-0.8B's hybrid linear/full-attention layers and dimensions). --template: Qwen3's (JSON
  calls; the default for the qwen3 presets), Qwen3.5's as llama.cpp keeps it (one element per argument; opens
  a thought; the default for the qwen35 presets) or the Qwen3.5 template of node-llama-cpp's tests (an empty
  thought unless thinking is asked for). Its replies are noise: it is never an assistant.`;

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], name: string): T {
  if (value === undefined) throw new UsageError(`--${name} is required (${allowed.join(', ')})`);
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, not "${value}"`);
  }
  return value as T;
}

export function makeModelCommand(args: string[]): number {
  const { values } = usageErrors(() =>
    parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        preset: { type: 'string' },
        quant: { type: 'string' },
        seed: { type: 'string' },
        out: { type: 'string' },
        template: { type: 'string' },
      },
    }),
  );
  const preset = oneOf<ModelPreset>(values.preset, Object.keys(MODEL_PRESETS) as ModelPreset[], 'preset');
  const quant = oneOf<QuantName>(values.quant, Object.keys(QUANTS) as QuantName[], 'quant');
  const template =
    values.template === undefined
      ? defaultChatTemplate(preset)
      : oneOf<ChatTemplateName>(values.template, CHAT_TEMPLATE_NAMES, 'template');
  const seed = intOption(values.seed, 'seed', 0, 2 ** 32 - 1) ?? 1;
  if (!values.out) throw new UsageError('--out FILE is required');
  const out = pathArgument(values.out, '--out');
  const started = Date.now();
  const { bytes, shape } = makeModel({ preset, quant, seed, out, template });
  console.log(
    `Wrote ${out} (${(bytes / 1e6).toFixed(1)} MB, ${shape.arch} ${preset} ${quant}, ${shape.layers} layers, hidden ${shape.hidden}, seed ${seed}, ${template} chat template) in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
  console.log('Random weights: for tests and benchmarks only; its replies are noise.');
  return 0;
}
