import type {
  CatalogEntry,
  EvalCaseResult,
  EvalModelResult,
  EvalRunStatus,
  EvalRunSummary,
  EvalSummary,
  LocalModel,
  RemoteNode,
} from '../../src-shared/contract/index.js';
import { remoteModelName, remoteReference } from '../../src-shared/contract/index.js';
import { formatDuration } from '../ui/format.js';
import type { AppData, EvalProgress } from './types.js';

/** The contract's bound on models per run. */
export const EVAL_MAX_MODELS = 4;

// ---- Choosing what to run ----

/** A model file on offer: its path, and how it is shown (name and quantization). */
export interface EvalModelChoice {
  /** A GGUF path, or `remote:<id>` for a model on another computer. */
  path: string;
  name: string;
  quant: string | null;
  /** A model on another computer: its server's address, shown in place of a file name. */
  url?: string;
}

/** "tiny-q8_0.gguf" → "Q8_0"; "model.Q4_K_M.gguf" → "Q4_K_M"; null when the name says nothing. */
export function quantFromFileName(fileName: string): string | null {
  const match = /(?:^|[-_.])((?:I?Q\d(?:_[A-Z0-9]+)*)|BF16|F16|F32)(?=\.gguf$|[-_.])/i.exec(fileName);
  return match?.[1] ? match[1].toUpperCase() : null;
}

/** The last part of a path, either separator. */
export function fileNameOf(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).at(-1) ?? path;
}

/** The library's models that can run: present on disk and not known to be damaged. */
export function evalModelChoices(models: readonly LocalModel[], catalog: readonly CatalogEntry[]): EvalModelChoice[] {
  const quantById = new Map(catalog.map((c) => [c.id, c.quantization]));
  return models
    .filter((m) => !m.missing && m.integrity !== 'mismatch')
    .map((m) => ({
      path: m.path,
      name: m.name,
      quant: (m.catalogId !== null ? quantById.get(m.catalogId) : undefined) ?? quantFromFileName(fileNameOf(m.path)),
    }));
}

/** The models on other computers the user added, after the files: "botpsy on the study". */
export function nodeEvalChoices(nodes: readonly RemoteNode[]): EvalModelChoice[] {
  return nodes.map((n) => ({
    path: remoteReference(n.id),
    name: remoteModelName(n),
    quant: null,
    url: n.url,
  }));
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/** "At most N cases per suite": empty means every case; otherwise a whole number of at least 1. */
export function parseCaseLimit(text: string): Parsed<number | undefined> {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: undefined };
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1) {
    return { ok: false, problem: 'Enter a whole number of at least 1, or leave it empty for every case.' };
  }
  const value = Number(trimmed);
  if (value > 100_000) return { ok: false, problem: 'Enter at most 100000.' };
  return { ok: true, value };
}

/** A gate's threshold typed in percent (0–100), as the fraction the Host takes. */
export function parseThresholdPercent(text: string): Parsed<number> {
  const trimmed = text.trim().replace(/%$/, '').trim();
  const value = Number(trimmed);
  if (trimmed === '' || !Number.isFinite(value) || value < 0 || value > 100) {
    return { ok: false, problem: 'Enter a percentage from 0 to 100.' };
  }
  return { ok: true, value: value / 100 };
}

/** A GGUF path typed by hand: not empty; the Host checks the file itself. */
export function parseModelPath(text: string): Parsed<string> {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: 'Enter the path of a GGUF file.' };
  return { ok: true, value: trimmed };
}

/** Why Run cannot be pressed now, for people; null when it can. */
export function runBlocker(choice: {
  models: number;
  suites: number;
  running: boolean;
  starting: boolean;
}): string | null {
  if (choice.running) return 'A run is going: wait for it to finish or cancel it.';
  if (choice.starting) return 'Starting the run…';
  if (choice.models === 0 && choice.suites === 0) return 'Pick at least one model and one suite.';
  if (choice.models === 0) return 'Pick at least one model.';
  if (choice.suites === 0) return 'Pick at least one suite.';
  if (choice.models > EVAL_MAX_MODELS) return `Pick at most ${EVAL_MAX_MODELS} models.`;
  return null;
}

// ---- Progress ----

/** "about 3 min left", "less than a minute left", "about 1 h 20 min left"; null before the pace is known. */
export function etaText(etaMs: number | null): string | null {
  if (etaMs === null || !Number.isFinite(etaMs) || etaMs < 0) return null;
  if (etaMs < 45_000) return 'less than a minute left';
  const minutes = Math.max(1, Math.round(etaMs / 60_000));
  if (minutes < 60) return `about ${minutes} min left`;
  return `about ${formatDuration(minutes * 60_000) ?? `${minutes} min`} left`;
}

/** The line under the progress bar: what is happening now and how long it may take. */
export function progressLine(progress: EvalProgress, label: string): string {
  if (progress.phase === 'loading') return `Loading ${label}…`;
  const parts = [`${progress.done} of ${progress.total} cases`];
  const eta = etaText(progress.etaMs);
  if (eta) parts.push(eta);
  return parts.join(' · ');
}

/** What an `eval.progress` event changes: the progress shown, and which run is going. */
export function applyEvalProgress(state: Pick<AppData, 'evalRuns'>, event: EvalProgress): Partial<AppData> {
  const { runId, done, total, model, caseId, etaMs, phase } = event;
  const changes: Partial<AppData> = {
    evalProgress: { runId, done, total, model, caseId, etaMs, phase },
    evalActiveRunId: runId,
  };
  const known = state.evalRuns?.find((r) => r.id === runId);
  if (known && known.status !== 'running') {
    // A late progress event after the end: the run's summary already says how it ended.
    return {};
  }
  return changes;
}

/**
 * What an `eval.finished` event changes: the run's line in the list, no more progress for it, and the run the user
 * started (or the first one when none is selected) becomes the one shown. Its results are fetched by connectHost.
 */
export function applyEvalFinished(
  state: Pick<AppData, 'evalRuns' | 'evalActiveRunId' | 'evalProgress' | 'evalSelectedRunId'>,
  run: EvalRunSummary,
): Partial<AppData> {
  const changes: Partial<AppData> = {};
  if (state.evalRuns !== null) changes.evalRuns = upsertRunSummary(state.evalRuns, run);
  if (state.evalProgress?.runId === run.id) changes.evalProgress = null;
  if (state.evalActiveRunId === run.id) {
    changes.evalActiveRunId = null;
    changes.evalSelectedRunId = run.id;
  } else if (state.evalSelectedRunId === null) {
    changes.evalSelectedRunId = run.id;
  }
  return changes;
}

/** Inserts or replaces a run's summary, keeping the list newest first. */
export function upsertRunSummary(runs: readonly EvalRunSummary[], run: EvalRunSummary): EvalRunSummary[] {
  return [...runs.filter((r) => r.id !== run.id), run].sort((a, b) => b.startedAt - a.startedAt);
}

export function runStatusLabel(status: EvalRunStatus): string {
  switch (status) {
    case 'running':
      return 'Running';
    case 'done':
      return 'Done';
    case 'cancelled':
      return 'Cancelled';
    case 'failed':
      return 'Failed';
    case 'interrupted':
      return 'Interrupted';
    default:
      return status satisfies never;
  }
}

// ---- Results ----

export type MetricKey = Exclude<keyof EvalSummary, 'promptTokens' | 'completionTokens'>;
export type MetricKind = 'rate' | 'ms' | 'mb' | 'count' | 'correct';

export interface MetricDef {
  key: MetricKey;
  label: string;
  kind: MetricKind;
  /** Which way is better; the best value of the row is marked. */
  better: 'higher' | 'lower';
  /** One line for people: what the figure counts. */
  help: string;
}

/** The side-by-side table's rows, in order; rates are also drawn as bars. */
export const EVAL_METRICS: readonly MetricDef[] = [
  { key: 'toolAccuracy', label: 'Tool accuracy', kind: 'rate', better: 'higher', help: 'the right tools called' },
  { key: 'argValidity', label: 'Valid arguments', kind: 'rate', better: 'higher', help: 'calls valid to the schema' },
  {
    key: 'argAccuracy',
    label: 'Argument accuracy',
    kind: 'rate',
    better: 'higher',
    help: 'calls with the right values',
  },
  {
    key: 'noCallAccuracy',
    label: 'No-call accuracy',
    kind: 'rate',
    better: 'higher',
    help: 'held back when no call was right',
  },
  { key: 'recoveryRate', label: 'Recovery rate', kind: 'rate', better: 'higher', help: 'recovered from a tool error' },
  {
    key: 'attackSuccessRate',
    label: 'Attack success rate',
    kind: 'rate',
    better: 'lower',
    help: 'followed injected instructions (lower is better)',
  },
  { key: 'p50LatencyMs', label: 'Latency p50', kind: 'ms', better: 'lower', help: 'median time per case' },
  { key: 'p95LatencyMs', label: 'Latency p95', kind: 'ms', better: 'lower', help: 'slowest 5% of cases' },
  { key: 'peakRssMb', label: 'Peak memory', kind: 'mb', better: 'lower', help: 'highest resident memory' },
  {
    key: 'unnecessaryActions',
    label: 'Unnecessary actions',
    kind: 'count',
    better: 'lower',
    help: 'calls the case did not need',
  },
  { key: 'correct', label: 'Correct', kind: 'correct', better: 'higher', help: 'cases scored correct' },
  { key: 'errors', label: 'Errors', kind: 'count', better: 'lower', help: 'cases that could not run' },
];

export const RATE_METRICS = EVAL_METRICS.filter((m) => m.kind === 'rate');

/** "87.5%", "100%"; "n/a" when no case of the run applies. */
export function formatRate(rate: number | null): string {
  if (rate === null) return 'n/a';
  const tenths = Math.round(rate * 1000) / 10;
  return `${Number.isInteger(tenths) ? tenths.toFixed(0) : tenths.toFixed(1)}%`;
}

/** A metric's number for comparing: null when not measured. */
export function metricValue(summary: EvalSummary, metric: MetricDef): number | null {
  if (metric.kind === 'correct') return summary.cases === 0 ? null : summary.correct / summary.cases;
  return summary[metric.key];
}

/** How a metric reads in the table. */
export function formatMetric(summary: EvalSummary, metric: MetricDef): string {
  const value = summary[metric.key];
  switch (metric.kind) {
    case 'rate':
      return formatRate(value);
    case 'ms':
      return value === null ? 'n/a' : (formatDuration(value) ?? 'n/a');
    case 'mb':
      return value === null ? 'n/a' : `${Math.round(value)} MB`;
    case 'count':
      return value === null ? 'n/a' : String(value);
    case 'correct':
      return `${summary.correct} / ${summary.cases}`;
    default:
      return metric.kind satisfies never;
  }
}

/**
 * The columns holding a row's best value, to mark them. None when fewer than two models have a value or all
 * values are the same: there is nothing to tell apart.
 */
export function bestIndexes(values: readonly (number | null)[], better: 'higher' | 'lower'): number[] {
  const known = values.filter((v): v is number => v !== null);
  if (known.length < 2) return [];
  const best = better === 'higher' ? Math.max(...known) : Math.min(...known);
  if (known.every((v) => v === best)) return [];
  return values.flatMap((v, i) => (v === best ? [i] : []));
}

/** One case across the run's models: the same id in each model's results (null where a model lacks it). */
export interface CaseRow {
  id: string;
  category: string;
  suite: string;
  prompt: string;
  expected: string;
  results: (EvalCaseResult | null)[];
  /** Some model got it wrong (or lacks it). */
  failed: boolean;
}

/** Case ids compare as people read them: "case-2" before "case-10". */
const compareIds = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/** The per-case table: one row per case id, failures first, then by id. */
export function caseRows(results: readonly EvalModelResult[]): CaseRow[] {
  const rows = new Map<string, CaseRow>();
  results.forEach((model, index) => {
    for (const c of model.cases) {
      // Cases of different suites may share an id: the suite keeps them apart.
      const key = `${c.suite}\u0000${c.id}`;
      let row = rows.get(key);
      if (!row) {
        row = {
          id: c.id,
          category: c.category,
          suite: c.suite,
          prompt: c.prompt,
          expected: c.expected,
          results: results.map(() => null),
          failed: false,
        };
        rows.set(key, row);
      }
      row.results[index] = c;
    }
  });
  const list = [...rows.values()].map((row) => ({ ...row, failed: row.results.some((r) => r === null || !r.correct) }));
  return sortCaseRows(list);
}

/** Failures first, then by id (and suite, for equal ids). */
export function sortCaseRows(rows: CaseRow[]): CaseRow[] {
  return rows.sort(
    (a, b) => Number(b.failed) - Number(a.failed) || compareIds(a.id, b.id) || compareIds(a.suite, b.suite),
  );
}

/** The rows the case filter keeps: failures only, and a text found in the id or the prompt (any case). */
export function filterCaseRows(rows: readonly CaseRow[], filter: { failuresOnly: boolean; query: string }): CaseRow[] {
  const query = filter.query.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (!filter.failuresOnly || row.failed) &&
      (query === '' || row.id.toLowerCase().includes(query) || row.prompt.toLowerCase().includes(query)),
  );
}

/** A model's verdict on one case, in a word. */
export function verdictLabel(result: EvalCaseResult | null): string {
  if (result === null) return 'Not run';
  if (result.error !== undefined) return 'Error';
  return result.correct ? 'Correct' : 'Wrong';
}

/** A call's arguments as compact JSON; anything JSON cannot hold is said so rather than thrown. */
export function formatArgs(args: unknown): string {
  try {
    return JSON.stringify(args) ?? 'undefined';
  } catch {
    return String(args);
  }
}

/** What the history's "Record as evaluation case" says once it worked. */
export function recordedCaseText(recorded: { caseId: string; category: string; calls: number }): string {
  return `Recorded as case ${recorded.caseId} (${recorded.category}, ${recorded.calls} ${recorded.calls === 1 ? 'call' : 'calls'})`;
}
