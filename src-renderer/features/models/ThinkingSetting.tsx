import { useEffect, useId, useState } from 'react';
import type { LocalModel, ModelState, ThinkingDefault, ThinkingSetting } from '../../../src-shared/contract/index.js';
import { useAppStore } from '../../store/StoreContext.js';

/** The loaded model's template default, when this row's model is the one loaded; null otherwise (not known yet). */
function templateDefault(model: LocalModel, state: ModelState | null): ThinkingDefault | null {
  if (state?.status !== 'ready' || state.info.path !== model.path) return null;
  return state.info.thinkingDefault ?? null;
}

function autoLabel(known: ThinkingDefault | null): string {
  return known === 'on' || known === 'off' ? `As the model's template says (${known})` : "As the model's template says";
}

/**
 * Whether one model thinks before it answers: as its chat template says, on or off. The template's default is known
 * once the model is loaded; a template without thinking leaves nothing to switch, and the control says so.
 */
export function ThinkingSettingControl({ model }: { model: LocalModel }) {
  const modelState = useAppStore((s) => s.modelState);
  const setModelThinking = useAppStore((s) => s.setModelThinking);
  const pending = useAppStore((s) => s.modelsPending.has(`thinking:${model.id}`));
  const id = useId();
  const saved = model.thinking ?? 'auto';
  // The choice just made, shown until the listing (a models.changed event) carries it or the call fails.
  const [wanted, setWanted] = useState<ThinkingSetting | null>(null);
  useEffect(() => {
    if (wanted === saved) setWanted(null);
  }, [wanted, saved]);

  const known = templateDefault(model, modelState);
  const none = known === 'none';
  const hint = none
    ? "This model's chat template has no thinking, so there is nothing to switch."
    : known === null
      ? "The template's default shows here once the model is loaded. A change applies from the next reply."
      : 'A change applies from the next reply; the model does not reload.';

  return (
    <div className="thinking-setting" data-testid="local-model-thinking">
      <label className="field-inline" htmlFor={id}>
        Thinking
        <select
          id={id}
          data-testid="local-model-thinking-select"
          value={wanted ?? saved}
          disabled={none || pending}
          aria-describedby={`${id}-hint`}
          onChange={(event) => {
            const next = event.target.value as ThinkingSetting;
            setWanted(next);
            void setModelThinking(model.id, next).then((error) => {
              if (error) setWanted(null);
            });
          }}
        >
          <option value="auto">{autoLabel(known)}</option>
          <option value="on">On</option>
          <option value="off">Off</option>
        </select>
      </label>
      <p className="muted thinking-setting-hint" id={`${id}-hint`} data-testid="local-model-thinking-hint">
        {hint}
      </p>
    </div>
  );
}
