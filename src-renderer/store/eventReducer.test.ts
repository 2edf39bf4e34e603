import { describe, expect, it } from 'vitest';
import type { HomebodyApi, HostEvent } from '../../src-shared/contract/index.js';
import type { HostClient, HostListeners } from '../bridge/hostClient.js';
import { connectHost } from './connectHost.js';
import { createAppStore } from './createAppStore.js';
import type { FrameScheduler } from './deltaBuffer.js';
import { mergeMessages, reduceEvent } from './eventReducer.js';
import { makeMessage, makeTask } from '../testing/testFixtures.js';
import { OPEN_TASK_KEY, type AppData, type KeyValueStore } from './types.js';

function memoryStorage(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: (k) => data.get(k) ?? null,
    set: (k, v) => (v === null ? data.delete(k) : data.set(k, v)),
  };
}

/** An api whose every method fails unless the test gives it. */
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
  const store = createAppStore({ api: fakeApi(), storage: memoryStorage() });
  return { ...store.getState(), ...overrides };
}

describe('reduceEvent', () => {
  it('model.state replaces the model state', () => {
    const state = baseState({ modelState: { status: 'none' } });
    const next = reduceEvent(state, {
      type: 'model.state',
      state: { status: 'loading', path: '/m.gguf', progress: 0.5 },
    });
    expect(next.modelState).toEqual({ status: 'loading', path: '/m.gguf', progress: 0.5 });
  });

  it('task.updated upserts the summary, newest first, and refreshes the open task', () => {
    const older = makeTask({ id: 'a', updatedAt: 1 });
    const newer = makeTask({ id: 'b', updatedAt: 2 });
    const state = baseState({ tasks: [newer, older], openTaskId: 'a', openTaskSummary: older });
    const updated = makeTask({ id: 'a', updatedAt: 3, title: 'Renamed' });
    const next = reduceEvent(state, { type: 'task.updated', task: updated });
    expect(next.tasks?.map((t) => t.id)).toEqual(['a', 'b']);
    expect(next.openTaskSummary).toEqual(updated);

    const added = reduceEvent(state, { type: 'task.updated', task: makeTask({ id: 'c', updatedAt: 0 }) });
    expect(added.tasks?.map((t) => t.id)).toEqual(['b', 'a', 'c']);
    expect(added.openTaskSummary).toBeUndefined();
  });

  it('message.created appends to the open task only', () => {
    const user = makeMessage({ id: 'u1', role: 'user', text: 'hi', seq: 0, state: 'complete' });
    const state = baseState({ openTaskId: 't1', messages: [user] });
    const reply = makeMessage({ id: 'a1', seq: 1 });
    expect(reduceEvent(state, { type: 'message.created', message: reply }).messages).toEqual([user, reply]);
    expect(reduceEvent(state, { type: 'message.created', message: { ...reply, taskId: 'other' } })).toEqual({});
    expect(reduceEvent({ ...state, messages: [user, reply] }, { type: 'message.created', message: reply })).toEqual({});
  });

  it('message.created opens a new task while a first send is in flight', () => {
    const state = baseState({ openTaskId: null, awaitingNewTask: true });
    const user = makeMessage({ id: 'u1', taskId: 'new', role: 'user', text: 'hi' });
    const next = reduceEvent(state, { type: 'message.created', message: user });
    expect(next).toMatchObject({ openTaskId: 'new', messages: [user], awaitingNewTask: false });
    expect(reduceEvent(baseState(), { type: 'message.created', message: user })).toEqual({});
  });

  it('message.delta appends text and reasoning to the matching message', () => {
    const reply = makeMessage({ id: 'a1', text: 'Hel', reasoning: 'th' });
    const other = makeMessage({ id: 'u1', role: 'user', text: 'hi' });
    const state = baseState({ openTaskId: 't1', messages: [other, reply] });
    const event: HostEvent = { type: 'message.delta', taskId: 't1', messageId: 'a1', text: 'lo', reasoning: 'ink' };
    const next = reduceEvent(state, event);
    expect(next.messages?.[1]).toMatchObject({ text: 'Hello', reasoning: 'think' });
    expect(next.messages?.[0]).toBe(other);
    expect(reduceEvent(state, { ...event, messageId: 'unknown' })).toEqual({});
    expect(reduceEvent(state, { ...event, taskId: 'other' })).toEqual({});
  });

  it('message.finished replaces the message with the final one', () => {
    const reply = makeMessage({ id: 'a1', text: 'partial' });
    const state = baseState({ openTaskId: 't1', messages: [reply] });
    const final = makeMessage({
      id: 'a1',
      text: 'partial and done',
      state: 'complete',
      stats: { promptTokens: 5, completionTokens: 4, ttftMs: 100, tokensPerSecond: 12.5 },
    });
    expect(reduceEvent(state, { type: 'message.finished', message: final }).messages).toEqual([final]);
    expect(reduceEvent(state, { type: 'message.finished', message: { ...final, taskId: 'x' } })).toEqual({});
  });
});

describe('mergeMessages', () => {
  it('keeps a longer locally streamed text and local-only messages', () => {
    const local = [makeMessage({ id: 'a', seq: 1, text: 'long text' }), makeMessage({ id: 'b', seq: 2 })];
    const fetched = [makeMessage({ id: 'u', seq: 0, role: 'user' }), makeMessage({ id: 'a', seq: 1, text: 'lo' })];
    expect(mergeMessages(local, fetched).map((m) => [m.id, m.text])).toEqual([
      ['u', ''],
      ['a', 'long text'],
      ['b', ''],
    ]);
    const finished = [makeMessage({ id: 'a', seq: 1, text: 'final', state: 'complete' })];
    expect(mergeMessages(local, finished)[0]?.text).toBe('final');
  });
});

describe('connectHost + store', () => {
  function setup(api: Partial<HomebodyApi> = {}) {
    let listeners: HostListeners | null = null;
    const client: HostClient = {
      transport: 'ipc',
      api: fakeApi(api),
      subscribe(l) {
        listeners = l;
        return () => {
          listeners = null;
        };
      },
    };
    const frames: (() => void)[] = [];
    const scheduler: FrameScheduler = { request: (cb) => frames.push(cb), cancel: () => undefined };
    const storage = memoryStorage();
    const store = createAppStore({ api: client.api, storage });
    connectHost(client, store, scheduler);
    const emit = (event: HostEvent) => listeners?.onEvent(event);
    const runFrame = () => frames.splice(0).forEach((cb) => cb());
    return { store, emit, runFrame, storage, listeners: () => listeners };
  }

  it('batches deltas per frame and flushes them before message.finished', () => {
    const { store, emit, runFrame } = setup();
    store.setState({ openTaskId: 't1' });
    emit({ type: 'message.created', message: makeMessage({ id: 'a1' }) });
    emit({ type: 'message.delta', taskId: 't1', messageId: 'a1', text: 'Hel', reasoning: '' });
    emit({ type: 'message.delta', taskId: 't1', messageId: 'a1', text: 'lo', reasoning: '' });
    expect(store.getState().messages[0]?.text).toBe('');
    runFrame();
    expect(store.getState().messages[0]?.text).toBe('Hello');

    emit({ type: 'message.delta', taskId: 't1', messageId: 'a1', text: '!', reasoning: '' });
    emit({ type: 'message.finished', message: makeMessage({ id: 'a1', text: 'Hello!', state: 'complete' }) });
    runFrame();
    expect(store.getState().messages).toHaveLength(1);
    expect(store.getState().messages[0]).toMatchObject({ text: 'Hello!', state: 'complete' });
  });

  it('shows a malformed event as an error banner', () => {
    const { store, listeners } = setup();
    listeners()?.onError({ code: 'INTERNAL', message: 'bad event' });
    expect(store.getState().banner).toEqual({ code: 'INTERNAL', message: 'bad event' });
  });

  it('refetches state after a reconnect', async () => {
    let taskGets = 0;
    const { store, listeners } = setup({
      'model.state': async () => ({ status: 'none' }),
      'tasks.list': async () => ({ tasks: [makeTask({ id: 't1' })] }),
      'tasks.get': async () => {
        taskGets++;
        return {
          task: makeTask({ id: 't1' }),
          messages: [makeMessage({ id: 'a1', text: 'caught up' })],
          toolCalls: [],
        };
      },
    });
    store.setState({ openTaskId: 't1', modelState: { status: 'loading', path: '/m', progress: 0.2 } });
    listeners()?.onReconnect();
    await new Promise((r) => setTimeout(r, 0));
    expect(taskGets).toBe(1);
    expect(store.getState().modelState).toEqual({ status: 'none' });
    expect(store.getState().tasks).toHaveLength(1);
    expect(store.getState().messages[0]?.text).toBe('caught up');
  });

  it('sending with no open task opens the returned task and remembers it', async () => {
    const { store, storage } = setup({
      'chat.send': async (req) => {
        expect(req.taskId).toBeNull();
        return { taskId: 'new', userMessageId: 'u1', assistantMessageId: 'a1' };
      },
      'tasks.get': async () => ({
        task: makeTask({ id: 'new' }),
        messages: [makeMessage({ id: 'u1', taskId: 'new', role: 'user', text: 'hi' })],
        toolCalls: [],
      }),
    });
    expect(await store.getState().send('hi')).toBe(true);
    expect(store.getState().openTaskId).toBe('new');
    expect(store.getState().messages.map((m) => m.id)).toEqual(['u1']);
    expect(storage.data.get(OPEN_TASK_KEY)).toBe('new');
    expect(store.getState().sending).toBe(false);
  });

  it('keeps a failed call in place as an error', async () => {
    const { store } = setup({
      'model.open': () => Promise.reject(Object.assign(new Error('No such file'), { code: 'MODEL_NOT_FOUND' })),
    });
    await store.getState().openModel('/nope.gguf');
    expect(store.getState().modelError).toEqual({ code: 'MODEL_NOT_FOUND', message: 'No such file' });
    expect(store.getState().modelBusy).toBe(false);
  });

  it('init reopens the task remembered before a reload', async () => {
    const storage = memoryStorage();
    storage.set(OPEN_TASK_KEY, 't9');
    const store = createAppStore({
      storage,
      api: fakeApi({
        'app.info': async () => ({ name: 'Homebody', version: '0.1.0', shell: 'browser', dataDir: '/d', notices: [] }),
        'model.state': async () => ({ status: 'none' }),
        'model.catalog': async () => [],
        'tasks.list': async () => ({ tasks: [makeTask({ id: 't9' })] }),
        'tasks.get': async () => ({
          task: makeTask({ id: 't9' }),
          messages: [makeMessage({ taskId: 't9' })],
          toolCalls: [],
        }),
      }),
    });
    await store.getState().init();
    expect(store.getState()).toMatchObject({ initialized: true, openTaskId: 't9', taskLoading: false });
    expect(store.getState().messages).toHaveLength(1);
  });
});
