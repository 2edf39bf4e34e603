import { useState } from 'react';
import type { AppError } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { ProgressBar } from '../../ui/ProgressBar.js';
import { useAppStore } from '../../store/StoreContext.js';
import { progressLine } from '../../store/evalView.js';
import { useModelLabel } from './useModelLabel.js';

/** The run going now: done of total, time left, the model on it, and Cancel. */
export function EvalProgressPanel() {
  const runId = useAppStore((s) => s.evalActiveRunId);
  const progress = useAppStore((s) => s.evalProgress);
  const cancelEval = useAppStore((s) => s.cancelEval);
  const labelOf = useModelLabel();
  const [cancelling, setCancelling] = useState(false);
  const [error, setError] = useState<AppError | null>(null);

  if (runId === null) return null;
  const current = progress?.runId === runId ? progress : null;
  const label = current ? labelOf(current.model) : '';

  const cancel = async () => {
    setCancelling(true);
    setError(null);
    const failure = await cancelEval();
    setCancelling(false);
    if (failure) setError(failure);
  };

  return (
    <section
      className="settings-section eval-progress"
      aria-labelledby="eval-progress-heading"
      data-testid="eval-progress"
      data-phase={current?.phase ?? 'loading'}
      data-done={current?.done ?? 0}
      data-total={current?.total ?? 0}
    >
      <h2 id="eval-progress-heading">Running</h2>
      <ProgressBar
        value={current && current.total > 0 ? current.done / current.total : 0}
        label="Evaluation progress"
        testId="eval-progress-bar"
      />
      <p role="status" data-testid="eval-progress-text">
        {current ? progressLine(current, label) : 'Starting…'}
      </p>
      {current && (
        <p className="muted" data-testid="eval-progress-model">
          Model: <span title={current.model}>{label}</span>
          {current.caseId !== null && current.phase === 'running' && <> · last case {current.caseId}</>}
        </p>
      )}
      {error && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="eval-cancel-error" />}
      <div>
        <Button variant="danger" data-testid="eval-cancel" disabled={cancelling} onClick={() => void cancel()}>
          {cancelling ? 'Cancelling…' : 'Cancel'}
        </Button>
      </div>
    </section>
  );
}
