import { useState } from 'react';
import type { AppError } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { useAppStore } from '../../store/StoreContext.js';
import { recordedCaseText } from '../../store/evalView.js';

/**
 * A task from history becomes a case of the `recorded` suite (the calls the user allowed are the right answer),
 * with what was recorded, or why not, shown beside the button.
 */
export function RecordCaseButton({ taskId }: { taskId: string }) {
  const recordEvalCase = useAppStore((s) => s.recordEvalCase);
  const [busy, setBusy] = useState(false);
  const [recorded, setRecorded] = useState<string | null>(null);
  const [error, setError] = useState<AppError | null>(null);

  const record = async () => {
    setBusy(true);
    setError(null);
    setRecorded(null);
    const outcome = await recordEvalCase(taskId);
    setBusy(false);
    if (outcome.ok) setRecorded(recordedCaseText(outcome.value));
    else setError(outcome.error);
  };

  return (
    <span className="record-case">
      <Button data-testid="timeline-record-case" disabled={busy} onClick={() => void record()}>
        {busy ? 'Recording…' : 'Record as evaluation case'}
      </Button>
      <span className="muted" role="status" data-testid="timeline-record-case-status">
        {recorded ?? ''}
      </span>
      {error && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="timeline-record-case-error" />}
    </span>
  );
}
