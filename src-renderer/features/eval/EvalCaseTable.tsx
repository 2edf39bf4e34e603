import { Fragment, useId, useMemo, useState } from 'react';
import type { EvalCall, EvalCaseResult, EvalModelResult } from '../../../src-shared/contract/index.js';
import { formatDuration } from '../../ui/format.js';
import { caseRows, filterCaseRows, formatArgs, verdictLabel, type CaseRow } from '../../store/evalView.js';

/** Every case of the run, failures first: each model's verdict and time; a row opens to what each model did. */
export function EvalCaseTable({ results }: { results: readonly EvalModelResult[] }) {
  const rows = useMemo(() => caseRows(results), [results]);
  const [failuresOnly, setFailuresOnly] = useState(false);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const shown = filterCaseRows(rows, { failuresOnly, query });
  const failures = rows.filter((r) => r.failed).length;
  const filterName = useId();

  const toggle = (key: string) => {
    const next = new Set(open);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setOpen(next);
  };

  return (
    <div className="eval-cases" data-testid="eval-cases">
      <h3 className="eval-subheading">Cases</h3>
      <div className="eval-case-controls">
        <div role="radiogroup" aria-label="Which cases" className="eval-case-filter">
          <label className="checkbox">
            <input
              type="radio"
              name={filterName}
              data-testid="eval-cases-all"
              checked={!failuresOnly}
              onChange={() => setFailuresOnly(false)}
            />
            <span>All ({rows.length})</span>
          </label>
          <label className="checkbox">
            <input
              type="radio"
              name={filterName}
              data-testid="eval-cases-failures"
              checked={failuresOnly}
              onChange={() => setFailuresOnly(true)}
            />
            <span>Failures only ({failures})</span>
          </label>
        </div>
        <label className="field eval-case-search">
          <span>Search id or prompt</span>
          <input
            type="search"
            data-testid="eval-cases-search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </label>
      </div>
      {shown.length === 0 ? (
        <p className="muted" data-testid="eval-cases-empty">
          No case matches.
        </p>
      ) : (
        <div className="eval-scroll">
          <table className="audit-table eval-case-table" data-testid="eval-case-table">
            <thead>
              <tr>
                <th scope="col">Case</th>
                <th scope="col">Category</th>
                {results.map((r) => (
                  <th key={r.model} scope="col" title={r.model}>
                    {r.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => {
                const key = `${row.suite}\u0000${row.id}`;
                const expanded = open.has(key);
                const detailId = `eval-case-detail-${encodeURIComponent(key)}`;
                return (
                  <Fragment key={key}>
                    <tr
                      data-testid="eval-case-row"
                      data-case-id={row.id}
                      data-failed={row.failed ? 'true' : 'false'}
                      className={row.failed ? 'eval-case-failed' : undefined}
                    >
                      <th scope="row">
                        <button
                          type="button"
                          className="eval-case-toggle"
                          data-testid="eval-case-toggle"
                          aria-expanded={expanded}
                          aria-controls={expanded ? detailId : undefined}
                          onClick={() => toggle(key)}
                        >
                          <span aria-hidden="true">{expanded ? '▾' : '▸'}</span> <code>{row.id}</code>
                        </button>
                      </th>
                      <td>{row.category}</td>
                      {row.results.map((result, i) => (
                        <td key={results[i]?.model ?? i} data-testid="eval-case-verdict" data-verdict={verdict(result)}>
                          <span className={`eval-verdict eval-verdict-${verdict(result)}`}>{verdictLabel(result)}</span>
                          {result && <span className="muted eval-latency"> {formatDuration(result.latencyMs)}</span>}
                        </td>
                      ))}
                    </tr>
                    {expanded && (
                      <tr className="eval-case-detail-row">
                        <td colSpan={2 + results.length} id={detailId} data-testid="eval-case-detail">
                          <CaseDetail row={row} results={results} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function verdict(result: EvalCaseResult | null): 'correct' | 'wrong' | 'error' | 'missing' {
  if (result === null) return 'missing';
  if (result.error !== undefined) return 'error';
  return result.correct ? 'correct' : 'wrong';
}

function CaseDetail({ row, results }: { row: CaseRow; results: readonly EvalModelResult[] }) {
  return (
    <div className="eval-case-detail">
      <dl className="eval-dl">
        <dt>Suite</dt>
        <dd>{row.suite}</dd>
        <dt>Prompt</dt>
        <dd className="eval-pre" data-testid="eval-case-prompt">
          {row.prompt}
        </dd>
        <dt>Expected</dt>
        <dd className="eval-pre" data-testid="eval-case-expected">
          {row.expected}
        </dd>
      </dl>
      <div className="eval-case-models">
        {row.results.map((result, i) => {
          const model = results[i];
          if (!model) return null;
          return (
            <section
              key={model.model}
              className="eval-case-model"
              data-testid="eval-case-model"
              data-model={model.model}
            >
              <h4>
                {model.label}: {verdictLabel(result)}
              </h4>
              {result === null ? (
                <p className="muted">This model has no result for the case.</p>
              ) : (
                <ModelAttempt result={result} />
              )}
            </section>
          );
        })}
      </div>
    </div>
  );
}

function ModelAttempt({ result }: { result: EvalCaseResult }) {
  return (
    <>
      {result.calls.length === 0 ? (
        <p className="muted">No call.</p>
      ) : (
        <ol className="eval-calls">
          {result.calls.map((call, i) => (
            <CallLine key={i} call={call} />
          ))}
        </ol>
      )}
      {result.reply !== undefined && result.reply !== '' && (
        <p className="eval-pre">
          <span className="muted">Reply: </span>
          {result.reply}
        </p>
      )}
      {result.failure !== undefined && (
        <p className="eval-failure" data-testid="eval-case-failure">
          {result.failure}
        </p>
      )}
      {result.error !== undefined && <p className="eval-failure">Could not run: {result.error}</p>}
      <p className="muted">
        {formatDuration(result.latencyMs)} · {result.promptTokens} prompt tokens · {result.completionTokens} completion
        tokens
      </p>
    </>
  );
}

const DECISION_LABELS: Readonly<Record<EvalCall['decision'], string>> = {
  auto: 'would run without asking',
  ask: 'would ask',
  queue: 'would wait in the approval queue',
  refused: 'refused',
};

function CallLine({ call }: { call: EvalCall }) {
  return (
    <li className="eval-call" data-testid="eval-case-call" data-tool={call.name} data-valid={String(call.valid)}>
      <code>{call.name}</code> <code className="eval-args">{formatArgs(call.args)}</code>
      <span className="muted">
        {' · '}
        {call.valid ? 'valid' : `invalid: ${(call.problems ?? []).join('; ') || 'arguments do not fit the schema'}`}
        {' · '}
        {DECISION_LABELS[call.decision]}
      </span>
      {call.result !== undefined && <span className="eval-call-result muted">Told: {call.result}</span>}
    </li>
  );
}
