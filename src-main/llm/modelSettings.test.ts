import { describe, expect, it } from 'vitest';
import { ModelSettingsSchema, SavedModelSettingsSchema } from '../../src-shared/contract/index.js';
import {
  DEFAULT_MODEL_TEMPERATURE,
  computeDefaults,
  defaultContextSize,
  needsReload,
  overridesFrom,
  parseSaved,
  parseThinkingChoices,
  resolveSettings,
  thinkingFor,
  withThinking,
} from './modelSettings.js';

const GIB = 1024 ** 3;

describe('computed defaults', () => {
  it('sizes the context by RAM and caps it by the train context', () => {
    expect(defaultContextSize(24 * GIB)).toBe(8192);
    expect(defaultContextSize(8 * GIB)).toBe(4096);
    expect(defaultContextSize(24 * GIB, 2048)).toBe(2048);
    expect(defaultContextSize(24 * GIB, 40_960)).toBe(8192);
  });

  it('uses every usable thread, GPU layers auto and the chat default temperature', () => {
    const { defaults, reasons } = computeDefaults({ totalRamBytes: 24 * GIB, availableParallelism: 6 });
    expect(defaults).toEqual({ contextSize: 8192, gpuLayers: 'auto', threads: 6, temperature: 0.7 });
    expect(defaults.temperature).toBe(DEFAULT_MODEL_TEMPERATURE);
    expect(ModelSettingsSchema.safeParse(defaults).success).toBe(true);
    expect(Object.keys(reasons).sort()).toEqual(['contextSize', 'gpuLayers', 'temperature', 'threads']);
  });
});

describe('validation', () => {
  it('refuses out-of-range and unknown settings', () => {
    expect(SavedModelSettingsSchema.safeParse({ contextSize: 100 }).success).toBe(false);
    expect(SavedModelSettingsSchema.safeParse({ contextSize: 4096.5 }).success).toBe(false);
    expect(SavedModelSettingsSchema.safeParse({ threads: 0 }).success).toBe(false);
    expect(SavedModelSettingsSchema.safeParse({ temperature: 2.5 }).success).toBe(false);
    expect(SavedModelSettingsSchema.safeParse({ gpuLayers: 'max' }).success).toBe(false);
    expect(SavedModelSettingsSchema.safeParse({ batch: 1 }).success).toBe(false);
    expect(SavedModelSettingsSchema.safeParse({ gpuLayers: 0, threads: 4 }).success).toBe(true);
    expect(SavedModelSettingsSchema.safeParse({}).success).toBe(true);
  });

  it('reads stored settings leniently, dropping only what no longer validates', () => {
    expect(parseSaved(undefined)).toEqual({});
    expect(parseSaved('nonsense')).toEqual({});
    expect(parseSaved({ contextSize: 2048, threads: -1, extra: true })).toEqual({ contextSize: 2048 });
  });
});

describe('resolution', () => {
  const defaults = computeDefaults({ totalRamBytes: 24 * GIB, availableParallelism: 2 }).defaults;

  it('layers defaults, then saved settings, then environment and flags', () => {
    expect(resolveSettings(defaults, { contextSize: 2048, temperature: 0 }, {})).toMatchObject({
      contextSize: 2048,
      temperature: 0,
      threads: 2,
    });
    const overrides = overridesFrom(
      { HOMEBODY_THREADS: '3', HOMEBODY_CONTEXT_SIZE: '1024', HOMEBODY_TEMPERATURE: '0.2', HOMEBODY_GPU: 'cpu' },
      { temperature: 1 },
    );
    expect(overrides).toEqual({
      threads: { value: 3, source: 'HOMEBODY_THREADS' },
      contextSize: { value: 1024, source: 'HOMEBODY_CONTEXT_SIZE' },
      temperature: { value: 1, source: 'the caller' },
      gpuLayers: { value: 0, source: 'HOMEBODY_GPU' },
    });
    expect(resolveSettings(defaults, { contextSize: 2048, threads: 1 }, overrides)).toEqual({
      contextSize: 1024,
      gpuLayers: 0,
      threads: 3,
      temperature: 1,
    });
  });

  it('ignores environment values that are not valid', () => {
    expect(overridesFrom({ HOMEBODY_THREADS: 'x', HOMEBODY_TEMPERATURE: '9', HOMEBODY_GPU: 'auto' })).toEqual({});
  });

  it('reloads only for settings that apply at load', () => {
    expect(needsReload(defaults, { ...defaults, temperature: 0 })).toBe(false);
    expect(needsReload(defaults, { ...defaults, contextSize: 2048 })).toBe(true);
    expect(needsReload(defaults, { ...defaults, gpuLayers: 0 })).toBe(true);
    expect(needsReload(defaults, { ...defaults, threads: 1 })).toBe(true);
  });
});

describe("each model's thinking choice", () => {
  it('is kept per model file, by its absolute path; auto removes the entry', () => {
    let choices = withThinking({}, '/models/botpsy.gguf', 'off');
    choices = withThinking(choices, '/models/qwen3.gguf', 'on');
    expect(thinkingFor(choices, '/models/botpsy.gguf')).toBe('off');
    expect(thinkingFor(choices, '/models/../models/qwen3.gguf')).toBe('on');
    expect(thinkingFor(choices, '/models/other.gguf')).toBe('auto');
    choices = withThinking(choices, '/models/botpsy.gguf', 'auto');
    expect(choices).toEqual({ '/models/qwen3.gguf': 'on' });
  });

  it('reads saved choices leniently and refuses a setting that is not one', () => {
    expect(parseThinkingChoices({ '/a.gguf': 'off', '/b.gguf': 'maybe', '/c.gguf': 1 })).toEqual({ '/a.gguf': 'off' });
    expect(parseThinkingChoices('off')).toEqual({});
    expect(parseThinkingChoices(['off'])).toEqual({});
    expect(() => withThinking({}, '/a.gguf', 'sometimes' as 'on')).toThrow();
  });
});
