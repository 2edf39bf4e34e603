import { useState } from 'react';
import type { AppError, EvalRun } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { saveFile } from '../../ui/saveFile.js';
import { useAppStore } from '../../store/StoreContext.js';
import { fileNameOf, runStatusLabel } from '../../store/evalView.js';
import { EvalBarCharts } from './EvalBarCharts.js';
import { EvalCaseTable } from './EvalCaseTable.js';
import { EvalMetricTable } from './EvalMetricTable.js';

/** The selected run: its models side by side, the rates as bars, every case, and its export. */
export function EvalResults() {
  const selected = useAppStore((s) => s.evalSelectedRunId);
  const run = useAppStore((s) => s.evalRun);
  const loading = useAppStore((s) => s.evalRunLoading);
  const error = useAppStore((s) => s.evalRunError);

  if (selected === null) return null;
  const shown = run?.id === selected ? run : null;

  return (
    <section
      className="settings-section eval-results"
      aria-labelledby="eval-results-heading"
      data-testid="eval-results"
      data-run-id={selected}
      aria-busy={loading || undefined}
    >
      <div className="eval-section-head">
        <h2 id="eval-results-heading">Results</h2>
        {shown && <ExportButtons runId={shown.id} disabled={shown.status === 'running'} />}
      </div>
      {error && <ErrorNotice error={error} testId="eval-results-error" />}
      {!shown && !error && <p className="muted">Loading the results…</p>}
      {shown && <RunResults run={shown} />}
    </section>
  );
}

function RunResults({ run }: { run: EvalRun }) {
  const perModel = run.results[0]?.summary.cases;
  return (
    <>
      <p className="muted" data-testid="eval-results-meta">
        {runStatusLabel(run.status)} · {run.suites.map(fileNameOf).join(', ')}
        {perModel !== undefined && ` · ${perModel} ${perModel === 1 ? 'case' : 'cases'} per model`}
      </p>
      {run.error && <ErrorNotice error={{ code: 'INTERNAL', message: run.error }} testId="eval-run-failure" />}
      {run.results.map(
        (r) =>
          r.error !== undefined && (
            <ErrorNotice
              key={r.model}
              error={{ code: 'INTERNAL', message: `${r.label}: ${r.error}` }}
              testId="eval-model-error"
            />
          ),
      )}
      {run.results.length === 0 ? (
        <p className="muted">No results: the run ended before any case.</p>
      ) : (
        <>
          <EvalMetricTable results={run.results} />
          <EvalBarCharts results={run.results} />
          <EvalCaseTable results={run.results} />
        </>
      )}
    </>
  );
}

/** The report as a self-contained HTML page, or as JSON, saved through a download. */
function ExportButtons({ runId, disabled }: { runId: string; disabled: boolean }) {
  const exportEvalRun = useAppStore((s) => s.exportEvalRun);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const exportAs = async (format: 'html' | 'json') => {
    setBusy(true);
    setError(null);
    setSaved(null);
    const outcome = await exportEvalRun(runId, format);
    setBusy(false);
    if (!outcome.ok) return setError(outcome.error);
    saveFile(outcome.value);
    setSaved(`Saved ${outcome.value.fileName}.`);
  };

  return (
    <div className="eval-export">
      <div className="eval-export-buttons">
        <Button data-testid="eval-export-html" disabled={disabled || busy} onClick={() => void exportAs('html')}>
          Export HTML report
        </Button>
        <Button data-testid="eval-export-json" disabled={disabled || busy} onClick={() => void exportAs('json')}>
          Export JSON
        </Button>
      </div>
      <span className="muted" role="status" data-testid="eval-export-status">
        {saved ?? ''}
      </span>
      {error && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="eval-export-error" />}
    </div>
  );
}
