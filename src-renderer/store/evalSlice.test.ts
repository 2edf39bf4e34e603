import { describe, expect, it } from 'vitest';
import type { ApiRequest, EvalGateView, EvalRun, EvalRunSummary } from '../../src-shared/contract/index.js';
import { ApiCallError } from '../bridge/apiError.js';
import { createAppStore } from './createAppStore.js';
import { deferred, fakeApi, memoryStorage } from '../testing/testFixtures.js';

function summary(id: string, startedAt: number, status: EvalRunSummary['status'] = 'done'): EvalRunSummary {
  return {
    id,
    startedAt,
    finishedAt: status === 'running' ? null : startedAt + 5,
    status,
    suites: ['default'],
    models: ['/m/a.gguf'],
    total: 3,
  };
}

function fullRun(id: string): EvalRun {
  return { ...summary(id, 1), results: [] };
}

const gate = (tool: string, threshold: number): EvalGateView => ({
  tool,
  threshold,
  score: 0.5,
  cases: 4,
  active: threshold <= 0.5,
  reason: 'test',
});

describe('the evaluation slice', () => {
  it('starts a run with what was picked and shows it loading its first model until the first event', async () => {
    const sent: Array<ApiRequest<'eval.start'>> = [];
    const api = fakeApi({
      'eval.start': async (request) => {
        sent.push(request);
        return { runId: 'r2', total: 6 };
      },
    });
    const store = createAppStore({ api, storage: memoryStorage() });
    store.setState({ evalRuns: [summary('r1', 10)] });
    const error = await store
      .getState()
      .startEval({ models: ['/m/a.gguf', '/m/b.gguf'], suites: ['default'], limit: 3 });
    expect(error).toBeNull();
    expect(sent).toEqual([{ models: ['/m/a.gguf', '/m/b.gguf'], suites: ['default'], limit: 3 }]);
    const state = store.getState();
    expect(state.evalActiveRunId).toBe('r2');
    expect(state.evalProgress).toMatchObject({ runId: 'r2', done: 0, total: 6, model: '/m/a.gguf', phase: 'loading' });
    expect(state.evalRuns?.map((r) => [r.id, r.status])).toEqual([
      ['r2', 'running'],
      ['r1', 'done'],
    ]);
    expect(state.evalStarting).toBe(false);
  });

  it('leaves out an absent limit, and answers a refusal without starting anything', async () => {
    const sent: Array<ApiRequest<'eval.start'>> = [];
    const api = fakeApi({
      'eval.start': async (request) => {
        sent.push(request);
        throw new ApiCallError('EVAL_BUSY', 'An evaluation is already running.');
      },
    });
    const store = createAppStore({ api, storage: memoryStorage() });
    const error = await store.getState().startEval({ models: ['/m/a.gguf'], suites: ['default'] });
    expect(sent).toEqual([{ models: ['/m/a.gguf'], suites: ['default'] }]);
    expect(error?.message).toBe('An evaluation is already running.');
    expect(store.getState()).toMatchObject({ evalActiveRunId: null, evalProgress: null, evalStarting: false });
  });

  it('follows progress and, at the end, shows the run it started', async () => {
    const store = createAppStore({
      api: fakeApi({
        'eval.start': async () => ({ runId: 'r2', total: 2 }),
        'eval.run': async ({ runId }) => fullRun(runId),
      }),
      storage: memoryStorage(),
    });
    store.setState({ evalRuns: [] });
    await store.getState().startEval({ models: ['/m/a.gguf'], suites: ['default'] });
    store.getState().applyEvent({
      type: 'eval.progress',
      runId: 'r2',
      done: 1,
      total: 2,
      model: '/m/a.gguf',
      caseId: 'c1',
      etaMs: 3000,
      phase: 'running',
    });
    expect(store.getState().evalProgress).toMatchObject({ done: 1, etaMs: 3000, phase: 'running' });
    store.getState().applyEvent({ type: 'eval.finished', run: summary('r2', 20) });
    expect(store.getState()).toMatchObject({ evalActiveRunId: null, evalProgress: null, evalSelectedRunId: 'r2' });
    expect(store.getState().evalRuns?.[0]?.status).toBe('done');
    await store.getState().reloadEvalRun('r2');
    expect(store.getState().evalRun?.id).toBe('r2');
  });

  it('shows only the answer for the run selected last', async () => {
    const first = deferred<EvalRun>();
    const api = fakeApi({
      'eval.run': ({ runId }) => (runId === 'r1' ? first.promise : Promise.resolve(fullRun(runId))),
    });
    const store = createAppStore({ api, storage: memoryStorage() });
    const slow = store.getState().selectEvalRun('r1');
    await store.getState().selectEvalRun('r2');
    first.resolve(fullRun('r1'));
    await slow;
    expect(store.getState().evalSelectedRunId).toBe('r2');
    expect(store.getState().evalRun?.id).toBe('r2');
  });

  it('picks up a run already going and shows the newest finished one on load', async () => {
    const api = fakeApi({
      'eval.runs': async () => ({ runs: [summary('r1', 10), summary('r3', 30, 'running'), summary('r2', 20)] }),
      'eval.run': async ({ runId }) => fullRun(runId),
    });
    const store = createAppStore({ api, storage: memoryStorage() });
    await store.getState().loadEvalRuns();
    const state = store.getState();
    expect(state.evalRuns?.map((r) => r.id)).toEqual(['r3', 'r2', 'r1']);
    expect(state.evalActiveRunId).toBe('r3');
    expect(state.evalSelectedRunId).toBe('r2');
    expect(state.evalRun?.id).toBe('r2');
  });

  it('keeps a run started after the list was asked for, and ends one the list says was interrupted', async () => {
    const listed = deferred<{ runs: EvalRunSummary[] }>();
    let answer: Promise<{ runs: EvalRunSummary[] }> = listed.promise;
    const api = fakeApi({
      'eval.runs': () => answer,
      'eval.start': async () => ({ runId: 'r2', total: 3 }),
      'eval.run': async ({ runId }) => fullRun(runId),
    });
    const store = createAppStore({ api, storage: memoryStorage() });
    store.setState({ evalRuns: [summary('r1', 10)] });
    const loading = store.getState().loadEvalRuns();
    await store.getState().startEval({ models: ['/m/a.gguf'], suites: ['default'] });
    listed.resolve({ runs: [summary('r1', 10)] });
    await loading;
    expect(store.getState().evalActiveRunId).toBe('r2');
    expect(store.getState().evalRuns?.map((r) => [r.id, r.status])).toEqual([
      ['r2', 'running'],
      ['r1', 'done'],
    ]);

    // The Host restarted meanwhile: the run was interrupted, and no event will say so.
    answer = Promise.resolve({ runs: [summary('r2', 20, 'interrupted'), summary('r1', 10)] });
    await store.getState().loadEvalRuns();
    expect(store.getState()).toMatchObject({ evalActiveRunId: null, evalProgress: null });
  });

  it('keeps a run whose deletion failed, and forgets one deleted', async () => {
    let fail = true;
    const api = fakeApi({
      'eval.deleteRun': async () => {
        if (fail) throw new ApiCallError('INTERNAL', 'The disk is read-only.');
        return { deleted: true };
      },
    });
    const store = createAppStore({ api, storage: memoryStorage() });
    store.setState({
      evalRuns: [summary('r2', 20), summary('r1', 10)],
      evalSelectedRunId: 'r2',
      evalRun: fullRun('r2'),
    });
    expect((await store.getState().deleteEvalRun('r2'))?.message).toBe('The disk is read-only.');
    expect(store.getState().evalRuns?.map((r) => r.id)).toEqual(['r2', 'r1']);
    expect(store.getState().evalRun?.id).toBe('r2');
    fail = false;
    expect(await store.getState().deleteEvalRun('r2')).toBeNull();
    expect(store.getState().evalRuns?.map((r) => r.id)).toEqual(['r1']);
    expect(store.getState()).toMatchObject({ evalSelectedRunId: null, evalRun: null });
  });

  it('sets and removes gates from the answer, and keeps the shown gates when a change fails', async () => {
    const sent: Array<ApiRequest<'eval.setGate'>> = [];
    const api = fakeApi({
      'eval.setGate': async (request) => {
        sent.push(request);
        if (request.tool === 'mail_send')
          throw new ApiCallError('INVALID_REQUEST', 'Irreversible tools cannot be gated.');
        return { gates: request.threshold === null ? [] : [gate(request.tool, request.threshold)] };
      },
    });
    const store = createAppStore({ api, storage: memoryStorage() });
    expect(await store.getState().setEvalGate('note_write', 0.9)).toBeNull();
    expect(store.getState().evalGates).toEqual([gate('note_write', 0.9)]);
    expect((await store.getState().setEvalGate('mail_send', 0.5))?.message).toMatch(/cannot be gated/);
    expect(store.getState().evalGates).toEqual([gate('note_write', 0.9)]);
    expect(await store.getState().setEvalGate('note_write', null)).toBeNull();
    expect(store.getState().evalGates).toEqual([]);
    expect(sent.map((r) => r.threshold)).toEqual([0.9, 0.5, null]);
  });

  it('records a task as a case and counts it in the recorded suite', async () => {
    let recorded = 0;
    const api = fakeApi({
      'eval.recordCase': async ({ taskId }) => {
        recorded++;
        return { caseId: `rec-${taskId}`, category: 'single', calls: 1 };
      },
      'eval.suites': async () => ({
        suites: [{ id: 'recorded', name: 'Recorded', format: 'homebody', cases: recorded, description: '' }],
      }),
    });
    const store = createAppStore({ api, storage: memoryStorage() });
    store.setState({ evalSuites: [] });
    const outcome = await store.getState().recordEvalCase('t1');
    expect(outcome).toEqual({ ok: true, value: { caseId: 'rec-t1', category: 'single', calls: 1 } });
    expect(store.getState().evalSuites?.[0]?.cases).toBe(1);
  });

  it('answers a refused recording as its error', async () => {
    const api = fakeApi({
      'eval.recordCase': async () => {
        throw new ApiCallError('TASK_NOT_FOUND', 'No such task.');
      },
    });
    const store = createAppStore({ api, storage: memoryStorage() });
    const outcome = await store.getState().recordEvalCase('gone');
    expect(outcome).toEqual({ ok: false, error: { code: 'TASK_NOT_FOUND', message: 'No such task.' } });
  });
});
