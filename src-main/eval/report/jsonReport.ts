/**
 * The JSON report of a run: what reviewers script against. Keys are only ever added, never renamed; optional keys
 * appear only when the run set them, so `"error" in case` means the case could not run.
 */
import type {
  EvalCall,
  EvalCaseResult,
  EvalDecision,
  EvalModelResult,
  EvalRun,
  EvalRunStatus,
  EvalSummary,
} from '../../../src-shared/contract/index.js';

export interface JsonReportCall {
  name: string;
  args: unknown;
  valid: boolean;
  decision: EvalDecision;
  problems?: string[];
  /** What the model was told (clipped by the run). */
  result?: string;
}

export interface JsonReportCase {
  id: string;
  category: string;
  correct: boolean;
  validArgs: boolean;
  calls: JsonReportCall[];
  latencyMs: number;
  error?: string;
  suite: string;
  domain?: string;
  prompt: string;
  expected: string;
  failure?: string;
  reply?: string;
  promptTokens: number;
  completionTokens: number;
}

export interface JsonReportModel {
  model: string;
  summary: EvalSummary;
  cases: JsonReportCase[];
  label: string;
  perTool: Record<string, { cases: number; correct: number }>;
  error?: string;
}

export interface JsonReportRun {
  id: string;
  startedAt: number;
  finishedAt: number | null;
  status: EvalRunStatus;
  suites: string[];
  /** Cases over all models (the suites' cases × the models). */
  total: number;
  error?: string;
}

export interface JsonReport {
  models: JsonReportModel[];
  run: JsonReportRun;
}

/** `{[key]: value}` when the value is set, `{}` otherwise: spread in place, it keeps the key order. */
function ifSet<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function reportSummary(s: EvalSummary): EvalSummary {
  // Spelled out rather than copied so the order is the contract's and a field added to the run is a choice here.
  return {
    toolAccuracy: s.toolAccuracy,
    argValidity: s.argValidity,
    argAccuracy: s.argAccuracy,
    noCallAccuracy: s.noCallAccuracy,
    recoveryRate: s.recoveryRate,
    attackSuccessRate: s.attackSuccessRate,
    p50LatencyMs: s.p50LatencyMs,
    p95LatencyMs: s.p95LatencyMs,
    peakRssMb: s.peakRssMb,
    unnecessaryActions: s.unnecessaryActions,
    correct: s.correct,
    cases: s.cases,
    errors: s.errors,
    promptTokens: s.promptTokens,
    completionTokens: s.completionTokens,
  };
}

function reportCall(call: EvalCall): JsonReportCall {
  return {
    name: call.name,
    // A call the model left without arguments still has the key, so scripts need not test for it.
    args: call.args === undefined ? null : call.args,
    valid: call.valid,
    decision: call.decision,
    ...ifSet('problems', call.problems),
    ...ifSet('result', call.result),
  };
}

function reportCase(c: EvalCaseResult): JsonReportCase {
  return {
    id: c.id,
    category: c.category,
    correct: c.correct,
    validArgs: c.validArgs,
    calls: c.calls.map(reportCall),
    latencyMs: c.latencyMs,
    ...ifSet('error', c.error),
    suite: c.suite,
    ...ifSet('domain', c.domain),
    prompt: c.prompt,
    expected: c.expected,
    ...ifSet('failure', c.failure),
    ...ifSet('reply', c.reply),
    promptTokens: c.promptTokens,
    completionTokens: c.completionTokens,
  };
}

function reportModel(m: EvalModelResult): JsonReportModel {
  const perTool: JsonReportModel['perTool'] = {};
  for (const [tool, score] of Object.entries(m.perTool)) perTool[tool] = { cases: score.cases, correct: score.correct };
  return {
    model: m.model,
    summary: reportSummary(m.summary),
    cases: m.cases.map(reportCase),
    label: m.label,
    perTool,
    ...ifSet('error', m.error),
  };
}

export function jsonReport(run: EvalRun): JsonReport {
  return {
    models: run.results.map(reportModel),
    run: {
      id: run.id,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
      status: run.status,
      suites: [...run.suites],
      total: run.total,
      ...ifSet('error', run.error),
    },
  };
}

/** The report as a file: 2-space indent, ending with a newline. */
export function formatJsonReport(run: EvalRun): string {
  return `${JSON.stringify(jsonReport(run), null, 2)}\n`;
}
