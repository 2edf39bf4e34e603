import { useEffect, useState, type FormEvent } from 'react';
import type { SavedModelSettings } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { useAppStore } from '../../store/StoreContext.js';
import { FIELDS, inputsFromSaved, parseInputs, type Inputs, type Problems } from './modelSettingsInputs.js';

/** The active model's four settings, with the computed defaults shown; Save and Reset to defaults. */
export function ModelSettingsForm() {
  const view = useAppStore((s) => s.modelSettings);
  const busy = useAppStore((s) => s.modelSettingsBusy);
  const error = useAppStore((s) => s.modelSettingsError);
  const modelState = useAppStore((s) => s.modelState);
  const loadModelSettings = useAppStore((s) => s.loadModelSettings);
  const saveModelSettings = useAppStore((s) => s.saveModelSettings);
  const [inputs, setInputs] = useState<Inputs>(() => inputsFromSaved(view?.saved ?? {}));
  const [problems, setProblems] = useState<Problems>({});
  const [saved, setSaved] = useState<string | null>(null);

  useEffect(() => {
    void loadModelSettings();
  }, [loadModelSettings]);
  // What the Host holds replaces the fields whenever it answers (first load, save, reset).
  const savedKey = JSON.stringify(view?.saved ?? {});
  useEffect(() => {
    setInputs(inputsFromSaved(JSON.parse(savedKey) as SavedModelSettings));
  }, [savedKey]);

  const save = async (settings: SavedModelSettings, what: string) => {
    setSaved(null);
    if ((await saveModelSettings(settings)) === null) setSaved(what);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const { settings, problems: found } = parseInputs(inputs);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    await save(settings, 'Saved.');
  };

  const reloading = view?.reloading || modelState?.status === 'loading';
  return (
    <section className="settings-section" aria-labelledby="model-settings-heading" data-testid="model-settings">
      <h2 id="model-settings-heading">Model settings</h2>
      <p className="muted">
        Context size, GPU layers and threads apply when the model loads: saving them reloads it in the background. Leave
        a field empty to use the default computed for this computer.
      </p>
      <form className="model-settings-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {FIELDS.map(({ key, label, hint }) => {
          const override = view?.overrides[key];
          const problem = problems[key];
          return (
            <label className="field" key={key}>
              <span>{label}</span>
              <input
                type="text"
                inputMode={key === 'gpuLayers' ? 'text' : 'decimal'}
                data-testid={`model-setting-${key}`}
                value={inputs[key]}
                placeholder={view ? String(view.defaults[key]) : ''}
                aria-invalid={problem ? true : undefined}
                aria-describedby={`model-setting-${key}-help`}
                onChange={(e) => setInputs({ ...inputs, [key]: e.target.value })}
              />
              <span id={`model-setting-${key}-help`} className="muted">
                {view && (
                  <span data-testid={`model-setting-${key}-default`}>
                    Default: {String(view.defaults[key])} ({view.reasons[key]}).{' '}
                  </span>
                )}
                {hint}
                {override && (
                  <span className="badge badge-warning" data-testid={`model-setting-${key}-override`}>
                    {String(override.value)} from {override.source} for this run
                  </span>
                )}
              </span>
              {problem && (
                <span className="field-problem" role="alert" data-testid={`model-setting-${key}-problem`}>
                  {problem}
                </span>
              )}
            </label>
          );
        })}
        <div className="model-settings-actions">
          <Button type="submit" variant="primary" data-testid="model-settings-save" disabled={busy || !view}>
            Save
          </Button>
          <Button
            data-testid="model-settings-reset"
            disabled={busy || !view}
            onClick={() => {
              setProblems({});
              void save({}, 'Reset to the defaults.');
            }}
          >
            Reset to defaults
          </Button>
          {saved && (
            <span className="muted" role="status" data-testid="model-settings-saved">
              {saved}
              {reloading ? ' The model is reloading with them.' : ''}
            </span>
          )}
        </div>
      </form>
      {view && (
        <p className="muted" data-testid="model-settings-effective">
          In use: {view.effective.contextSize} tokens of context, GPU layers {String(view.effective.gpuLayers)},{' '}
          {view.effective.threads} threads, temperature {view.effective.temperature}.
        </p>
      )}
      {error && <ErrorNotice error={error} testId="model-settings-error" />}
    </section>
  );
}
