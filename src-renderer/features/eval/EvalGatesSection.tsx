import { useId, useRef, useState, type FormEvent } from 'react';
import type { AppError } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { useAppStore } from '../../store/StoreContext.js';
import { formatRate, parseThresholdPercent } from '../../store/evalView.js';

/** Tools that run without asking only while the active model scores well enough on their cases. */
export function EvalGatesSection() {
  const gates = useAppStore((s) => s.evalGates);
  const error = useAppStore((s) => s.evalGatesError);
  const setEvalGate = useAppStore((s) => s.setEvalGate);
  const [removeError, setRemoveError] = useState<AppError | null>(null);
  const [busyTool, setBusyTool] = useState<string | null>(null);

  const remove = async (tool: string) => {
    setBusyTool(tool);
    setRemoveError(null);
    const failure = await setEvalGate(tool, null);
    setBusyTool(null);
    if (failure) setRemoveError(failure);
  };

  return (
    <section className="settings-section" aria-labelledby="eval-gates-heading" data-testid="eval-gates">
      <h2 id="eval-gates-heading">Gates</h2>
      <p className="muted">
        A gated tool runs without asking only while the active model scores at or above the threshold on its cases.
      </p>
      {error && <ErrorNotice error={error} testId="eval-gates-error" />}
      {removeError && (
        <ErrorNotice error={removeError} onDismiss={() => setRemoveError(null)} testId="eval-gate-remove-error" />
      )}
      {gates === null && !error && <p className="muted">Loading…</p>}
      {gates?.length === 0 && (
        <p className="muted" data-testid="eval-gates-empty">
          No gates.
        </p>
      )}
      {gates !== null && gates.length > 0 && (
        <table className="audit-table eval-gate-table" data-testid="eval-gate-table">
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Threshold</th>
              <th scope="col">Active model&apos;s score</th>
              <th scope="col">Now</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {gates.map((gate) => (
              <tr
                key={gate.tool}
                data-testid="eval-gate"
                data-tool={gate.tool}
                data-active={gate.active ? 'true' : 'false'}
              >
                <th scope="row">
                  <code>{gate.tool}</code>
                </th>
                <td>{formatRate(gate.threshold)}</td>
                <td>
                  {gate.score === null ? 'no score' : formatRate(gate.score)}{' '}
                  <span className="muted">
                    ({gate.cases} {gate.cases === 1 ? 'case' : 'cases'})
                  </span>
                </td>
                <td>
                  <span className={gate.active ? 'eval-gate-on' : 'eval-gate-off'}>
                    {gate.active ? 'Runs without asking' : 'Asks'}
                  </span>
                  <span className="eval-gate-reason muted" data-testid="eval-gate-reason">
                    {gate.reason}
                  </span>
                </td>
                <td>
                  <Button
                    variant="ghost"
                    data-testid="eval-gate-remove"
                    disabled={busyTool === gate.tool}
                    aria-label={`Remove the gate of ${gate.tool}`}
                    onClick={() => void remove(gate.tool)}
                  >
                    Remove
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <GateForm />
    </section>
  );
}

function GateForm() {
  const tools = useAppStore((s) => s.tools);
  const setEvalGate = useAppStore((s) => s.setEvalGate);
  // Irreversible tools always wait in the queue: a score never lets them run alone.
  const gateable = tools.filter((t) => t.risk !== 'irreversible');
  const [tool, setTool] = useState('');
  const [percent, setPercent] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<AppError | null>(null);
  const [busy, setBusy] = useState(false);
  const percentRef = useRef<HTMLInputElement>(null);
  const toolRef = useRef<HTMLSelectElement>(null);
  const problemId = useId();
  const chosen = tool || gateable[0]?.name || '';

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!chosen) {
      toolRef.current?.focus();
      return;
    }
    const parsed = parseThresholdPercent(percent);
    if (!parsed.ok) {
      setProblem(parsed.problem);
      percentRef.current?.focus();
      return;
    }
    setProblem(null);
    setBusy(true);
    const error = await setEvalGate(chosen, parsed.value);
    setBusy(false);
    if (error) setFailure(error);
    else setPercent('');
  };

  return (
    <form className="eval-gate-form" data-testid="eval-gate-form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <h3 className="eval-subheading">Set a gate</h3>
      <div className="eval-gate-fields">
        <label className="field">
          <span>Tool</span>
          <select
            ref={toolRef}
            data-testid="eval-gate-tool"
            value={chosen}
            disabled={busy || gateable.length === 0}
            onChange={(e) => setTool(e.target.value)}
          >
            {gateable.length === 0 && <option value="">No tool to gate</option>}
            {gateable.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Threshold (%)</span>
          <input
            ref={percentRef}
            type="text"
            inputMode="decimal"
            data-testid="eval-gate-threshold"
            value={percent}
            placeholder="90"
            disabled={busy}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? problemId : undefined}
            onChange={(e) => {
              setPercent(e.target.value);
              if (problem) setProblem(null);
            }}
          />
          {problem && (
            <span id={problemId} className="field-problem" data-testid="eval-gate-threshold-problem">
              {problem}
            </span>
          )}
        </label>
      </div>
      {failure && <ErrorNotice error={failure} onDismiss={() => setFailure(null)} testId="eval-gate-error" />}
      <Button type="submit" variant="primary" data-testid="eval-gate-submit" disabled={busy || gateable.length === 0}>
        {busy ? 'Saving…' : 'Set gate'}
      </Button>
    </form>
  );
}
