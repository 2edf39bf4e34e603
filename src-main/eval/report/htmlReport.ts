/**
 * The report of a run as one HTML page a team can pass around: no script, no external resource (the CSP meta says
 * so to the browser too), charts as inline SVG, readable on screen and on paper. Everything that comes from the run
 * is escaped: prompts, replies and tool results are attacker-controlled in injection cases. Long texts are clipped
 * and each case folds into a `<details>`, so a run of BFCL's 1,000+ cases stays a page of a few MB that opens fast.
 */
import {
  EVAL_KIND_LABELS,
  EVAL_KINDS,
  type EvalCall,
  type EvalCaseResult,
  type EvalDecision,
  type EvalKind,
  type EvalModelResult,
  type EvalRun,
  type EvalSummary,
} from '../../../src-shared/contract/index.js';
import { escapeHtml, formatRate, modelColour, rateChartSvg } from './reportCharts.js';

/**
 * Longest texts shown in a small run: a prompt, the expected behaviour or a reply; a call's JSON arguments and what
 * it was told (shared among a case's calls). The JSON report has them whole.
 */
const FULL_LIMITS: Limits = { text: 2_000, args: 1_000, result: 500 };
/**
 * Characters of clipped text a page may hold at most: past it every limit shrinks alike (down to a tenth), so a run
 * of 1,240 BFCL cases on two models stays near 5 MB even if every text is long. A typical case is far shorter.
 */
const PAGE_TEXT_BUDGET = 3_000_000;
const MIN_SCALE = 0.1;
/** A model that loops on calls would otherwise fill the page with one case. */
const CALLS_LIMIT = 20;
const MIN_CALL_TEXT = 80;

interface Limits {
  text: number;
  args: number;
  result: number;
}

export function pageLimits(caseCount: number, modelCount: number): Limits {
  const perCase = 2 * FULL_LIMITS.text + modelCount * (FULL_LIMITS.text + FULL_LIMITS.args + FULL_LIMITS.result);
  const scale = Math.max(MIN_SCALE, Math.min(1, PAGE_TEXT_BUDGET / Math.max(1, caseCount * perCase)));
  return {
    text: Math.round(FULL_LIMITS.text * scale),
    args: Math.round(FULL_LIMITS.args * scale),
    result: Math.round(FULL_LIMITS.result * scale),
  };
}

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

type Better = 'higher' | 'lower' | null;

interface Metric {
  key: string;
  label: string;
  better: Better;
  value: (s: EvalSummary) => number | null;
  format: (s: EvalSummary) => string;
  /** A fraction (0..1): gets a chart. */
  rate: boolean;
  description: string;
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function formatNumber(value: number | null, unit: string): string {
  return value === null ? 'n/a' : `${integer.format(value)}${unit}`;
}

function rateMetric(key: keyof EvalSummary, label: string, better: Better, description: string): Metric {
  const value = (s: EvalSummary) => s[key] as number | null;
  return { key, label, better, value, format: (s) => formatRate(value(s)), rate: true, description };
}

const METRICS: readonly Metric[] = [
  {
    key: 'correct',
    label: 'Correct cases',
    better: 'higher',
    value: (s) => (s.cases === 0 ? null : s.correct / s.cases),
    format: (s) => (s.cases === 0 ? 'n/a' : `${s.correct} / ${s.cases} (${formatRate(s.correct / s.cases)})`),
    rate: false,
    description: 'Cases scored correct.',
  },
  rateMetric(
    'toolAccuracy',
    'Tool accuracy',
    'higher',
    'Cases that expect calls where the model called exactly the expected tools.',
  ),
  rateMetric('argValidity', 'Argument validity', 'higher', "Proposed calls whose arguments fit the tool's schema."),
  rateMetric(
    'argAccuracy',
    'Argument accuracy',
    'higher',
    "Cases whose calls match the expected ones by BFCL's rules.",
  ),
  rateMetric(
    'noCallAccuracy',
    'No-call accuracy',
    'higher',
    'Cases that expect no call where the model called nothing.',
  ),
  rateMetric('recoveryRate', 'Recovery rate', 'higher', 'Tool-error cases where the model recovered as expected.'),
  rateMetric(
    'attackSuccessRate',
    'Attack success rate',
    'lower',
    'Injection cases where the model proposed a call the injected text asked for; lower is better.',
  ),
  {
    key: 'p50LatencyMs',
    label: 'Latency p50',
    better: 'lower',
    value: (s) => s.p50LatencyMs,
    format: (s) => formatNumber(s.p50LatencyMs, ' ms'),
    rate: false,
    description: 'Median time per case.',
  },
  {
    key: 'p95LatencyMs',
    label: 'Latency p95',
    better: 'lower',
    value: (s) => s.p95LatencyMs,
    format: (s) => formatNumber(s.p95LatencyMs, ' ms'),
    rate: false,
    description: '95th percentile of the time per case.',
  },
  {
    key: 'peakRssMb',
    label: 'Peak memory (RSS)',
    better: 'lower',
    value: (s) => s.peakRssMb,
    format: (s) => formatNumber(s.peakRssMb, ' MB'),
    rate: false,
    description: "The process's highest resident memory while the model ran.",
  },
  {
    key: 'unnecessaryActions',
    label: 'Unnecessary calls',
    better: 'lower',
    value: (s) => s.unnecessaryActions,
    format: (s) => integer.format(s.unnecessaryActions),
    rate: false,
    description: 'Calls beyond what the cases needed.',
  },
  {
    key: 'errors',
    label: 'Cases that could not run',
    better: 'lower',
    value: (s) => s.errors,
    format: (s) => integer.format(s.errors),
    rate: false,
    description: 'Counted as wrong.',
  },
  {
    key: 'promptTokens',
    label: 'Prompt tokens',
    better: null,
    value: (s) => s.promptTokens,
    format: (s) => integer.format(s.promptTokens),
    rate: false,
    description: '',
  },
  {
    key: 'completionTokens',
    label: 'Completion tokens',
    better: null,
    value: (s) => s.completionTokens,
    format: (s) => integer.format(s.completionTokens),
    rate: false,
    description: '',
  },
];

/**
 * The models holding the best value of a metric. Nothing is marked with fewer than two values to compare or when
 * they are all equal: a mark there would say nothing.
 */
export function bestModels(values: readonly (number | null)[], better: Better): Set<number> {
  const known = values.filter((v): v is number => v !== null);
  if (better === null || known.length < 2 || known.every((v) => v === known[0])) return new Set();
  const best = better === 'higher' ? Math.max(...known) : Math.min(...known);
  return new Set(values.flatMap((v, i) => (v === best ? [i] : [])));
}

/** Cuts at `limit` characters (never inside a surrogate pair) and says how much was left out. */
function clip(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(limit - 1)) ? limit - 1 : limit;
  return `${text.slice(0, end)}… (${integer.format(text.length - end)} more characters)`;
}

function clipped(text: string, limit: number): string {
  return escapeHtml(clip(text, limit));
}

function formatTime(ms: number | null): string {
  return ms === null ? 'not finished' : `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h} h ${m} min` : m > 0 ? `${m} min ${s} s` : `${s} s`;
}

function categoryName(category: string): string {
  return (EVAL_KINDS as readonly string[]).includes(category) ? EVAL_KIND_LABELS[category as EvalKind] : category;
}

function decisionText(decision: EvalDecision): string {
  switch (decision) {
    case 'auto':
      return 'ran without asking';
    case 'ask':
      return 'would ask the user';
    case 'queue':
      return 'queued for approval, not run';
    case 'refused':
      return 'refused';
    default:
      return decision satisfies never;
  }
}

function argsJson(args: unknown): string {
  if (args === undefined) return '(no arguments)';
  try {
    return JSON.stringify(args) ?? String(args);
  } catch {
    return String(args);
  }
}

function modelHeading(result: EvalModelResult, index: number): string {
  return (
    `<span class="swatch" style="background:${modelColour(index)}"></span>` +
    `<span title="${escapeHtml(result.model)}">${escapeHtml(result.label)}</span>`
  );
}

const STYLE = `
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d1d1f; margin: 24px; }
h1 { font-size: 22px; margin: 0 0 12px; } h2 { font-size: 18px; margin: 28px 0 10px; } h3 { font-size: 15px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
dl.facts dt { color: #555; } dl.facts dd { margin: 0; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid #d0d0d5; padding: 4px 8px; text-align: left; vertical-align: top; }
thead th { background: #f2f2f5; }
td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.best { background: #e3f4e6; font-weight: 600; }
.mark { color: #1b7a34; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 6px; border-radius: 2px; }
.note { color: #555; font-size: 13px; }
.charts { display: flex; flex-wrap: wrap; gap: 12px 24px; }
figure { margin: 0; break-inside: avoid; } figcaption { font-weight: 600; font-size: 13px; }
svg.chart text { font: 11px system-ui, sans-serif; fill: #1d1d1f; }
svg.chart text.tick { fill: #777; font-size: 9px; } svg.chart line.grid { stroke: #ddd; }
details { border: 1px solid #d0d0d5; border-radius: 4px; margin: 4px 0; break-inside: avoid; }
details > summary { cursor: pointer; padding: 4px 8px; }
details[open] > summary { border-bottom: 1px solid #d0d0d5; }
details > .body { padding: 8px; }
.verdict { display: inline-block; margin-left: 8px; padding: 0 6px; border-radius: 3px; font-size: 12px; }
.verdict.correct { background: #e3f4e6; } .verdict.wrong { background: #fbe4e4; } .verdict.missing { background: #eee; }
.tag { color: #555; margin-left: 8px; font-size: 12px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 2px 0 6px; font: 12px/1.4 ui-monospace, Menlo, Consolas, monospace;
  background: #f7f7f9; padding: 4px 6px; border-radius: 3px; }
table.side { width: 100%; table-layout: fixed; }
ol.calls { margin: 0; padding-left: 20px; }
.invalid { color: #b3261e; font-weight: 600; } .valid { color: #1b7a34; }
.error { color: #b3261e; }
@media print { body { margin: 0; } details > summary { cursor: auto; } }
`;

function runFacts(run: EvalRun): string {
  const facts: [string, string][] = [
    ['Run', escapeHtml(run.id)],
    ['Started', formatTime(run.startedAt)],
    ['Finished', formatTime(run.finishedAt)],
  ];
  if (run.finishedAt !== null) facts.push(['Duration', formatDuration(Math.max(0, run.finishedAt - run.startedAt))]);
  facts.push(
    ['Status', escapeHtml(run.status)],
    ['Suites', run.suites.map(escapeHtml).join(', ') || 'none'],
    [
      'Cases',
      // `total` counts every model's cases.
      `${integer.format(Math.round(run.total / Math.max(1, run.models.length)))} per model, ${run.models.length} model${run.models.length === 1 ? '' : 's'}`,
    ],
  );
  if (run.error !== undefined)
    facts.push(['Error', `<span class="error">${clipped(run.error, FULL_LIMITS.text)}</span>`]);
  return `<dl class="facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

function modelList(run: EvalRun): string {
  const items = run.results.map((r, i) => {
    const error =
      r.error === undefined
        ? ''
        : ` <span class="error">could not be evaluated: ${clipped(r.error, FULL_LIMITS.text)}</span>`;
    return `<li>${modelHeading(r, i)} <span class="note">${escapeHtml(r.model)}</span>${error}</li>`;
  });
  return `<ul class="models">${items.join('')}</ul>`;
}

function summaryTable(run: EvalRun): string {
  const head = `<thead><tr><th>Metric</th>${run.results.map((r, i) => `<th>${modelHeading(r, i)}</th>`).join('')}</tr></thead>`;
  const rows = METRICS.map((metric) => {
    const best = bestModels(
      run.results.map((r) => metric.value(r.summary)),
      metric.better,
    );
    const cells = run.results.map((r, i) =>
      best.has(i)
        ? `<td class="num best">${metric.format(r.summary)} <span class="mark" title="best">★</span></td>`
        : `<td class="num">${metric.format(r.summary)}</td>`,
    );
    const hint = metric.better === 'lower' ? ' <span class="note">(lower is better)</span>' : '';
    return `<tr><th scope="row" title="${escapeHtml(metric.description)}">${metric.label}${hint}</th>${cells.join('')}</tr>`;
  });
  return `<table class="summary">${head}<tbody>${rows.join('')}</tbody></table>
<p class="note">★ best value among the models. n/a: the run held no case the metric applies to.</p>`;
}

function charts(run: EvalRun): string {
  const figures = METRICS.filter((m) => m.rate).map((metric) => {
    const svg = rateChartSvg({
      id: metric.key,
      title: metric.label,
      description: metric.description,
      bars: run.results.map((r) => ({ label: r.label, value: metric.value(r.summary) })),
    });
    const hint = metric.better === 'lower' ? ' (lower is better)' : '';
    return `<figure data-metric="${metric.key}"><figcaption>${metric.label}${hint}</figcaption>${svg}</figure>`;
  });
  return `<div class="charts">${figures.join('')}</div>`;
}

function perToolTable(run: EvalRun): string {
  const tools = [...new Set(run.results.flatMap((r) => Object.keys(r.perTool)))].sort();
  if (tools.length === 0) return '<p class="note">No case expected a tool call.</p>';
  const head = `<thead><tr><th>Tool</th>${run.results.map((r, i) => `<th>${modelHeading(r, i)}</th>`).join('')}</tr></thead>`;
  const rows = tools.map((tool) => {
    const cells = run.results.map((r) => {
      const score = r.perTool[tool];
      if (score === undefined || score.cases === 0) return '<td class="num">n/a</td>';
      return `<td class="num">${score.correct} / ${score.cases} (${formatRate(score.correct / score.cases)})</td>`;
    });
    return `<tr><th scope="row"><code>${escapeHtml(tool)}</code></th>${cells.join('')}</tr>`;
  });
  return `<table class="per-tool">${head}<tbody>${rows.join('')}</tbody></table>
<p class="note">Correct cases out of the cases whose expected calls use the tool.</p>`;
}

/** One case as every model answered it. */
interface CaseRow {
  id: string;
  category: string;
  suite: string;
  domain: string | undefined;
  prompt: string;
  expected: string;
  results: (EvalCaseResult | undefined)[];
  failed: boolean;
}

/** Cases joined across models (by suite and id), those any model got wrong first, then by id. */
function caseRows(run: EvalRun): CaseRow[] {
  const rows = new Map<string, CaseRow>();
  run.results.forEach((model, index) => {
    for (const c of model.cases) {
      const key = `${c.suite}\u0000${c.id}`;
      let row = rows.get(key);
      if (row === undefined) {
        row = {
          id: c.id,
          category: c.category,
          suite: c.suite,
          domain: c.domain,
          prompt: c.prompt,
          expected: c.expected,
          results: run.results.map(() => undefined),
          failed: false,
        };
        rows.set(key, row);
      }
      row.results[index] = c;
      if (!c.correct) row.failed = true;
    }
  });
  const byId = new Intl.Collator('en', { numeric: true });
  return [...rows.values()].sort(
    (a, b) => Number(b.failed) - Number(a.failed) || byId.compare(a.id, b.id) || byId.compare(a.suite, b.suite),
  );
}

function callItem(call: EvalCall, limits: Limits): string {
  const validity = call.valid
    ? '<span class="valid">valid arguments</span>'
    : '<span class="invalid">invalid arguments</span>';
  const problems =
    call.problems && call.problems.length > 0
      ? `<ul>${call.problems.map((p) => `<li>${clipped(p, limits.result)}</li>`).join('')}</ul>`
      : '';
  const result =
    call.result === undefined ? '' : `<div class="note">told:</div><pre>${clipped(call.result, limits.result)}</pre>`;
  return (
    `<li><code>${escapeHtml(clip(call.name, 200))}</code> · ${validity} · ${escapeHtml(call.decision)} (${escapeHtml(decisionText(call.decision))})` +
    `<pre>${clipped(argsJson(call.args), limits.args)}</pre>${problems}${result}</li>`
  );
}

function resultCell(result: EvalCaseResult | undefined, limits: Limits): string {
  if (result === undefined) return '<td><span class="note">not run</span></td>';
  const parts: string[] = [];
  parts.push(result.correct ? '<strong class="valid">correct</strong>' : '<strong class="invalid">wrong</strong>');
  if (result.error !== undefined)
    parts.push(`<div class="error">could not run: ${clipped(result.error, limits.text)}</div>`);
  if (result.failure !== undefined) parts.push(`<div>why: ${clipped(result.failure, limits.text)}</div>`);
  if (result.calls.length === 0) parts.push('<div>calls: none</div>');
  else {
    const calls = result.calls.slice(0, CALLS_LIMIT);
    // The case's share of arguments and results is split among its calls, down to a readable minimum each.
    const share = (limit: number) => Math.max(MIN_CALL_TEXT, Math.floor(limit / calls.length));
    const callLimits = { ...limits, args: share(limits.args), result: share(limits.result) };
    const shown = calls.map((call) => callItem(call, callLimits)).join('');
    const more = result.calls.length > CALLS_LIMIT ? `<li>… ${result.calls.length - CALLS_LIMIT} more calls</li>` : '';
    parts.push(`<div>calls:</div><ol class="calls">${shown}${more}</ol>`);
  }
  if (result.reply !== undefined && result.reply !== '')
    parts.push(`<div>reply:</div><pre>${clipped(result.reply, limits.text)}</pre>`);
  parts.push(
    `<div class="note">${integer.format(result.latencyMs)} ms · ${integer.format(result.promptTokens)} prompt + ` +
      `${integer.format(result.completionTokens)} completion tokens</div>`,
  );
  return `<td>${parts.join('')}</td>`;
}

function verdict(result: EvalCaseResult | undefined, model: EvalModelResult): string {
  const name = escapeHtml(model.label);
  if (result === undefined) return `<span class="verdict missing" title="not run">– ${name}</span>`;
  return result.correct
    ? `<span class="verdict correct" title="correct">✓ ${name}</span>`
    : `<span class="verdict wrong" title="wrong">✗ ${name}</span>`;
}

function caseDetails(row: CaseRow, run: EvalRun, limits: Limits): string {
  const domain = row.domain === undefined ? '' : `<span class="tag">${escapeHtml(row.domain)}</span>`;
  const summary =
    `<summary><code>${escapeHtml(row.id)}</code>` +
    `<span class="tag" title="${escapeHtml(categoryName(row.category))}">${escapeHtml(row.category)}</span>` +
    `<span class="tag">${escapeHtml(row.suite)}</span>${domain}` +
    run.results.map((model, i) => verdict(row.results[i], model)).join('') +
    `</summary>`;
  const head = run.results.map((r, i) => `<th>${modelHeading(r, i)}</th>`).join('');
  const cells = row.results.map((r) => resultCell(r, limits)).join('');
  const body =
    `<div class="body"><div>Prompt:</div><pre>${clipped(row.prompt, limits.text)}</pre>` +
    `<div>Expected:</div><pre>${clipped(row.expected, limits.text)}</pre>` +
    `<table class="side"><thead><tr>${head}</tr></thead><tbody><tr>${cells}</tr></tbody></table></div>`;
  return `<details class="case${row.failed ? ' failed' : ''}" data-case="${escapeHtml(row.id)}">${summary}${body}</details>`;
}

function caseSections(run: EvalRun): string {
  const rows = caseRows(run);
  const limits = pageLimits(rows.length, run.results.length);
  const failed = rows.filter((r) => r.failed);
  const passed = rows.filter((r) => !r.failed);
  const section = (title: string, list: CaseRow[]) =>
    list.length === 0
      ? ''
      : `<h3>${title} (${integer.format(list.length)})</h3>${list.map((r) => caseDetails(r, run, limits)).join('\n')}`;
  if (rows.length === 0) return '<p class="note">No case finished.</p>';
  return (
    `<p class="note">Texts longer than ${integer.format(limits.text)} characters are clipped; the JSON report has them whole.</p>` +
    section('Wrong for at least one model', failed) +
    section('Correct for every model', passed)
  );
}

export function htmlReport(run: EvalRun): string {
  const title = `Homebody evaluation ${formatTime(run.startedAt)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${runFacts(run)}
<h2>Models</h2>
${modelList(run)}
<h2>Summary</h2>
${summaryTable(run)}
<h2>Rates compared</h2>
${charts(run)}
<h2>Per tool</h2>
${perToolTable(run)}
<h2>Cases</h2>
${caseSections(run)}
</body>
</html>
`;
}
