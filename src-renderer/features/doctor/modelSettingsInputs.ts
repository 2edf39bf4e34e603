import {
  ModelSettingsSchema,
  type ModelSettingKey,
  type SavedModelSettings,
} from '../../../src-shared/contract/index.js';

export const FIELDS: readonly { key: ModelSettingKey; label: string; hint: string }[] = [
  { key: 'contextSize', label: 'Context size (tokens)', hint: 'How much of the conversation the model sees.' },
  { key: 'gpuLayers', label: 'GPU layers', hint: '"auto", a number, or 0 to keep everything on the CPU.' },
  { key: 'threads', label: 'CPU threads', hint: 'More than the computer can run at once is much slower.' },
  { key: 'temperature', label: 'Temperature', hint: '0 is always the same reply; up to 2 is more varied.' },
];

export type Inputs = Record<ModelSettingKey, string>;
export type Problems = Partial<Record<ModelSettingKey, string>>;

export const inputsFromSaved = (saved: SavedModelSettings): Inputs => ({
  contextSize: saved.contextSize?.toString() ?? '',
  gpuLayers: saved.gpuLayers?.toString() ?? '',
  threads: saved.threads?.toString() ?? '',
  temperature: saved.temperature?.toString() ?? '',
});

/** Empty fields follow the default; the rest are checked here, and again by the Host. */
export function parseInputs(inputs: Inputs): { settings: SavedModelSettings; problems: Problems } {
  const settings: Record<string, unknown> = {};
  const problems: Problems = {};
  for (const { key } of FIELDS) {
    const raw = inputs[key].trim();
    if (raw === '') continue;
    const value = key === 'gpuLayers' && raw.toLowerCase() === 'auto' ? 'auto' : Number(raw);
    const parsed = ModelSettingsSchema.shape[key].safeParse(value);
    if (parsed.success) settings[key] = parsed.data;
    else problems[key] = parsed.error.issues[0]?.message ?? 'Not a valid value.';
  }
  return { settings: settings as SavedModelSettings, problems };
}
