import type { StateCreator } from 'zustand/vanilla';
import type { EvalRunSummary } from '../../src-shared/contract/index.js';
import { toAppError } from '../bridge/apiError.js';
import { upsertRunSummary } from './evalView.js';
import type { AppState, EvalActions, EvalData, Outcome, StoreDeps } from './types.js';

export const initialEvalData: EvalData = {
  evalSuites: null,
  evalSuitesError: null,
  evalRuns: null,
  evalRunsError: null,
  evalActiveRunId: null,
  evalProgress: null,
  evalStarting: false,
  evalSelectedRunId: null,
  evalRun: null,
  evalRunLoading: false,
  evalRunError: null,
  evalGates: null,
  evalGatesError: null,
};

/** The Evaluation page: run models on the same cases, compare them, and gate tools on the active model's scores. */
export const createEvalSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], EvalData & EvalActions> =>
  (set, get) => {
    // Selecting another run makes an older answer stale.
    let runRequest = 0;
    const attempt = async <T>(call: () => Promise<T>): Promise<Outcome<T>> => {
      try {
        return { ok: true, value: await call() };
      } catch (error) {
        return { ok: false, error: toAppError(error) };
      }
    };
    return {
      ...initialEvalData,

      async loadEval() {
        const state = get();
        const suites = async () => {
          const outcome = await attempt(() => deps.api['eval.suites']({}));
          set(
            outcome.ok
              ? { evalSuites: outcome.value.suites, evalSuitesError: null }
              : { evalSuitesError: outcome.error },
          );
        };
        await Promise.all([
          suites(),
          state.loadEvalRuns(),
          state.loadEvalGates(),
          state.modelsListing === null ? state.loadModels() : undefined,
          state.tools.length === 0 ? state.loadSettings() : undefined,
        ]);
      },

      async loadEvalRuns() {
        const outcome = await attempt(() => deps.api['eval.runs']({}));
        if (!outcome.ok) return set({ evalRunsError: outcome.error });
        const runs = outcome.value.runs.slice().sort((a, b) => b.startedAt - a.startedAt);
        const { evalActiveRunId, evalSelectedRunId, evalRuns } = get();
        const listed = runs.find((r) => r.id === evalActiveRunId);
        // A run started after this list was asked for: keep it (and its line) until the list knows it.
        const startedSince = evalActiveRunId !== null && !listed;
        const startedLine = startedSince ? evalRuns?.find((r) => r.id === evalActiveRunId) : undefined;
        // A run going since before the page opened (another window, a reload) shows its progress too.
        const running = startedSince ? null : (runs.find((r) => r.status === 'running') ?? null);
        set({
          evalRuns: startedLine ? [startedLine, ...runs] : runs,
          evalRunsError: null,
          ...(startedSince
            ? {}
            : { evalActiveRunId: running?.id ?? null, ...(running === null ? { evalProgress: null } : {}) }),
        });
        const first = runs.find((r) => r.status !== 'running');
        if (evalSelectedRunId === null && first) await get().selectEvalRun(first.id);
      },

      async loadEvalGates() {
        const outcome = await attempt(() => deps.api['eval.gates']({}));
        set(outcome.ok ? { evalGates: outcome.value.gates, evalGatesError: null } : { evalGatesError: outcome.error });
      },

      async startEval(request) {
        set({ evalStarting: true });
        const outcome = await attempt(() =>
          deps.api['eval.start']({
            models: request.models,
            suites: request.suites,
            ...(request.limit !== undefined ? { limit: request.limit } : {}),
          }),
        );
        if (!outcome.ok) {
          set({ evalStarting: false });
          return outcome.error;
        }
        const { runId, total } = outcome.value;
        const first = request.models[0] ?? '';
        // Until the first event: the first model loads. A quick run may already have sent its events.
        const progress = get().evalProgress;
        set({
          evalStarting: false,
          evalActiveRunId: get().evalRuns?.some((r) => r.id === runId && r.status !== 'running') ? null : runId,
          evalProgress:
            progress?.runId === runId
              ? progress
              : { runId, done: 0, total, model: first, caseId: null, etaMs: null, phase: 'loading' },
        });
        const runs = get().evalRuns;
        if (runs !== null && !runs.some((r) => r.id === runId)) {
          const summary: EvalRunSummary = {
            id: runId,
            startedAt: Date.now(),
            finishedAt: null,
            status: 'running',
            suites: request.suites,
            models: request.models,
            total,
          };
          set({ evalRuns: upsertRunSummary(runs, summary) });
        }
        return null;
      },

      async cancelEval() {
        const runId = get().evalActiveRunId;
        if (runId === null) return null;
        const outcome = await attempt(() => deps.api['eval.cancel']({ runId }));
        // The end itself comes as `eval.finished`.
        return outcome.ok ? null : outcome.error;
      },

      async selectEvalRun(runId) {
        const keep = get().evalRun?.id === runId;
        set({ evalSelectedRunId: runId, evalRunError: null, ...(keep ? {} : { evalRun: null }) });
        await get().reloadEvalRun(runId);
      },

      async reloadEvalRun(runId) {
        if (get().evalSelectedRunId !== runId) return;
        const request = ++runRequest;
        set({ evalRunLoading: true });
        const outcome = await attempt(() => deps.api['eval.run']({ runId }));
        if (request !== runRequest) return;
        set(
          outcome.ok
            ? { evalRun: outcome.value, evalRunLoading: false, evalRunError: null }
            : { evalRunLoading: false, evalRunError: outcome.error },
        );
      },

      async deleteEvalRun(runId) {
        const outcome = await attempt(() => deps.api['eval.deleteRun']({ runId }));
        if (!outcome.ok) return outcome.error;
        const state = get();
        set({
          evalRuns: state.evalRuns?.filter((r) => r.id !== runId) ?? null,
          ...(state.evalSelectedRunId === runId ? { evalSelectedRunId: null, evalRun: null, evalRunError: null } : {}),
        });
        return null;
      },

      exportEvalRun: (runId, format) => attempt(() => deps.api['eval.export']({ runId, format })),

      async setEvalGate(tool, threshold) {
        const outcome = await attempt(() => deps.api['eval.setGate']({ tool, threshold }));
        if (!outcome.ok) return outcome.error;
        set({ evalGates: outcome.value.gates, evalGatesError: null });
        return null;
      },

      async recordEvalCase(taskId) {
        const outcome = await attempt(() => deps.api['eval.recordCase']({ taskId }));
        // The recorded suite has one case more.
        if (outcome.ok && get().evalSuites !== null) {
          const suites = await attempt(() => deps.api['eval.suites']({}));
          if (suites.ok) set({ evalSuites: suites.value.suites });
        }
        return outcome;
      },
    };
  };
