import { describe, expect, it } from 'vitest';
import type { HomebodyApi } from '../../src-shared/contract/index.js';
import { createAppStore } from './createAppStore.js';
import { isQueued, reduceEvent, updateQueue } from './eventReducer.js';
import { selectApprovalCount } from './selectors.js';
import { makeMessage, makeToolCall } from '../testing/testFixtures.js';
import { buildTimeline, timelineKey } from './timeline.js';
import type { AppData, AppState, KeyValueStore } from './types.js';

const storage: KeyValueStore = { get: () => null, set: () => undefined };

function fakeApi(methods: Partial<HomebodyApi> = {}): HomebodyApi {
  return new Proxy(methods as HomebodyApi, {
    get(target, key: string) {
      return (
        (target as Record<string, unknown>)[key] ??
        (() => Promise.reject(Object.assign(new Error(`unexpected call ${key}`), { code: 'INTERNAL' })))
      );
    },
  });
}

function baseState(overrides: Partial<AppData> = {}): AppData {
  return { ...createAppStore({ api: fakeApi(), storage }).getState(), ...overrides };
}

/** A full state (actions included) around some data, for selectors. */
function store(data: AppData): AppState {
  return { ...createAppStore({ api: fakeApi(), storage }).getState(), ...data };
}

describe('toolcall.updated', () => {
  it('upserts calls of the open task in creation order and ignores other tasks', () => {
    const a = makeToolCall({ id: 'a', createdAt: 2 });
    const state = baseState({ openTaskId: 't1', toolCalls: [a] });
    const b = makeToolCall({ id: 'b', createdAt: 1 });
    expect(reduceEvent(state, { type: 'toolcall.updated', call: b }).toolCalls?.map((c) => c.id)).toEqual(['b', 'a']);
    const done = { ...a, state: 'done' as const };
    expect(reduceEvent(state, { type: 'toolcall.updated', call: done }).toolCalls).toEqual([done]);
    expect(reduceEvent(state, { type: 'toolcall.updated', call: { ...b, taskId: 'other' } })).toEqual({});
  });

  it('keeps the approval queue: pending or interrupted queue-gated calls, from any task', () => {
    const state = baseState({ openTaskId: 't1' });
    const queued = makeToolCall({ id: 'q', gate: 'queue', state: 'pending', taskId: null, createdAt: 1 });
    const afterQueue = { ...state, ...reduceEvent(state, { type: 'toolcall.updated', call: queued }) };
    expect(selectApprovalCount(store(afterQueue))).toBe(1);
    expect(afterQueue.toolCalls).toEqual([]);

    const other = makeToolCall({ id: 'r', gate: 'queue', state: 'interrupted', taskId: 'other', createdAt: 5 });
    const two = { ...afterQueue, ...reduceEvent(afterQueue, { type: 'toolcall.updated', call: other }) };
    expect(two.queue.map((c) => c.id)).toEqual(['q', 'r']);

    const approved = { ...queued, state: 'executing' as const, decision: 'approve' as const };
    const one = { ...two, ...reduceEvent(two, { type: 'toolcall.updated', call: approved }) };
    expect(one.queue.map((c) => c.id)).toEqual(['r']);
  });

  it('leaves the queue alone for calls that never go through it', () => {
    const state = baseState({ openTaskId: 't1' });
    const prompt = makeToolCall({ gate: 'prompt', state: 'pending' });
    const changes = reduceEvent(state, { type: 'toolcall.updated', call: prompt });
    expect(changes.queue).toBeUndefined();
    expect(changes.toolCalls).toEqual([prompt]);
    expect(updateQueue(state.queue, prompt)).toBe(state.queue);
  });

  it('isQueued', () => {
    expect(isQueued(makeToolCall({ gate: 'queue', state: 'pending' }))).toBe(true);
    expect(isQueued(makeToolCall({ gate: 'queue', state: 'interrupted' }))).toBe(true);
    expect(isQueued(makeToolCall({ gate: 'queue', state: 'denied' }))).toBe(false);
    expect(isQueued(makeToolCall({ gate: 'prompt', state: 'pending' }))).toBe(false);
  });
});

describe('buildTimeline', () => {
  it('interleaves messages and calls by createdAt, message first on a tie', () => {
    const user = makeMessage({ id: 'u', seq: 0, role: 'user', createdAt: 10 });
    const reply = makeMessage({ id: 'a', seq: 1, createdAt: 20 });
    const next = makeMessage({ id: 'a2', seq: 2, createdAt: 40 });
    const c1 = makeToolCall({ id: 'c1', createdAt: 20 });
    const c2 = makeToolCall({ id: 'c2', createdAt: 30 });
    const c3 = makeToolCall({ id: 'c3', createdAt: 50 });
    expect(buildTimeline([user, reply, next], [c1, c2, c3]).map(timelineKey)).toEqual([
      'm:u',
      'm:a',
      'c:c1',
      'c:c2',
      'm:a2',
      'c:c3',
    ]);
  });

  it('keeps seq order of messages even if their clocks disagree', () => {
    const m1 = makeMessage({ id: 'x', seq: 0, createdAt: 30 });
    const m2 = makeMessage({ id: 'y', seq: 1, createdAt: 20 });
    expect(buildTimeline([m1, m2], []).map(timelineKey)).toEqual(['m:x', 'm:y']);
    expect(buildTimeline([], [makeToolCall()]).map(timelineKey)).toEqual(['c:c1']);
  });
});

describe('approvals and tool-call actions', () => {
  it('loads the queue on start and updates it from approve/deny answers', async () => {
    const q1 = makeToolCall({ id: 'q1', gate: 'queue', taskId: null, createdAt: 1 });
    const q2 = makeToolCall({ id: 'q2', gate: 'queue', taskId: null, createdAt: 2 });
    const store = createAppStore({
      storage,
      api: fakeApi({
        'approvals.list': async () => ({ calls: [q2, q1] }),
        'approvals.approve': async (req) => {
          expect(req).toEqual({ ids: ['q1'], args: { path: '/x' } });
          return { calls: [{ ...q1, state: 'done' }], outcomes: [{ status: 'done', result: null }], continued: [] };
        },
        'approvals.deny': async (req) => {
          expect(req).toEqual({ ids: ['q2'], reason: 'no' });
          return { calls: [{ ...q2, state: 'denied' }], outcomes: [{ status: 'denied', error: 'no' }], continued: [] };
        },
      }),
    });
    await store.getState().loadApprovals();
    expect(store.getState().queue.map((c) => c.id)).toEqual(['q1', 'q2']);
    expect(await store.getState().approveCalls(['q1'], { path: '/x' })).toBeNull();
    expect(store.getState().queue.map((c) => c.id)).toEqual(['q2']);
    expect(await store.getState().denyCalls(['q2'], '  no ')).toBeNull();
    expect(store.getState().queue).toEqual([]);
  });

  it('returns the Host error in place and keeps the queue', async () => {
    const q1 = makeToolCall({ id: 'q1', gate: 'queue' });
    const store = createAppStore({
      storage,
      api: fakeApi({
        'approvals.approve': () =>
          Promise.reject(Object.assign(new Error('path must be a string'), { code: 'INVALID_REQUEST' })),
      }),
    });
    store.setState({ queue: [q1] });
    expect(await store.getState().approveCalls(['q1'], { path: 1 })).toEqual({
      code: 'INVALID_REQUEST',
      message: 'path must be a string',
    });
    expect(store.getState().queue).toEqual([q1]);
  });

  it('answers a prompt and updates the open task', async () => {
    const call = makeToolCall();
    const store = createAppStore({
      storage,
      api: fakeApi({
        'toolcalls.answer': async (req) => {
          expect(req).toEqual({ id: 'c1', answer: 'deny', reason: 'not now' });
          return { ...call, state: 'denied', decision: 'deny', decidedBy: 'user', reason: 'not now' };
        },
        'toolcalls.undo': async () => ({ ...call, state: 'done', undo: 'undone' }),
      }),
    });
    store.setState({ openTaskId: 't1', toolCalls: [call] });
    expect(await store.getState().answerToolCall('c1', 'deny', 'not now')).toBeNull();
    expect(store.getState().toolCalls[0]).toMatchObject({ state: 'denied', reason: 'not now' });
    expect(await store.getState().undoToolCall('c1')).toBeNull();
    expect(store.getState().toolCalls[0]?.undo).toBe('undone');
  });
});

describe('audit paging', () => {
  it('loads the newest page, then older pages before the oldest id shown', async () => {
    const event = (id: number) => ({
      id,
      at: id,
      taskId: null,
      callId: null,
      kind: 'policy-changed',
      actor: 'user' as const,
      summary: `e${id}`,
      detail: null,
      basis: null,
      paths: [],
    });
    const all = Array.from({ length: 120 }, (_, i) => event(i + 1));
    const requests: unknown[] = [];
    const store = createAppStore({
      storage,
      api: fakeApi({
        'audit.list': async (req) => {
          requests.push(req);
          const before = req.beforeId ?? Infinity;
          const events = all
            .filter((e) => e.id < before)
            .reverse()
            .slice(0, req.limit ?? 200);
          return { events };
        },
      }),
    });
    await store.getState().loadAudit();
    expect(
      store
        .getState()
        .auditEvents.map((e) => e.id)
        .slice(0, 2),
    ).toEqual([120, 119]);
    expect(store.getState().auditHasMore).toBe(true);
    await store.getState().loadOlderAudit();
    await store.getState().loadOlderAudit();
    const ids = store.getState().auditEvents.map((e) => e.id);
    expect(ids).toHaveLength(120);
    expect(ids.at(-1)).toBe(1);
    expect(store.getState().auditHasMore).toBe(false);
    expect(requests).toEqual([{ limit: 50 }, { beforeId: 71, limit: 50 }, { beforeId: 21, limit: 50 }]);
  });
});

describe('opening a task that waits for the user', () => {
  const task = { id: 't1', title: 'rename the draft', status: 'completed' as const, createdAt: 1, updatedAt: 1 };
  const summary = { ...task, messageCount: 2, waitingCalls: 2 };
  const queued = makeToolCall({ id: 'queued', taskId: 't1', gate: 'queue', state: 'pending', createdAt: 1 });
  const asking = makeToolCall({ id: 'asking', taskId: 't1', gate: 'prompt', state: 'pending', createdAt: 2 });

  it('opens it at its prompt, before a call of it in the queue', async () => {
    const api = fakeApi({
      'tasks.get': async () => ({ task: summary, messages: [], toolCalls: [queued, asking] }),
    });
    const app = createAppStore({ api, storage });
    await app.getState().openTask('t1');
    expect(app.getState().focusTarget).toEqual({ taskId: 't1', kind: 'toolCall', id: 'asking' });
  });

  it('keeps the place a search hit asked for, and opens a task that waits for nothing at its end', async () => {
    const api = fakeApi({
      'tasks.get': async () => ({ task: summary, messages: [], toolCalls: [queued, asking] }),
    });
    const app = createAppStore({ api, storage });
    const hit = { taskId: 't1', kind: 'message' as const, id: 'm1' };
    const opening = app.getState().openTask('t1');
    app.setState({ focusTarget: hit });
    await opening;
    expect(app.getState().focusTarget).toEqual(hit);

    const idle = createAppStore({
      api: fakeApi({
        'tasks.get': async () => ({ task: { ...summary, waitingCalls: 0 }, messages: [], toolCalls: [] }),
      }),
      storage,
    });
    await idle.getState().openTask('t1');
    expect(idle.getState().focusTarget).toBeNull();
  });
});
