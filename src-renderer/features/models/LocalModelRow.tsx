import { useState } from 'react';
import type { LocalModel, ModelState } from '../../../src-shared/contract/index.js';
import { Badge } from '../../ui/Badge.js';
import { Button } from '../../ui/Button.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { formatBytes } from '../../ui/format.js';
import { ProgressBar } from '../../ui/ProgressBar.js';
import { useAppStore } from '../../store/StoreContext.js';
import { integrityLabel, sourceLabel } from '../../store/modelsView.js';
import { ThinkingSettingControl } from './ThinkingSetting.js';

/** Where a model on disk stands in the engine: loading, ready, failed, or not loaded. */
function engineState(model: LocalModel, state: ModelState | null): 'loading' | 'ready' | 'error' | 'idle' {
  if (!state || state.status === 'none') return 'idle';
  if (state.status === 'loading') return state.path === model.path ? 'loading' : 'idle';
  if (state.status === 'ready') return state.info.path === model.path ? 'ready' : 'idle';
  return state.path === model.path ? 'error' : 'idle';
}

/** A model on disk: what it is, how far it was checked, Use and Delete. */
export function LocalModelRow({ model, onRemoved }: { model: LocalModel; onRemoved: (message: string) => void }) {
  const modelState = useAppStore((s) => s.modelState);
  const pending = useAppStore((s) => s.modelsPending);
  const actionError = useAppStore((s) => s.modelsActionErrors[model.id] ?? null);
  const dismiss = useAppStore((s) => s.dismissModelsError);
  const activateModel = useAppStore((s) => s.activateModel);
  const verifyModel = useAppStore((s) => s.verifyModel);
  const removeModel = useAppStore((s) => s.removeModel);
  const [confirming, setConfirming] = useState(false);

  const engine = engineState(model, modelState);
  const headingId = `local-model-${model.id}`;
  const activating = pending.has(`activate:${model.id}`);
  const verifying = pending.has(`verify:${model.id}`);
  const size = formatBytes(model.sizeBytes) ?? '';
  const loadError = modelState?.status === 'error' && engine === 'error' ? modelState.error : null;

  return (
    <li
      className="local-model"
      data-testid="local-model"
      data-model-id={model.id}
      data-active={model.active ? 'true' : 'false'}
      data-engine={engine}
      data-integrity={model.integrity}
      data-source={model.source}
      aria-labelledby={headingId}
    >
      <div className="local-model-main">
        <h3 id={headingId} className="catalog-name">
          <span data-testid="local-model-name">{model.name}</span>
          {model.active && (
            <Badge tone="neutral" testId="local-model-active">
              Active
            </Badge>
          )}
          {model.missing && (
            <Badge tone="warning" testId="local-model-missing">
              File missing
            </Badge>
          )}
        </h3>
        <p className="path">{model.path}</p>
        <dl className="catalog-facts">
          <div>
            <dt>Size</dt>
            <dd>{size}</dd>
          </div>
          <div>
            <dt>Source</dt>
            <dd>{sourceLabel(model)}</dd>
          </div>
          <div>
            <dt>Checked</dt>
            <dd data-testid="local-model-integrity">{integrityLabel(model.integrity)}</dd>
          </div>
        </dl>
        <ThinkingSettingControl model={model} />
        {engine === 'loading' && modelState?.status === 'loading' && (
          <div className="loading">
            <p className="loading-label">Loading {model.name}… you can keep using Homebody meanwhile.</p>
            <ProgressBar value={modelState.progress} label={`Loading ${model.name}`} testId="local-model-loading" />
          </div>
        )}
        {engine === 'ready' && (
          <p className="muted" data-testid="local-model-ready">
            Loaded and ready in the chat.
          </p>
        )}
        {actionError ? (
          <ErrorNotice error={actionError} testId="local-model-error" onDismiss={() => dismiss(model.id)} />
        ) : (
          loadError && <ErrorNotice error={loadError} testId="local-model-error" />
        )}
      </div>
      <div className="models-actions">
        <Button
          variant="primary"
          data-testid="local-model-use"
          disabled={
            (model.active && engine !== 'error' && engine !== 'idle') ||
            model.missing ||
            activating ||
            (model.integrity === 'mismatch' && model.source === 'downloaded')
          }
          aria-label={`Use ${model.name}`}
          onClick={() => void activateModel(model.id)}
        >
          {engine === 'loading' || activating
            ? 'Loading…'
            : engine === 'ready'
              ? 'In use'
              : model.active
                ? 'Load again'
                : 'Use'}
        </Button>
        {model.integrity === 'unchecked' && model.sha256 === null && (
          <Button
            data-testid="local-model-verify"
            disabled={verifying || model.missing}
            aria-label={`Compute the sha256 of ${model.name}`}
            onClick={() => void verifyModel(model.id)}
          >
            {verifying ? 'Checking…' : 'Compute sha256'}
          </Button>
        )}
        <Button
          variant="danger"
          data-testid="local-model-delete"
          aria-label={`${model.source === 'downloaded' ? 'Delete' : 'Remove'} ${model.name}`}
          onClick={() => setConfirming(true)}
        >
          {model.source === 'downloaded' ? 'Delete' : 'Remove'}
        </Button>
      </div>
      {confirming && (
        <ConfirmDialog
          title={model.source === 'downloaded' ? `Delete ${model.name}?` : `Remove ${model.name} from the list?`}
          confirmLabel={model.source === 'downloaded' ? 'Delete the file' : 'Remove from the list'}
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            const outcome = await removeModel(model.id);
            if (!outcome.ok) return outcome.error;
            onRemoved(outcome.value.message);
            return null;
          }}
        >
          <p>
            {model.source === 'downloaded'
              ? `The file (${size}) is deleted from this computer; downloading it again takes the full download.`
              : 'Homebody forgets it; the file itself stays where it is.'}
          </p>
          {model.active && <p>It is the active model: it is closed first, and the chat waits for another model.</p>}
        </ConfirmDialog>
      )}
    </li>
  );
}
