import { describe, expect, it } from 'vitest';
import type { ModelState } from '../../../src-shared/contract/index.js';
import { openStore } from '../../store/store.js';
import { MODEL_THINKING_KEY, ModelSettingsService, type ModelSettingsDeps } from './modelSettingsService.js';

const GIB = 1024 ** 3;
const ready = (path: string): ModelState => ({
  status: 'ready',
  info: {
    path,
    name: 'm',
    architecture: 'qwen35',
    sizeBytes: 1,
    contextSize: 4096,
    trainContextSize: 32_768,
    synthetic: true,
    gpu: 'cpu',
    thinkingDefault: 'on',
  },
});

function service(state: () => ModelState, extra: Partial<ModelSettingsDeps> = {}) {
  const store = openStore(':memory:');
  const reloads: string[] = [];
  const settings = new ModelSettingsService({
    settings: store.settings,
    modelState: state,
    overrides: {},
    reload: async (path) => reloads.push(path),
    machine: { totalRamBytes: 16 * GIB, availableParallelism: 4 },
    ...extra,
  });
  return { settings, store, reloads };
}

describe('thinking in the model settings', () => {
  it("gives the engine the loaded model's own choice at every read, and never reloads for it", () => {
    let state: ModelState = ready('/models/botpsy.gguf');
    const { settings, store, reloads } = service(() => state);
    expect(settings.loadSettings().thinking).toBe('auto');

    settings.setThinking('/models/botpsy.gguf', 'off');
    expect(settings.loadSettings()).toMatchObject({ thinking: 'off', contextSize: 8192, threads: 4 });
    expect(store.settings.get(MODEL_THINKING_KEY)).toEqual({ '/models/botpsy.gguf': 'off' });

    state = { status: 'loading', path: '/models/qwen3.gguf', progress: 0.5 };
    expect(settings.loadSettings().thinking).toBe('auto');
    state = { status: 'none' };
    expect(settings.loadSettings().thinking).toBe('auto');
    state = ready('/models/botpsy.gguf');
    expect(settings.loadSettings().thinking).toBe('off');

    settings.setThinking('/models/botpsy.gguf', 'auto');
    expect(store.settings.get(MODEL_THINKING_KEY)).toBeUndefined();
    expect(reloads).toEqual([]);
  });

  it("lets this run's choice win over the model's saved one, which it leaves as saved", () => {
    const { settings } = service(() => ready('/models/botpsy.gguf'), { thinkingOverride: 'on' });
    settings.setThinking('/models/botpsy.gguf', 'off');
    expect(settings.loadSettings().thinking).toBe('on');
    expect(settings.thinkingFor('/models/botpsy.gguf')).toBe('off');
  });

  it('keeps the other settings as they were: saving them does not touch the thinking choices', () => {
    const { settings } = service(() => ready('/models/botpsy.gguf'));
    settings.setThinking('/models/botpsy.gguf', 'on');
    settings.set({ temperature: 0.2 });
    settings.set({});
    expect(settings.loadSettings().thinking).toBe('on');
  });
});
