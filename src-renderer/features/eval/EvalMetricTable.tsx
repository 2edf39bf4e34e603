import type { EvalModelResult } from '../../../src-shared/contract/index.js';
import { bestIndexes, EVAL_METRICS, formatMetric, metricValue } from '../../store/evalView.js';

/** One row per metric, one column per model; the best value of a row is marked (in words too). */
export function EvalMetricTable({ results }: { results: readonly EvalModelResult[] }) {
  return (
    <div className="eval-scroll">
      <table className="audit-table eval-metric-table" data-testid="eval-metric-table">
        <caption className="sr-only">Scores of each model, side by side</caption>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            {results.map((r) => (
              <th key={r.model} scope="col" title={r.model} data-testid="eval-metric-model" data-model={r.model}>
                {r.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {EVAL_METRICS.map((metric) => {
            const best = new Set(
              bestIndexes(
                results.map((r) => metricValue(r.summary, metric)),
                metric.better,
              ),
            );
            return (
              <tr key={metric.key} data-testid="eval-metric-row" data-metric={metric.key}>
                <th scope="row">
                  {metric.label}
                  <span className="eval-metric-help muted">{metric.help}</span>
                </th>
                {results.map((r, i) => (
                  <td
                    key={r.model}
                    className={best.has(i) ? 'eval-best' : undefined}
                    data-testid="eval-metric-value"
                    data-model={r.model}
                    data-best={best.has(i) ? 'true' : undefined}
                  >
                    {formatMetric(r.summary, metric)}
                    {best.has(i) && <span className="sr-only"> (best)</span>}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
