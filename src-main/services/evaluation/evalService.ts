/**
 * Evaluation inside the app: suites to pick from, one run at a time in the background (each model loaded in an
 * engine of its own, so the chat's model stays loaded), progress events, runs kept in the store as each model
 * finishes, cases recorded from history, reports, and the gates that read the active model's scores.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { evalApiSchemas } from '../../../src-shared/contract/index.js';
import {
  HomebodyError,
  type EvalGateView,
  type EvalModelResult,
  type EvalRunSummary,
  type EvalSuiteInfo,
  type HostEvent,
  type ModelState,
  type Policy,
} from '../../../src-shared/contract/index.js';
import { lastOffer } from '../../agent/chatRunner.js';
import { SuiteError } from '../../eval/bfclSuite.js';
import { fromHomebodyCase, HomebodyCaseSchema, type EvalCase } from '../../eval/evalCase.js';
import { gateViews, latestToolScores, type ToolScore } from '../../eval/evalGate.js';
import { runEvaluation } from '../../eval/evaluation.js';
import { evalExecutor, FixtureWorkspace } from '../../eval/fixtureWorkspace.js';
import { caseFromTask, RecordError } from '../../eval/recordCase.js';
import { formatJsonReport } from '../../eval/report/jsonReport.js';
import { htmlReport } from '../../eval/report/htmlReport.js';
import { DEFAULT_SUITE_ID, fixturesPath, limitCases, loadSuites, type LoadedSuite } from '../../eval/suiteLoader.js';
import type { ChatEngine } from '../../llm/engineTypes.js';
import { modeFor } from '../../permissions/policy.js';
import type { ToolExecutor } from '../../tools/sandbox/toolExecutor.js';
import { BUILTIN_TOOLS } from '../../tools/builtin/index.js';
import type { ToolDefinition } from '../../tools/toolTypes.js';
import type { Store } from '../../store/store.js';
import type { HandlersOf } from '../handlers.js';

export const RECORDED_SUITE_ID = 'recorded';
const RECORDED_SUITE_NAME = 'Recorded from history';

type EvalMethod = keyof typeof evalApiSchemas;

export interface EvalServiceDeps {
  readonly store: Store;
  readonly emit: (event: HostEvent) => void;
  readonly dataDir: string;
  /** The chat's model (whose scores the gates read), and a fresh engine for each evaluated model. */
  readonly models: {
    readonly engine: { readonly state: ModelState };
    evaluationEngine(): ChatEngine;
    /** A file's name or a node's model and name; throws MODEL_NOT_FOUND for one that is not there. */
    modelLabel(path: string): string;
  };
  /** The built-in tools a case may call; default every one. */
  readonly builtins?: () => ReadonlyMap<string, ToolDefinition>;
  /** The user's policy, which decides (as the gate would) in each case. */
  readonly policies: { current(): Policy };
  readonly now?: () => number;
}

/** Suite files the user adds (Homebody or BFCL format) are read from here. */
export function userSuitesDir(dataDir: string): string {
  return join(dataDir, 'eval', 'suites');
}

function modelPathOf(state: ModelState): string | null {
  return state.status === 'ready' ? state.info.path : null;
}

export function createEvalService(deps: EvalServiceDeps) {
  const now = deps.now ?? Date.now;
  const builtinTools = deps.builtins ?? (() => new Map(BUILTIN_TOOLS.map((tool) => [tool.name, tool])));
  const repo = deps.store.eval;
  const interrupted = repo.markInterrupted(now());
  let running: { id: string; controller: AbortController; done: Promise<void> } | undefined;
  let scores: { model: string | null; byTool: Map<string, ToolScore> } | undefined;
  const invalidateScores = () => {
    scores = undefined;
  };
  const toolScores = () => {
    const model = modelPathOf(deps.models.engine.state);
    if (!scores || scores.model !== model) scores = { model, byTool: latestToolScores(repo.finishedRuns(), model) };
    return scores;
  };

  const recordedCases = (): EvalCase[] =>
    repo.cases().flatMap((row) => {
      const parsed = HomebodyCaseSchema.safeParse(row.body);
      return parsed.success ? [fromHomebodyCase(parsed.data, RECORDED_SUITE_NAME)] : [];
    });

  const userSuites = (): LoadedSuite[] => {
    const dir = userSuitesDir(deps.dataDir);
    if (!existsSync(dir) || readdirSync(dir).length === 0) return [];
    try {
      return loadSuites(dir).suites;
    } catch {
      return [];
    }
  };

  /** The suite an id names: the default, the recorded cases, or a file in the user's suites folder. */
  const suiteFor = (id: string): LoadedSuite => {
    try {
      if (id === DEFAULT_SUITE_ID) return loadSuites(DEFAULT_SUITE_ID).suites[0]!;
      if (id === RECORDED_SUITE_ID) {
        const cases = recordedCases();
        if (cases.length === 0) {
          throw new HomebodyError(
            'SUITE_INVALID',
            'No case has been recorded yet: record one from a task on the History page.',
          );
        }
        return { id, name: RECORDED_SUITE_NAME, format: 'homebody', description: '', cases };
      }
    } catch (error) {
      if (error instanceof SuiteError) throw new HomebodyError('SUITE_INVALID', error.message);
      throw error;
    }
    // Only the suites Homebody lists: a request cannot make the Host read any file it names.
    const suite = userSuites().find((s) => s.id === id);
    if (!suite) throw new HomebodyError('SUITE_INVALID', `There is no evaluation suite ${id}.`);
    return suite;
  };

  const suiteInfo = (suite: LoadedSuite): EvalSuiteInfo => ({
    id: suite.id,
    name: suite.name,
    format: suite.format,
    cases: suite.cases.length,
    description: suite.description,
  });

  const runOrThrow = (runId: string) => {
    const run = repo.run(runId);
    if (!run)
      throw new HomebodyError('EVAL_RUN_NOT_FOUND', `There is no evaluation run ${runId}; it may have been deleted.`);
    return run;
  };

  const summaryOf = (id: string): EvalRunSummary => {
    const { results: _results, ...summary } = runOrThrow(id);
    return summary;
  };

  /** A model removed since the run started keeps its reference as its label. */
  const labelOf = (path: string): string => {
    try {
      return deps.models.modelLabel(path);
    } catch {
      return basename(path);
    }
  };

  async function execute(started: EvalRunSummary, cases: EvalCase[], controller: AbortController) {
    const { id: runId, models } = started;
    const base = join(deps.dataDir, 'eval', 'workspace');
    let workspace: FixtureWorkspace | undefined;
    let executor: ToolExecutor | undefined;
    let status: 'done' | 'cancelled' | 'failed' = 'done';
    let error: string | undefined;
    try {
      workspace = new FixtureWorkspace(fixturesPath(), base);
      executor = evalExecutor(workspace);
      const policy = deps.policies.current();
      const { cancelled } = await runEvaluation(
        models.map((path) => ({ path, label: labelOf(path) })),
        cases,
        {
          createEngine: () => deps.models.evaluationEngine(),
          builtins: builtinTools(),
          executor,
          workspace,
          modeFor: (tool, risk) => modeFor(policy, tool, risk),
          signal: controller.signal,
          onProgress: (p) => deps.emit({ type: 'eval.progress', runId, ...p }),
          onModelDone: (_result: EvalModelResult, all) => repo.saveResults(runId, all),
        },
      );
      if (cancelled) status = 'cancelled';
    } catch (failure) {
      status = 'failed';
      error = (failure as Error).message;
    } finally {
      await executor?.dispose();
      workspace?.dispose();
    }
    // The end is always announced, even when it cannot be recorded (a full disk) or the run's row is gone (all data
    // was deleted meanwhile): the page stops showing progress, and nothing is thrown from the background.
    let summary: EvalRunSummary = { ...started, finishedAt: now(), status, ...(error ? { error } : {}) };
    try {
      repo.finishRun(runId, summary.finishedAt!, status, error);
      if (repo.run(runId)) summary = summaryOf(runId);
    } catch (failure) {
      console.error('[eval] the end of a run could not be recorded:', (failure as Error).message);
    }
    invalidateScores();
    deps.emit({ type: 'eval.finished', run: summary });
  }

  /** Cancels the running evaluation, if any, and waits for it to end. */
  async function stopRunning(): Promise<void> {
    if (!running) return;
    running.controller.abort();
    await running.done;
  }

  const gates = (): EvalGateView[] =>
    gateViews(repo.gates(), toolScores().byTool, modelPathOf(deps.models.engine.state));

  const handlers: HandlersOf<EvalMethod> = {
    'eval.suites': async () => {
      const suites: EvalSuiteInfo[] = [suiteInfo(suiteFor(DEFAULT_SUITE_ID))];
      const recorded = recordedCases();
      if (recorded.length > 0) {
        suites.push({
          id: RECORDED_SUITE_ID,
          name: RECORDED_SUITE_NAME,
          format: 'homebody',
          cases: recorded.length,
          description: 'Tasks from your history, recorded as cases.',
        });
      }
      suites.push(...userSuites().map(suiteInfo));
      return { suites };
    },
    'eval.start': async ({ models, suites, limit }) => {
      if (running) {
        throw new HomebodyError('EVAL_BUSY', 'An evaluation is already running; cancel it or wait for it to end.');
      }
      // A file on this computer or a model on another one (remote:<id>): both are compared in one run.
      for (const path of models) deps.models.modelLabel(path);
      const chosen = [...new Set(suites)].map(suiteFor);
      const cases = chosen.flatMap((suite) => limitCases(suite, limit));
      const unique = [...new Set(models)];
      const id = crypto.randomUUID();
      const total = cases.length * unique.length;
      const started: EvalRunSummary = {
        id,
        startedAt: now(),
        finishedAt: null,
        status: 'running',
        suites: chosen.map((s) => s.name),
        models: unique,
        total,
      };
      repo.startRun(started);
      mkdirSync(join(deps.dataDir, 'eval'), { recursive: true });
      const controller = new AbortController();
      const done = execute(started, cases, controller).finally(() => {
        running = undefined;
      });
      running = { id, controller, done };
      return { runId: id, total };
    },
    'eval.cancel': async ({ runId }) => {
      if (running?.id !== runId) return { cancelled: false };
      running.controller.abort();
      await running.done;
      return { cancelled: true };
    },
    'eval.runs': async () => ({ runs: repo.runs() }),
    'eval.run': async ({ runId }) => runOrThrow(runId),
    'eval.deleteRun': async ({ runId }) => {
      if (running?.id === runId) {
        throw new HomebodyError('EVAL_BUSY', 'This evaluation is still running; cancel it before deleting it.');
      }
      const deleted = repo.deleteRun(runId);
      invalidateScores();
      return { deleted };
    },
    'eval.recordCase': async ({ taskId }) => {
      const task = deps.store.tasks.get(taskId);
      if (!task) throw new HomebodyError('TASK_NOT_FOUND', `There is no task ${taskId}; it may have been deleted.`);
      const detail = {
        task,
        messages: deps.store.messages.listForTask(taskId),
        toolCalls: deps.store.toolCalls.listForTask(taskId),
      };
      const builtins = builtinTools();
      const stamp = new Date(now()).toISOString().slice(0, 10).replaceAll('-', '');
      const id = `recorded-${stamp}-${crypto.randomUUID().slice(0, 8)}`;
      try {
        const c = caseFromTask(detail, {
          id,
          // The tools the task was offered (its last `tools-offered` audit event), else every built-in.
          offered: lastOffer(deps.store.audit.forTask(taskId)) ?? [...builtins.keys()],
          builtins: new Set(builtins.keys()),
        });
        repo.addCase(id, now(), taskId, c);
        return { caseId: id, category: c.kind, calls: c.expected.length };
      } catch (error) {
        if (error instanceof RecordError) throw new HomebodyError('INVALID_REQUEST', error.message);
        throw error;
      }
    },
    'eval.export': async ({ runId, format }) => {
      const run = runOrThrow(runId);
      const stamp = new Date(run.startedAt).toISOString().slice(0, 16).replace(/[:T]/g, '-');
      return format === 'html'
        ? { fileName: `homebody-eval-${stamp}.html`, mimeType: 'text/html', content: htmlReport(run) }
        : { fileName: `homebody-eval-${stamp}.json`, mimeType: 'application/json', content: formatJsonReport(run) };
    },
    'eval.gates': async () => ({ gates: gates() }),
    'eval.setGate': async ({ tool, threshold }) => {
      const definition = builtinTools().get(tool);
      if (!definition) throw new HomebodyError('INVALID_REQUEST', `There is no built-in tool named ${tool}.`);
      if (threshold !== null && (definition.risk === 'irreversible' || definition.alwaysAsk)) {
        throw new HomebodyError(
          'INVALID_REQUEST',
          definition.risk === 'irreversible'
            ? `${tool} cannot be undone, so it always waits in the approval queue, whatever a model scores.`
            : `${tool} always asks first, so that you see exactly what it does each time.`,
        );
      }
      repo.setGate(tool, threshold);
      return { gates: gates() };
    },
  };

  return {
    handlers,
    /** Runs that a crash or a quit cut short, found at this start. */
    interrupted,
    /** Whether the evaluation gate lets `tool` run without asking now. */
    gateOpen(tool: string): boolean {
      const gate = repo.gates().find((g) => g.tool === tool);
      if (!gate) return false;
      const score = toolScores().byTool.get(tool);
      return score !== undefined && score.score >= gate.threshold;
    },
    /** Cancels the running evaluation, if any, and waits for it to end. */
    stopRunning,
    /** Before "Delete all my data": no run may write while the data goes. */
    stopForWipe: stopRunning,
    dispose: stopRunning,
  };
}

export type EvalService = ReturnType<typeof createEvalService>;
