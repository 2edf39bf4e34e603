import { useState } from 'react';
import type { EvalRunSummary } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { formatAuditTime } from '../../ui/toolFormat.js';
import { isoDateTime } from '../../ui/format.js';
import { useAppStore } from '../../store/StoreContext.js';
import { fileNameOf, runStatusLabel } from '../../store/evalView.js';
import { useModelLabel } from './useModelLabel.js';

/** Every run, newest first: pick one to see its results, or delete it. */
export function EvalRunsList() {
  const runs = useAppStore((s) => s.evalRuns);
  const error = useAppStore((s) => s.evalRunsError);
  const selected = useAppStore((s) => s.evalSelectedRunId);
  const selectEvalRun = useAppStore((s) => s.selectEvalRun);
  const deleteEvalRun = useAppStore((s) => s.deleteEvalRun);
  const loadEvalRuns = useAppStore((s) => s.loadEvalRuns);
  const labelOf = useModelLabel();
  const [deleting, setDeleting] = useState<EvalRunSummary | null>(null);

  return (
    <section className="settings-section" aria-labelledby="eval-runs-heading" data-testid="eval-runs">
      <div className="eval-section-head">
        <h2 id="eval-runs-heading">Runs</h2>
        <Button variant="ghost" data-testid="eval-runs-refresh" onClick={() => void loadEvalRuns()}>
          Refresh
        </Button>
      </div>
      {error && <ErrorNotice error={error} testId="eval-runs-error" />}
      {runs === null && !error && <p className="muted">Loading…</p>}
      {runs?.length === 0 && (
        <p className="muted" data-testid="eval-runs-empty">
          No runs yet.
        </p>
      )}
      {runs !== null && runs.length > 0 && (
        <ul className="eval-run-list">
          {runs.map((run) => {
            const current = run.id === selected;
            const models = run.models.map(labelOf).join(', ');
            return (
              <li
                key={run.id}
                className="eval-run-item"
                data-testid="eval-run-item"
                data-run-id={run.id}
                data-status={run.status}
                data-selected={current ? 'true' : 'false'}
              >
                <button
                  type="button"
                  className="eval-run-select"
                  data-testid="eval-run-select"
                  aria-pressed={current}
                  onClick={() => void selectEvalRun(run.id)}
                >
                  <span className="eval-run-title">
                    <time dateTime={isoDateTime(run.startedAt)}>{formatAuditTime(run.startedAt)}</time>
                    {' · '}
                    <span className={`eval-status eval-status-${run.status}`} data-testid="eval-run-status">
                      {runStatusLabel(run.status)}
                    </span>
                  </span>
                  <span className="muted eval-run-meta">
                    {models} · {run.suites.map(fileNameOf).join(', ')} · {run.total}{' '}
                    {run.total === 1 ? 'case' : 'cases'}
                  </span>
                  {run.error && <span className="eval-run-error">{run.error}</span>}
                </button>
                <Button
                  variant="ghost"
                  data-testid="eval-run-delete"
                  disabled={run.status === 'running'}
                  aria-label={`Delete the run of ${formatAuditTime(run.startedAt)}`}
                  onClick={() => setDeleting(run)}
                >
                  Delete…
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete this run?"
          confirmLabel="Delete"
          onConfirm={() => deleteEvalRun(deleting.id)}
          onClose={() => setDeleting(null)}
        >
          <p>
            The results of the run of {formatAuditTime(deleting.startedAt)} ({deleting.models.map(labelOf).join(', ')})
            will be deleted. Gates use the latest finished run of the active model.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
