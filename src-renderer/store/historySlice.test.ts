import { describe, expect, it, vi } from 'vitest';
import type { ApiRequest, ApiResponse, HistoryEntry, SearchHit } from '../../src-shared/contract/index.js';
import { createAppStore } from './createAppStore.js';
import { reduceEvent } from './eventReducer.js';
import { EMPTY_FILTER } from './historyView.js';
import { deferred, fakeApi, makeMessage, makeTask, makeToolCall, memoryStorage } from '../testing/testFixtures.js';

type ListRequest = ApiRequest<'history.list'>;
type ListResponse = ApiResponse<'history.list'>;

function entry(id: string, updatedAt = 1000): HistoryEntry {
  return { ...makeTask({ id, updatedAt }), tools: [], waitingCalls: 0, deniedCalls: 0, failedCalls: 0 };
}

function hit(taskId: string): SearchHit {
  return {
    taskId,
    title: `Task ${taskId}`,
    status: 'completed',
    updatedAt: 1,
    snippet: 'a quokka',
    highlights: [[2, 8]],
    score: 1,
    target: { kind: 'message', id: `${taskId}-m5` },
    matches: 1,
  };
}

/** A Host whose history is `count` tasks, answered in pages by the cursor, every request recorded. */
function pagedHost(count: number) {
  const all = Array.from({ length: count }, (_, i) => entry(`t${String(i).padStart(5, '0')}`, 1_000_000 - i));
  const requests: ListRequest[] = [];
  const list = vi.fn(async (request: ListRequest): Promise<ListResponse> => {
    requests.push(request);
    const start = request.after ? all.findIndex((e) => e.id === request.after?.id) + 1 : 0;
    const limit = request.limit ?? 200;
    const entries = all.slice(start, start + limit);
    const last = entries.at(-1);
    const more = start + limit < all.length;
    return { entries, total: all.length, next: more && last ? { updatedAt: last.updatedAt, id: last.id } : null };
  });
  return { all, requests, list };
}

const tools = async () => ({ tools: ['list_folder', 'move'] });

describe('history list', () => {
  it('loads the first page, then pages with the cursor until enough rows are loaded', async () => {
    const host = pagedHost(1500);
    const store = createAppStore({
      api: fakeApi({ 'history.list': host.list, 'history.tools': tools }),
      storage: memoryStorage(),
    });
    await store.getState().loadHistory();
    expect(store.getState()).toMatchObject({ historyTotal: 1500, historyLoaded: true });
    expect(store.getState().historyEntries).toHaveLength(200);
    expect(store.getState().historyTools).toEqual(['list_folder', 'move']);

    await store.getState().loadMoreHistory(700);
    const { historyEntries, historyNext } = store.getState();
    expect(historyEntries.map((e) => e.id)).toEqual(host.all.slice(0, 800).map((e) => e.id));
    expect(host.requests[1]?.limit).toBe(600);
    // Each page starts after the previous one's last task.
    expect(host.requests[1]?.after).toEqual({ updatedAt: host.all[199]?.updatedAt, id: host.all[199]?.id });
    expect(host.requests.every((r) => (r.limit ?? 0) <= 1000)).toBe(true);

    await store.getState().loadMoreHistory(5000);
    expect(store.getState().historyEntries).toHaveLength(1500);
    expect(historyNext).not.toBeNull();
    expect(store.getState().historyNext).toBeNull();
  });

  it('maps the filter into the request, and drops the answer for a filter the user has since changed', async () => {
    const first = deferred<ListResponse>();
    const second = deferred<ListResponse>();
    const list = vi.fn().mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise);
    const store = createAppStore({
      api: fakeApi({ 'history.list': list, 'history.tools': tools }),
      storage: memoryStorage(),
    });
    store.getState().setHistoryFilter({ ...EMPTY_FILTER, statuses: ['failed'] });
    store.getState().setHistoryFilter({ ...EMPTY_FILTER, statuses: ['failed', 'completed'], tool: 'move' });
    expect(list).toHaveBeenNthCalledWith(1, { statuses: ['failed'], limit: 200 });
    expect(list).toHaveBeenNthCalledWith(2, { statuses: ['completed', 'failed'], tool: 'move', limit: 200 });

    second.resolve({ entries: [entry('new')], total: 1, next: null });
    await vi.waitFor(() => expect(store.getState().historyEntries.map((e) => e.id)).toEqual(['new']));
    first.resolve({ entries: [entry('old')], total: 9, next: null });
    await first.promise;
    await Promise.resolve();
    expect(store.getState().historyEntries.map((e) => e.id)).toEqual(['new']);
    expect(store.getState().historyTotal).toBe(1);
  });

  it('shows an impossible date range in place without asking the Host', async () => {
    const list = vi.fn();
    const store = createAppStore({
      api: fakeApi({ 'history.list': list, 'history.tools': tools }),
      storage: memoryStorage(),
    });
    store.getState().setHistoryFilter({ ...EMPTY_FILTER, range: 'custom', from: '2026-05-02', to: '2026-05-01' });
    expect(list).not.toHaveBeenCalled();
    expect(store.getState().historyError?.message).toBe('The start date is after the end date.');
  });

  it('selects with Shift-click ranges and forgets selected tasks that are deleted', async () => {
    const host = pagedHost(10);
    const store = createAppStore({
      api: fakeApi({
        'history.list': host.list,
        'history.tools': tools,
        'history.delete': async ({ taskIds }) => ({ deleted: taskIds.length }),
      }),
      storage: memoryStorage(),
    });
    await store.getState().loadHistory();
    const ids = host.all.map((e) => e.id);
    store.getState().selectHistory(ids[1]!, true, false);
    store.getState().selectHistory(ids[4]!, true, true);
    expect([...store.getState().historySelection]).toEqual(ids.slice(1, 5));

    const outcome = await store.getState().deleteHistory([ids[2]!, ids[3]!]);
    expect(outcome).toEqual({ ok: true, value: 2 });
    expect(store.getState().historyTotal).toBe(8);
    expect([...store.getState().historySelection]).toEqual([ids[1], ids[4]]);
    // The Host's tasks.deleted event arrives afterwards: applying it again changes nothing.
    store.getState().applyEvent({ type: 'tasks.deleted', taskIds: [ids[2]!, ids[3]!], all: false });
    expect(store.getState().historyTotal).toBe(8);
    expect(store.getState().historyEntries).toHaveLength(8);
  });

  it('asks before nothing itself, but reloads after a retention period deleted tasks', async () => {
    const host = pagedHost(5);
    const setRetention = vi.fn(async ({ days }: { days: number | null }) => ({ days, deleted: 3 }));
    const store = createAppStore({
      api: fakeApi({ 'history.list': host.list, 'history.tools': tools, 'history.setRetention': setRetention }),
      storage: memoryStorage(),
    });
    const outcome = await store.getState().setRetention(30);
    expect(outcome).toEqual({ ok: true, value: { days: 30, deleted: 3 } });
    expect(store.getState().historyRetention).toBe(30);
    expect(host.list).toHaveBeenCalledTimes(1);
  });

  it('returns errors from actions as values', async () => {
    const store = createAppStore({
      api: fakeApi({
        'history.export': () => Promise.reject(Object.assign(new Error('gone'), { code: 'TASK_NOT_FOUND' })),
      }),
      storage: memoryStorage(),
    });
    const outcome = await store.getState().exportHistory(['x'], 'json');
    expect(outcome.ok).toBe(false);
  });
});

describe('history events', () => {
  it('task.updated refreshes a loaded row in place, and marks the list stale for a task it lacks', () => {
    const store = createAppStore({ api: fakeApi(), storage: memoryStorage() });
    const state = { ...store.getState(), historyEntries: [entry('a')], historyLoaded: true };
    const known = reduceEvent(state, { type: 'task.updated', task: makeTask({ id: 'a', status: 'failed' }) });
    expect(known.historyEntries?.[0]?.status).toBe('failed');
    expect(known.historyStale).toBeUndefined();
    const unknown = reduceEvent(state, { type: 'task.updated', task: makeTask({ id: 'b' }) });
    expect(unknown.historyStale).toBe(true);
  });

  it('tasks.deleted takes tasks out of the list, the search hits and the timeline', () => {
    const store = createAppStore({ api: fakeApi(), storage: memoryStorage() });
    const state = {
      ...store.getState(),
      historyEntries: [entry('a'), entry('b')],
      historyTotal: 40,
      searchHits: [hit('a'), hit('b')],
      timelineTaskId: 'a',
      timelineDetail: { task: makeTask({ id: 'a' }), messages: [], toolCalls: [] },
      focusTarget: { taskId: 'a', kind: 'message' as const, id: 'm' },
    };
    const next = reduceEvent(state, { type: 'tasks.deleted', taskIds: ['a'], all: false });
    expect(next.historyEntries?.map((e) => e.id)).toEqual(['b']);
    expect(next.historyTotal).toBe(39);
    expect(next.searchHits?.map((h) => h.taskId)).toEqual(['b']);
    expect(next).toMatchObject({ timelineTaskId: null, timelineDetail: null, focusTarget: null });

    const all = reduceEvent(state, { type: 'tasks.deleted', taskIds: [], all: true });
    expect(all).toMatchObject({ historyEntries: [], historyTotal: 0, searchHits: [], timelineTaskId: null });
  });

  it('keeps the open timeline current with its task’s messages and calls', () => {
    const store = createAppStore({ api: fakeApi(), storage: memoryStorage() });
    const state = {
      ...store.getState(),
      timelineTaskId: 't1',
      timelineDetail: { task: makeTask({ id: 't1' }), messages: [], toolCalls: [] },
    };
    const withMessage = reduceEvent(state, { type: 'message.created', message: makeMessage({ taskId: 't1' }) });
    expect(withMessage.timelineDetail?.messages).toHaveLength(1);
    const withCall = reduceEvent(state, { type: 'toolcall.updated', call: makeToolCall({ taskId: 't1' }) });
    expect(withCall.timelineDetail?.toolCalls).toHaveLength(1);
    const other = reduceEvent(state, { type: 'toolcall.updated', call: makeToolCall({ taskId: 'other' }) });
    expect(other.timelineDetail).toBeUndefined();
  });
});

describe('search', () => {
  it('shows only the answer to the latest query', async () => {
    const slow = deferred<{ hits: SearchHit[] }>();
    const search = vi
      .fn()
      .mockReturnValueOnce(slow.promise)
      .mockResolvedValueOnce({ hits: [hit('b')] });
    const store = createAppStore({ api: fakeApi({ 'history.search': search }), storage: memoryStorage() });
    const first = store.getState().runSearch('quo');
    const second = store.getState().runSearch('quokka');
    expect(store.getState().searchState).toBe('searching');
    await second;
    slow.resolve({ hits: [hit('a')] });
    await first;
    expect(store.getState().searchHits.map((h) => h.taskId)).toEqual(['b']);
    expect(store.getState().searchState).toBe('done');
    expect(search).toHaveBeenLastCalledWith({ query: 'quokka', limit: 20 });
  });

  it('clears the hits for an empty query without asking the Host', async () => {
    const search = vi.fn();
    const store = createAppStore({ api: fakeApi({ 'history.search': search }), storage: memoryStorage() });
    await store.getState().runSearch('   ');
    expect(search).not.toHaveBeenCalled();
    expect(store.getState()).toMatchObject({ searchHits: [], searchState: 'idle' });
  });

  it('drops an answer that arrives after the palette closed', async () => {
    const slow = deferred<{ hits: SearchHit[] }>();
    const store = createAppStore({
      api: fakeApi({ 'history.search': () => slow.promise }),
      storage: memoryStorage(),
    });
    store.getState().openSearch();
    const pending = store.getState().runSearch('quokka');
    store.getState().closeSearch();
    slow.resolve({ hits: [hit('a')] });
    await pending;
    expect(store.getState().searchHits).toEqual([]);
    expect(store.getState().searchOpen).toBe(false);
  });

  it('opening a hit opens its task in the chat and sets the target after the chat was cleared', async () => {
    const detail = deferred<ApiResponse<'tasks.get'>>();
    const store = createAppStore({ api: fakeApi({ 'tasks.get': () => detail.promise }), storage: memoryStorage() });
    store.setState({ searchOpen: true, page: 'history' });
    const opening = store.getState().openSearchHit(hit('a'));
    expect(store.getState()).toMatchObject({
      searchOpen: false,
      page: 'chat',
      openTaskId: 'a',
      taskLoading: true,
      focusTarget: { taskId: 'a', kind: 'message', id: 'a-m5' },
    });
    detail.resolve({
      task: makeTask({ id: 'a' }),
      messages: [makeMessage({ taskId: 'a', id: 'a-m5' })],
      toolCalls: [],
    });
    await opening;
    expect(store.getState().messages).toHaveLength(1);
    expect(store.getState().focusTarget).not.toBeNull();
  });
});

describe('start-up notices', () => {
  it('come from app.info and are dismissed one by one', async () => {
    const notices = [
      { code: 'STORE_ERROR' as const, message: 'The history database was damaged and moved aside.' },
      { code: 'INTERNAL' as const, message: 'Second' },
    ];
    const store = createAppStore({
      api: fakeApi({
        'app.info': async () => ({ name: 'Homebody', version: '0.1.0', shell: 'browser', dataDir: '/d', notices }),
        'model.state': async () => ({ status: 'none' }),
        'model.catalog': async () => [],
        'tasks.list': async () => ({ tasks: [] }),
        'approvals.list': async () => ({ calls: [] }),
      }),
      storage: memoryStorage(),
    });
    await store.getState().init();
    expect(store.getState().notices).toEqual(notices);
    store.getState().dismissNotice(0);
    expect(store.getState().notices.map((n) => n.message)).toEqual(['Second']);
  });
});
