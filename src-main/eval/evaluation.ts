/**
 * A whole evaluation: every chosen model on the same cases, one model at a time (each loaded, run and disposed
 * before the next, so their memory does not add up), with progress and an estimate of the time left.
 */
import type { EvalModelResult } from '../../src-shared/contract/index.js';
import type { EvalCase } from './evalCase.js';
import { evaluateModel, type EvalModel, type EvalPhase, type EvalRunnerOptions } from './evalRunner.js';

export interface EvaluationProgress {
  /** Cases finished over all models, of `total`. */
  readonly done: number;
  readonly total: number;
  readonly model: string;
  readonly caseId: string | null;
  readonly etaMs: number | null;
  readonly phase: EvalPhase;
}

export interface EvaluationOptions extends Omit<EvalRunnerOptions, 'onPhase' | 'onCase'> {
  readonly onProgress?: (progress: EvaluationProgress) => void;
  /** A model's cases are all done (or the run was cancelled during them): its result so far. */
  readonly onModelDone?: (result: EvalModelResult, all: readonly EvalModelResult[]) => void;
  readonly now?: () => number;
}

/**
 * Time left at the pace so far: the time spent running cases per case, times the cases left. Loading is left out of
 * the pace (it happens once per model) but a model still to load adds what the loads so far took on average.
 */
export function estimateLeft(input: {
  done: number;
  total: number;
  caseMs: number;
  loadsDone: number;
  loadMs: number;
  loadsLeft: number;
}): number | null {
  if (input.done === 0) return null;
  const perCase = input.caseMs / input.done;
  const perLoad = input.loadsDone > 0 ? input.loadMs / input.loadsDone : 0;
  return Math.max(0, Math.round(perCase * (input.total - input.done) + perLoad * input.loadsLeft));
}

export async function runEvaluation(
  models: readonly EvalModel[],
  cases: readonly EvalCase[],
  options: EvaluationOptions,
): Promise<{ results: EvalModelResult[]; cancelled: boolean }> {
  const now = options.now ?? Date.now;
  const total = models.length * cases.length;
  const results: EvalModelResult[] = [];
  let done = 0;
  let caseMs = 0;
  let loadMs = 0;
  let loadsDone = 0;
  let mark = now();
  for (const [index, model] of models.entries()) {
    if (options.signal.aborted) break;
    const eta = () => estimateLeft({ done, total, caseMs, loadsDone, loadMs, loadsLeft: models.length - index - 1 });
    const result = await evaluateModel(model, cases, {
      ...options,
      onPhase: (m, phase) => {
        const at = now();
        if (phase === 'running') {
          loadMs += at - mark;
          loadsDone++;
        }
        mark = at;
        options.onProgress?.({ done, total, model: m.path, caseId: null, etaMs: eta(), phase });
      },
      onCase: (m, c) => {
        const at = now();
        caseMs += at - mark;
        mark = at;
        done++;
        options.onProgress?.({ done, total, model: m.path, caseId: c.id, etaMs: eta(), phase: 'running' });
      },
    });
    results.push(result);
    options.onModelDone?.(result, results);
  }
  return { results, cancelled: options.signal.aborted };
}
