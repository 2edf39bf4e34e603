import { z } from 'zod';

/**
 * Evaluation: run candidate models on the same cases (Homebody's own workflows, BFCL suites, cases recorded
 * from the user's history) and compare them under the same criteria before trusting one.
 */

/**
 * What a Homebody case tests. BFCL cases keep their own category (`simple_python`, `parallel`, `live_multiple`...),
 * so a case's `category` is one of these or a BFCL category name.
 */
export const EVAL_KINDS = ['single', 'several', 'none', 'ask', 'recovery', 'injection', 'multi-turn'] as const;
export const EvalKindSchema = z.enum(EVAL_KINDS);
export type EvalKind = z.infer<typeof EvalKindSchema>;

export const EVAL_KIND_LABELS: Readonly<Record<EvalKind, string>> = {
  single: 'One call',
  several: 'Several calls',
  none: 'No suitable tool',
  ask: 'Missing or ambiguous details (ask)',
  recovery: 'Tool error (recover)',
  injection: 'Injected instructions',
  'multi-turn': 'Change of intent',
};

const Rate = z.number().min(0).max(1).nullable();

/**
 * Scores of one model over one run. A rate is null when the run held no case it applies to (no injection case:
 * no attack success rate). Rates are fractions (0..1).
 */
export const EvalSummarySchema = z.object({
  /** Cases that expect calls where the model called exactly the expected tools (names and counts, any order). */
  toolAccuracy: Rate,
  /** Proposed calls whose arguments are valid against the tool's schema. */
  argValidity: Rate,
  /** Cases that expect calls where the calls match by BFCL's rules (names, allowed values, optional, order). */
  argAccuracy: Rate,
  /** Cases that expect no call (no suitable tool, missing details) where the model called nothing. */
  noCallAccuracy: Rate,
  /** Tool-error cases where the model's calls after the error were the expected recovery. */
  recoveryRate: Rate,
  /** Injection cases where the model proposed a call the injected text asked for (lower is better). */
  attackSuccessRate: Rate,
  p50LatencyMs: z.number().nonnegative().nullable(),
  p95LatencyMs: z.number().nonnegative().nullable(),
  /** The process's highest resident memory while this model ran its cases. */
  peakRssMb: z.number().nonnegative().nullable(),
  /** Calls beyond what the case needed: extra calls where calls were expected, any call where none was. */
  unnecessaryActions: z.number().int().nonnegative(),
  /** Cases scored correct, out of `cases`. */
  correct: z.number().int().nonnegative(),
  cases: z.number().int().nonnegative(),
  /** Cases that could not run (the model failed to load, the reply failed): counted as wrong. */
  errors: z.number().int().nonnegative(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
});
export type EvalSummary = z.infer<typeof EvalSummarySchema>;

/** What became of a proposed call: what the app's permission gate would have done with it. */
export const EvalDecisionSchema = z.enum([
  /** Ran without asking (a read the policy allows, or a case tool with no risk class). */
  'auto',
  /** Would have asked the user; in a run it is allowed, against the fixtures. */
  'ask',
  /** Irreversible: would have waited in the approval queue; never run. */
  'queue',
  /** Refused before running: unknown tool or invalid arguments. */
  'refused',
]);
export type EvalDecision = z.infer<typeof EvalDecisionSchema>;

export const EvalCallSchema = z.object({
  name: z.string(),
  args: z.unknown(),
  /** The arguments are valid against the tool's schema. */
  valid: z.boolean(),
  /** Why they are not, for people. */
  problems: z.array(z.string()).optional(),
  decision: EvalDecisionSchema,
  /** What the model was told (clipped). */
  result: z.string().optional(),
});
export type EvalCall = z.infer<typeof EvalCallSchema>;

export const EvalCaseResultSchema = z.object({
  id: z.string(),
  /** An EvalKind, or a BFCL category. */
  category: z.string(),
  /** The suite the case came from. */
  suite: z.string(),
  /** The domain of a Homebody case (files, calendar, mail...), when it has one. */
  domain: z.string().optional(),
  /** The user's last turn, as the model saw it. */
  prompt: z.string(),
  /** The right behaviour, for people: the expected calls with their allowed values, or "no call". */
  expected: z.string(),
  correct: z.boolean(),
  /** Every call's arguments were valid against its schema (true when there were no calls). */
  validArgs: z.boolean(),
  calls: z.array(EvalCallSchema),
  /** The model's text reply (clipped). */
  reply: z.string().optional(),
  /** Why the case is not correct, in BFCL's words where it applies. */
  failure: z.string().optional(),
  latencyMs: z.number().nonnegative(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  /** The case could not run (it is then not correct). */
  error: z.string().optional(),
});
export type EvalCaseResult = z.infer<typeof EvalCaseResultSchema>;

export const EvalModelResultSchema = z.object({
  /** The GGUF file's path. */
  model: z.string(),
  /** For people: the file name, or the library's name for it. */
  label: z.string(),
  summary: EvalSummarySchema,
  /** Per tool: cases whose expected calls use it, and how many of those were correct (for the gate). */
  perTool: z.record(z.string(), z.object({ cases: z.number().int(), correct: z.number().int() })),
  cases: z.array(EvalCaseResultSchema),
  /** The model could not be evaluated at all (e.g. it failed to load). */
  error: z.string().optional(),
});
export type EvalModelResult = z.infer<typeof EvalModelResultSchema>;

export const EvalRunStatusSchema = z.enum(['running', 'done', 'cancelled', 'failed', 'interrupted']);
export type EvalRunStatus = z.infer<typeof EvalRunStatusSchema>;

export const EvalRunSummarySchema = z.object({
  id: z.string(),
  startedAt: z.number().int(),
  finishedAt: z.number().int().nullable(),
  status: EvalRunStatusSchema,
  /** Suite names. */
  suites: z.array(z.string()),
  /** Model paths, in the order they were given. */
  models: z.array(z.string()),
  /** Cases over all models (the cases of the suites × the models). */
  total: z.number().int().nonnegative(),
  error: z.string().optional(),
});
export type EvalRunSummary = z.infer<typeof EvalRunSummarySchema>;

export const EvalRunSchema = EvalRunSummarySchema.extend({ results: z.array(EvalModelResultSchema) });
export type EvalRun = z.infer<typeof EvalRunSchema>;

export const EvalSuiteInfoSchema = z.object({
  /** What `eval.start` takes: `default`, `recorded`, or a suite file's path. */
  id: z.string(),
  name: z.string(),
  format: z.enum(['homebody', 'bfcl']),
  cases: z.number().int().nonnegative(),
  description: z.string(),
});
export type EvalSuiteInfo = z.infer<typeof EvalSuiteInfoSchema>;

export const EvalProgressEventSchema = z.object({
  type: z.literal('eval.progress'),
  runId: z.string(),
  /** Cases finished over all models, and the run's total. */
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  /** The model running now, and the case just finished. */
  model: z.string(),
  caseId: z.string().nullable(),
  /** Time left at the pace so far; null until a case has finished. */
  etaMs: z.number().nonnegative().nullable(),
  /** Loading the model, or running cases. */
  phase: z.enum(['loading', 'running']),
});
export const EvalFinishedEventSchema = z.object({
  type: z.literal('eval.finished'),
  run: EvalRunSummarySchema,
});

export const EvalGateSchema = z.object({
  tool: z.string(),
  /** The share of the tool's cases (0..1) the active model must get right for the tool to run without asking. */
  threshold: z.number().min(0).max(1),
});
export type EvalGate = z.infer<typeof EvalGateSchema>;

export const EvalGateViewSchema = EvalGateSchema.extend({
  /** The active model's score on the tool's cases in its latest finished run; null when it has none. */
  score: z.number().min(0).max(1).nullable(),
  cases: z.number().int().nonnegative(),
  /** The tool runs without asking now (score at or above the threshold). */
  active: z.boolean(),
  /** Why it is or is not active, for people. */
  reason: z.string(),
});
export type EvalGateView = z.infer<typeof EvalGateViewSchema>;

const RunId = z.string().min(1).max(64);
const ModelPath = z.string().min(1).max(4096);

export const evalApiSchemas = {
  'eval.suites': { request: z.object({}).strict(), response: z.object({ suites: z.array(EvalSuiteInfoSchema) }) },
  /** Starts a run in the background (one at a time); progress and the end arrive as events. */
  'eval.start': {
    request: z
      .object({
        models: z.array(ModelPath).min(1).max(4),
        suites: z.array(z.string().min(1).max(4096)).min(1).max(20),
        /** At most this many cases of each suite. */
        limit: z.number().int().min(1).max(100_000).optional(),
      })
      .strict(),
    response: z.object({ runId: RunId, total: z.number().int().nonnegative() }),
  },
  'eval.cancel': { request: z.object({ runId: RunId }).strict(), response: z.object({ cancelled: z.boolean() }) },
  /** Newest first, without the cases. */
  'eval.runs': { request: z.object({}).strict(), response: z.object({ runs: z.array(EvalRunSummarySchema) }) },
  'eval.run': { request: z.object({ runId: RunId }).strict(), response: EvalRunSchema },
  'eval.deleteRun': { request: z.object({ runId: RunId }).strict(), response: z.object({ deleted: z.boolean() }) },
  /**
   * A task from history becomes a case of the `recorded` suite: its tools, the user's turns, and the calls that
   * ran (the ones the user allowed) as the right answer.
   */
  'eval.recordCase': {
    request: z.object({ taskId: z.string().min(1).max(64) }).strict(),
    response: z.object({ caseId: z.string(), category: EvalKindSchema, calls: z.number().int().nonnegative() }),
  },
  /** The report of a finished run, as a self-contained HTML page (with charts) or as JSON. */
  'eval.export': {
    request: z.object({ runId: RunId, format: z.enum(['html', 'json']) }).strict(),
    response: z.object({ fileName: z.string(), mimeType: z.string(), content: z.string() }),
  },
  'eval.gates': { request: z.object({}).strict(), response: z.object({ gates: z.array(EvalGateViewSchema) }) },
  /** Sets a tool's gate; `threshold: null` removes it. Irreversible tools cannot be gated: they always queue. */
  'eval.setGate': {
    request: z.object({ tool: z.string().min(1).max(128), threshold: z.number().min(0).max(1).nullable() }).strict(),
    response: z.object({ gates: z.array(EvalGateViewSchema) }),
  },
} as const;
