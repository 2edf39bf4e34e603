import { availableParallelism, totalmem } from 'node:os';
import { resolve } from 'node:path';
import {
  MAX_CONTEXT_SIZE,
  MIN_CONTEXT_SIZE,
  SavedModelSettingsSchema,
  ThinkingSettingSchema,
  type ModelSettingKey,
  type ModelSettings,
  type ModelSettingsView,
  type SavedModelSettings,
  type ThinkingSetting,
} from '../../src-shared/contract/index.js';

const GIB = 1024 ** 3;

/** The reply temperature when nothing else says (as the chat runner's default). */
export const DEFAULT_MODEL_TEMPERATURE = 0.7;

export interface MachineFacts {
  readonly totalRamBytes: number;
  readonly availableParallelism: number;
}

export function machineFacts(): MachineFacts {
  return { totalRamBytes: totalmem(), availableParallelism: availableParallelism() };
}

/**
 * Context size for this machine: 8192 tokens with 16 GiB of RAM or more, 4096 below (a 0.6B model's KV cache is about
 * 112 KiB per token, ~0.9 GB at 8192), never more than the model was trained for.
 */
export function defaultContextSize(totalRamBytes: number, trainContextSize?: number): number {
  const byRam = totalRamBytes >= 16 * GIB ? 8192 : 4096;
  const capped = trainContextSize ? Math.min(byRam, trainContextSize) : byRam;
  return Math.max(MIN_CONTEXT_SIZE, Math.min(MAX_CONTEXT_SIZE, capped));
}

export interface ComputedDefaults {
  readonly defaults: ModelSettings;
  readonly reasons: Record<ModelSettingKey, string>;
}

export function computeDefaults(machine: MachineFacts, trainContextSize?: number): ComputedDefaults {
  const contextSize = defaultContextSize(machine.totalRamBytes, trainContextSize);
  const ramGiB = Math.round(machine.totalRamBytes / GIB);
  return {
    defaults: {
      contextSize,
      gpuLayers: 'auto',
      threads: machine.availableParallelism,
      temperature: DEFAULT_MODEL_TEMPERATURE,
    },
    reasons: {
      contextSize:
        `${ramGiB} GiB of RAM: ${machine.totalRamBytes >= 16 * GIB ? 8192 : 4096} tokens` +
        (trainContextSize && trainContextSize < 8192 ? `, capped by the model's ${trainContextSize}` : ''),
      gpuLayers: 'auto: llama.cpp offloads as many layers as fit in free VRAM (none without a GPU)',
      threads: `the ${machine.availableParallelism} threads this machine can run at once (more is much slower)`,
      temperature: 'a balance between varied and focused replies',
    },
  };
}

export type Overrides = Partial<Record<ModelSettingKey, { value: number | string; source: string }>>;

/**
 * Settings fixed from outside the app for this run: HOMEBODY_THREADS, HOMEBODY_CONTEXT_SIZE, HOMEBODY_TEMPERATURE and
 * HOMEBODY_GPU=cpu (no layers on a GPU), then what the caller passed (command-line flags, tests), which wins.
 */
export function overridesFrom(
  env: NodeJS.ProcessEnv,
  explicit: Partial<Pick<ModelSettings, 'contextSize' | 'threads' | 'temperature'>> & { gpuOff?: boolean } = {},
): Overrides {
  const out: Overrides = {};
  const int = (value: string | undefined) => {
    const n = Number.parseInt(value ?? '', 10);
    return n > 0 ? n : undefined;
  };
  const threads = int(env.HOMEBODY_THREADS);
  if (threads !== undefined) out.threads = { value: threads, source: 'HOMEBODY_THREADS' };
  const contextSize = int(env.HOMEBODY_CONTEXT_SIZE);
  if (contextSize !== undefined) out.contextSize = { value: contextSize, source: 'HOMEBODY_CONTEXT_SIZE' };
  const temperature = Number(env.HOMEBODY_TEMPERATURE);
  if (env.HOMEBODY_TEMPERATURE && temperature >= 0 && temperature <= 2) {
    out.temperature = { value: temperature, source: 'HOMEBODY_TEMPERATURE' };
  }
  if (/^(cpu|false|off|none)$/i.test(env.HOMEBODY_GPU ?? '')) out.gpuLayers = { value: 0, source: 'HOMEBODY_GPU' };
  if (explicit.threads !== undefined) out.threads = { value: explicit.threads, source: 'the caller' };
  if (explicit.contextSize !== undefined) out.contextSize = { value: explicit.contextSize, source: 'the caller' };
  if (explicit.temperature !== undefined) out.temperature = { value: explicit.temperature, source: 'the caller' };
  if (explicit.gpuOff) out.gpuLayers = { value: 0, source: 'the caller' };
  return out;
}

/** Saved settings read leniently: a stored value that no longer validates is dropped, the rest kept. */
export function parseSaved(raw: unknown): SavedModelSettings {
  if (raw === undefined || raw === null) return {};
  const whole = SavedModelSettingsSchema.safeParse(raw);
  if (whole.success) return whole.data;
  if (typeof raw !== 'object') return {};
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (SavedModelSettingsSchema.safeParse({ [key]: value }).success) kept[key] = value;
  }
  return SavedModelSettingsSchema.parse(kept);
}

/** Defaults, then what the user saved, then the overrides. */
export function resolveSettings(
  defaults: ModelSettings,
  saved: SavedModelSettings,
  overrides: Overrides,
): ModelSettings {
  const effective: ModelSettings = { ...defaults, ...saved };
  for (const [key, override] of Object.entries(overrides) as [ModelSettingKey, { value: number | string }][]) {
    (effective as Record<ModelSettingKey, unknown>)[key] = override.value;
  }
  return effective;
}

export function settingsView(
  computed: ComputedDefaults,
  saved: SavedModelSettings,
  overrides: Overrides,
  reloading = false,
): ModelSettingsView {
  return {
    defaults: computed.defaults,
    saved,
    overrides,
    effective: resolveSettings(computed.defaults, saved, overrides),
    reasons: computed.reasons,
    reloading,
  };
}

/** The settings that only take effect when a model loads. */
export function needsReload(before: ModelSettings, after: ModelSettings): boolean {
  return (
    before.contextSize !== after.contextSize || before.gpuLayers !== after.gpuLayers || before.threads !== after.threads
  );
}

/**
 * Each model's thinking choice, by model file: 'on' or 'off'; a model left out follows its chat template ('auto').
 * Kept apart from the settings above, which apply to whichever model is active: a template's thinking is its own.
 */
export type ThinkingChoices = Readonly<Record<string, 'on' | 'off'>>;

/** The key a model file's thinking choice is saved under: its absolute path (case-folded on Windows, as its paths are). */
export function thinkingKey(path: string): string {
  const absolute = resolve(path);
  return process.platform === 'win32' ? absolute.toLowerCase() : absolute;
}

/** Saved choices read leniently: an entry that no longer validates is dropped, the rest kept. */
export function parseThinkingChoices(raw: unknown): ThinkingChoices {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const kept: Record<string, 'on' | 'off'> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (value === 'on' || value === 'off') kept[key] = value;
  }
  return kept;
}

export function thinkingFor(choices: ThinkingChoices, path: string): ThinkingSetting {
  const key = thinkingKey(path);
  return Object.hasOwn(choices, key) ? (choices[key] ?? 'auto') : 'auto';
}

/** The choices with one model's changed; 'auto' removes its entry, so the saved map holds only real choices. */
export function withThinking(choices: ThinkingChoices, path: string, setting: ThinkingSetting): ThinkingChoices {
  const key = thinkingKey(path);
  const { [key]: _previous, ...rest } = choices;
  const parsed = ThinkingSettingSchema.parse(setting);
  return parsed === 'auto' ? rest : { ...rest, [key]: parsed };
}
