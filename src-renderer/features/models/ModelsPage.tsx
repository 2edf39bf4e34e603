import { useEffect, useState } from 'react';
import type { LocalModel } from '../../../src-shared/contract/index.js';
import type { Outcome } from '../../store/types.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { GgufPathForm } from '../../ui/GgufPathForm.js';
import { useAppStore } from '../../store/StoreContext.js';
import { selectShell } from '../../store/selectors.js';
import { CatalogCard } from './CatalogCard.js';
import { LocalModelRow } from './LocalModelRow.js';
import { RemoteNodesSection } from './RemoteNodesSection.js';

/**
 * The catalog with downloads, the models on this computer, and adding a GGUF file. Everything on it answers at
 * once: downloads and model loads run in the Host and report through events, so nothing here waits on them.
 */
export function ModelsPage() {
  const listing = useAppStore((s) => s.modelsListing);
  const modelsError = useAppStore((s) => s.modelsError);
  const loadModels = useAppStore((s) => s.loadModels);
  const [status, setStatus] = useState<string | null>(null);

  useEffect(() => {
    void loadModels();
  }, [loadModels]);

  const names = new Map(listing?.catalog.map((c) => [c.id, c.name]));

  return (
    <main className="main page models-page" data-testid="models-page" aria-labelledby="models-heading">
      <header className="page-header">
        <h1 id="models-heading">Models</h1>
        <p className="muted">
          Download a model, add one you have or one on another computer, and choose which one Homebody uses.
        </p>
      </header>
      {modelsError && <ErrorNotice error={modelsError} testId="models-error" />}
      {listing === null && !modelsError && (
        <p className="muted" aria-busy="true">
          Loading the models…
        </p>
      )}
      <p className="models-status" role="status" data-testid="models-status">
        {status ?? ''}
      </p>

      {listing && (
        <section className="card" aria-labelledby="models-local-heading">
          <h2 id="models-local-heading">On this computer</h2>
          {listing.models.length === 0 && (
            <p className="muted" data-testid="local-models-empty">
              No models yet: download one below or add a GGUF file.
            </p>
          )}
          <ul className="catalog-list" data-testid="local-models">
            {listing.models.map((model) => (
              <LocalModelRow key={model.id} model={model} onRemoved={setStatus} />
            ))}
          </ul>
          <p className="muted models-note">
            Downloads are saved in <span className="path">{listing.modelsDir}</span>
          </p>
        </section>
      )}

      {listing && <AddModel onAdded={(model) => setStatus(`Added ${model.name}.`)} />}

      {listing && <RemoteNodesSection />}

      {listing && (
        <section className="card" aria-labelledby="models-catalog-heading">
          <h2 id="models-catalog-heading">Models that suit Homebody</h2>
          {listing.catalog.length === 0 && <p className="muted">The catalog lists no models.</p>}
          <ul className="catalog-list" data-testid="models-catalog">
            {listing.catalog.map((entry) => (
              <CatalogCard
                key={entry.id}
                entry={entry}
                baseName={entry.baseId === null ? null : (names.get(entry.baseId) ?? entry.baseId)}
              />
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}

/** The system's file dialog in Electron; a path field everywhere (browser mode has no file dialog). */
function AddModel({ onAdded }: { onAdded: (model: LocalModel) => void }) {
  const shell = useAppStore(selectShell);
  const busy = useAppStore((s) => s.modelsPending.has('add'));
  const error = useAppStore((s) => s.modelsActionErrors['add'] ?? null);
  const dismiss = useAppStore((s) => s.dismissModelsError);
  const addModel = useAppStore((s) => s.addModel);
  const chooseAndAddModel = useAppStore((s) => s.chooseAndAddModel);
  const done = (outcome: Outcome<LocalModel> | null): boolean => {
    if (outcome?.ok) onAdded(outcome.value);
    return outcome?.ok === true;
  };

  return (
    <section className="card" aria-labelledby="models-add-heading">
      <h2 id="models-add-heading">Add a GGUF file</h2>
      {shell === 'electron' && (
        <div className="open-choose">
          <Button
            variant="primary"
            data-testid="add-model-choose"
            disabled={busy}
            onClick={() => void chooseAndAddModel().then(done)}
          >
            Choose a GGUF file…
          </Button>
          <span className="muted">or enter its path:</span>
        </div>
      )}
      <GgufPathForm
        busy={busy}
        onSubmit={async (path) => done(await addModel(path))}
        ariaLabel="Add a model file by path"
        submitLabel="Add"
        busyLabel="Adding…"
        hint="The file stays where it is; Homebody checks that it is a readable GGUF model."
        inputTestId="add-model-path"
        submitTestId="add-model-submit"
      />
      {error && <ErrorNotice error={error} testId="add-model-error" onDismiss={() => dismiss('add')} />}
    </section>
  );
}
