import type {
  ModelSettings,
  ModelSettingsView,
  ModelState,
  SavedModelSettings,
  ThinkingSetting,
} from '../../../src-shared/contract/index.js';
import type { LoadSettings } from '../../llm/llamaEngine.js';
import {
  computeDefaults,
  machineFacts,
  needsReload,
  parseSaved,
  parseThinkingChoices,
  resolveSettings,
  settingsView,
  thinkingFor,
  withThinking,
  type MachineFacts,
  type Overrides,
} from '../../llm/modelSettings.js';

export const MODEL_SETTINGS_KEY = 'modelSettings';
/** Each model file's thinking choice (modelSettings.ts, ThinkingChoices). */
export const MODEL_THINKING_KEY = 'modelThinking';

export interface ModelSettingsDeps {
  /** The settings table (store.settings). */
  readonly settings: { get(key: string): unknown; set(key: string, value: unknown): void; delete(key: string): void };
  readonly modelState: () => ModelState;
  /** Environment variables and flags for this run. */
  readonly overrides: Overrides;
  /** Thinking fixed for this run whatever the model's saved choice (`homebody run --thinking`). */
  readonly thinkingOverride?: ThinkingSetting;
  /** Stops replies in progress, then loads the model again with the new settings; runs in the background. */
  readonly reload: (path: string) => Promise<unknown>;
  readonly machine?: MachineFacts;
}

/** The active model's settings: computed defaults, the user's saved choices, and what the environment fixes. */
export class ModelSettingsService {
  private readonly machine: MachineFacts;

  constructor(private readonly deps: ModelSettingsDeps) {
    this.machine = deps.machine ?? machineFacts();
  }

  private trainContextSize(): number | undefined {
    const state = this.deps.modelState();
    return state.status === 'ready' ? state.info.trainContextSize : undefined;
  }

  saved(): SavedModelSettings {
    return parseSaved(this.deps.settings.get(MODEL_SETTINGS_KEY));
  }

  view(reloading = false): ModelSettingsView {
    return settingsView(
      computeDefaults(this.machine, this.trainContextSize()),
      this.saved(),
      this.deps.overrides,
      reloading,
    );
  }

  effective(): ModelSettings {
    const computed = computeDefaults(this.machine, this.trainContextSize());
    return resolveSettings(computed.defaults, this.saved(), this.deps.overrides);
  }

  /** What the engine applies at the next load (the model's train context still caps the context size). */
  loadSettings(): LoadSettings {
    // Without the train context (before a load), the default is the machine's; the engine caps it by the model's.
    const computed = computeDefaults(this.machine);
    const { contextSize, gpuLayers, threads } = resolveSettings(computed.defaults, this.saved(), this.deps.overrides);
    return { contextSize, gpuLayers, threads, thinking: this.activeThinking() };
  }

  /** The user's thinking choice for one model file ('auto' when none was made). */
  thinkingFor(path: string): ThinkingSetting {
    return thinkingFor(parseThinkingChoices(this.deps.settings.get(MODEL_THINKING_KEY)), path);
  }

  /** Saves one model file's thinking choice; it applies from the next reply, so nothing reloads. */
  setThinking(path: string, setting: ThinkingSetting): void {
    const next = withThinking(parseThinkingChoices(this.deps.settings.get(MODEL_THINKING_KEY)), path, setting);
    if (Object.keys(next).length === 0) this.deps.settings.delete(MODEL_THINKING_KEY);
    else this.deps.settings.set(MODEL_THINKING_KEY, next);
  }

  /** Thinking for the model loaded (or loading) now: this run's override, else that model's choice. */
  private activeThinking(): ThinkingSetting {
    if (this.deps.thinkingOverride) return this.deps.thinkingOverride;
    const state = this.deps.modelState();
    const path = state.status === 'ready' ? state.info.path : state.status === 'loading' ? state.path : null;
    return path === null ? 'auto' : this.thinkingFor(path);
  }

  /** Replaces the saved settings; reloads the model in the background when a load-time setting changed. */
  set(next: SavedModelSettings): ModelSettingsView {
    const before = this.loadSettings();
    if (Object.keys(next).length === 0) this.deps.settings.delete(MODEL_SETTINGS_KEY);
    else this.deps.settings.set(MODEL_SETTINGS_KEY, next);
    const after = this.loadSettings();
    const state = this.deps.modelState();
    const path = state.status === 'ready' ? state.info.path : state.status === 'loading' ? state.path : null;
    const reloading = path !== null && needsReload({ ...before, temperature: 0 }, { ...after, temperature: 0 });
    if (reloading) {
      void this.deps
        .reload(path)
        .catch((error: unknown) => console.error('[host] reload after a settings change:', error));
    }
    return this.view(reloading);
  }
}
