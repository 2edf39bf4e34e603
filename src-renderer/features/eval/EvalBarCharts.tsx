import type { EvalModelResult } from '../../../src-shared/contract/index.js';
import { formatRate, RATE_METRICS, type MetricDef } from '../../store/evalView.js';

const WIDTH = 320;
const BAR_HEIGHT = 16;
const GAP = 6;

/**
 * One small chart per rate: a bar per model. Inline SVG with sizes as attributes (the CSP forbids style
 * attributes); each chart carries its figures as its accessible name, so the bars need no reading.
 */
export function EvalBarCharts({ results }: { results: readonly EvalModelResult[] }) {
  return (
    <div className="eval-charts" data-testid="eval-charts">
      {RATE_METRICS.map((metric) => (
        <RateChart key={metric.key} metric={metric} results={results} />
      ))}
    </div>
  );
}

function RateChart({ metric, results }: { metric: MetricDef; results: readonly EvalModelResult[] }) {
  const rows = results.map((r) => ({ model: r.model, label: r.label, rate: r.summary[metric.key] }));
  const description = rows.map((row) => `${row.label}: ${formatRate(row.rate)}`).join(', ');
  const height = rows.length * (BAR_HEIGHT + GAP);
  return (
    <figure className="eval-chart" data-testid="eval-chart" data-metric={metric.key}>
      <figcaption>
        {metric.label}
        {metric.better === 'lower' && <span className="muted"> (lower is better)</span>}
      </figcaption>
      <svg
        role="img"
        aria-label={`${metric.label}: ${description}`}
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        height={height}
        preserveAspectRatio="xMinYMin meet"
      >
        {rows.map((row, i) => {
          const y = i * (BAR_HEIGHT + GAP);
          const width = row.rate === null ? 0 : Math.max(1, row.rate * (WIDTH - 60));
          return (
            <g key={row.model}>
              <rect className="eval-bar-track" x={0} y={y} width={WIDTH - 60} height={BAR_HEIGHT} rx={3} />
              <rect className={`eval-bar eval-bar-${i % 4}`} x={0} y={y} width={width} height={BAR_HEIGHT} rx={3} />
              <text className="eval-bar-value" x={WIDTH - 54} y={y + BAR_HEIGHT - 4}>
                {formatRate(row.rate)}
              </text>
            </g>
          );
        })}
      </svg>
      <ul className="eval-chart-legend" aria-hidden="true">
        {rows.map((row, i) => (
          <li key={row.model}>
            <span className={`eval-swatch eval-bar-${i % 4}`} />
            {row.label}
          </li>
        ))}
      </ul>
    </figure>
  );
}
