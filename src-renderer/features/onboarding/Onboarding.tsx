import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { ProgressBar } from '../../ui/ProgressBar.js';
import { useAppStore } from '../../store/StoreContext.js';
import { selectModelProblem, selectModelState, selectShell } from '../../store/selectors.js';
import { GgufPathForm } from '../../ui/GgufPathForm.js';
import { CatalogList } from './CatalogList.js';

/** First run, a failed load, or "Change model": pick a GGUF file and watch it load. */
export function Onboarding() {
  const modelState = useAppStore(selectModelState);
  const shell = useAppStore(selectShell);
  const problem = useAppStore(selectModelProblem);
  const { modelBusy, onboardingRequested } = useAppStore(
    useShallow((s) => ({ modelBusy: s.modelBusy, onboardingRequested: s.onboardingRequested })),
  );
  const { openModel, chooseAndOpenModel, closeOnboarding } = useAppStore(
    useShallow((s) => ({
      openModel: s.openModel,
      chooseAndOpenModel: s.chooseAndOpenModel,
      closeOnboarding: s.closeOnboarding,
    })),
  );

  const loading = modelState?.status === 'loading';
  const busy = modelBusy || loading;
  const ready = modelState?.status === 'ready';
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  return (
    <main className="main onboarding" data-testid="onboarding" aria-labelledby="onboarding-heading">
      <div className="onboarding-inner">
        <header className="onboarding-header">
          <h1 id="onboarding-heading" ref={headingRef} tabIndex={-1}>
            {ready ? 'Change the model' : 'Welcome to Homebody'}
          </h1>
          <p className="lead">
            Homebody runs a language model on this computer; nothing you type leaves it. Open a GGUF chat model to
            begin.
          </p>
          {ready && onboardingRequested && (
            <Button variant="ghost" onClick={closeOnboarding}>
              Back to the chat with {modelState.info.name}
            </Button>
          )}
        </header>

        <section className="card" aria-labelledby="open-heading">
          <h2 id="open-heading">Open a GGUF file</h2>
          {shell === 'electron' && (
            <div className="open-choose">
              <Button
                variant="primary"
                data-testid="model-choose-button"
                onClick={() => void chooseAndOpenModel()}
                disabled={busy}
              >
                Choose a GGUF file…
              </Button>
              <span className="muted">or enter its path:</span>
            </div>
          )}
          <PathForm busy={busy} onOpen={(path) => void openModel(path)} />
          {loading && (
            <div className="loading">
              <p className="loading-label" aria-live="polite">
                Loading <span className="path">{modelState.path}</span>
              </p>
              <ProgressBar value={modelState.progress} label="Model loading progress" testId="model-load-progress" />
            </div>
          )}
          {problem && !loading && <ErrorNotice error={problem} testId="model-error" />}
        </section>

        <CatalogList />
      </div>
    </main>
  );
}

function PathForm({ busy, onOpen }: { busy: boolean; onOpen: (path: string) => void }) {
  return (
    <GgufPathForm
      busy={busy}
      onSubmit={onOpen}
      ariaLabel="Open a model file by path"
      submitLabel="Open"
      busyLabel="Opening…"
      hint="The full path on this computer, for example a file downloaded from Hugging Face."
      inputTestId="model-path-input"
      submitTestId="model-open-button"
    />
  );
}
