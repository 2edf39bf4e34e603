import { describe, expect, it } from 'vitest';
import type { EgressEvent, HostEvent, LedgerPage, StorageReport } from '../../src-shared/contract/index.js';
import type { HostClient, HostListeners } from '../bridge/hostClient.js';
import { connectHost } from './connectHost.js';
import { createAppStore } from './createAppStore.js';
import { reduceEvent } from './eventReducer.js';
import { ledgerCountLine } from './privacyView.js';
import { fakeApi, makeMessage, makeTask, makeToolCall, memoryStorage } from '../testing/testFixtures.js';
import { OPEN_TASK_KEY, type AppData } from './types.js';

function egress(id: number, overrides: Partial<EgressEvent> = {}): EgressEvent {
  return {
    id,
    at: 1_700_000_000_000 + id,
    source: 'model download: BotPsy 0.8B Q8',
    feature: 'model-download',
    url: 'https://huggingface.co/x.gguf',
    host: 'huggingface.co',
    port: 443,
    allowed: false,
    reason: 'offline mode',
    bytes: null,
    via: 'guard',
    ...overrides,
  };
}

function state(overrides: Partial<AppData> = {}): AppData {
  return { ...createAppStore({ api: fakeApi(), storage: memoryStorage() }).getState(), ...overrides };
}

const recorded = (event: EgressEvent): HostEvent => ({ type: 'egress.recorded', event });

describe('the ledger in the store', () => {
  it('puts a new connection on top and counts it, allowed or not', () => {
    const s = state({ ledgerEvents: [egress(2), egress(1)], ledgerTotal: 2, ledgerAllowedCount: 0 });
    const next = reduceEvent(s, recorded(egress(3, { allowed: true, reason: 'rule' })));
    expect(next.ledgerEvents?.map((e) => e.id)).toEqual([3, 2, 1]);
    expect(next).toMatchObject({ ledgerTotal: 3, ledgerAllowedCount: 1 });
  });

  it('replaces a known connection in place when its bytes grow, without counting it again', () => {
    const s = state({ ledgerEvents: [egress(2), egress(1)], ledgerTotal: 2, ledgerAllowedCount: 0 });
    const next = reduceEvent(s, recorded(egress(1, { bytes: 4096 })));
    expect(next.ledgerEvents?.map((e) => [e.id, e.bytes])).toEqual([
      [2, null],
      [1, 4096],
    ]);
    expect(next.ledgerTotal).toBeUndefined();
  });

  it('leaves a blocked connection out of an "allowed only" list, and ignores events before the first load', () => {
    const filtered = state({ ledgerEvents: [], ledgerTotal: 0, ledgerAllowedOnly: true });
    expect(reduceEvent(filtered, recorded(egress(1)))).toEqual({});
    expect(reduceEvent(state(), recorded(egress(1)))).toEqual({});
  });

  it('words the count line', () => {
    expect(ledgerCountLine(3, 1, false)).toBe('3 connections attempted, 1 allowed');
    expect(ledgerCountLine(1, 0, false)).toBe('1 connection attempted, 0 allowed');
    expect(ledgerCountLine(0, 0, true)).toBe('0 allowed connections');
  });
});

describe('privacy.dataDeleted', () => {
  it('drops every task, message, queued call, history row, audit and ledger event the renderer held', () => {
    const task = makeTask({ id: 't1' });
    const s = state({
      tasks: [task],
      openTaskId: 't1',
      openTaskSummary: task,
      messages: [makeMessage({ taskId: 't1' })],
      toolCalls: [makeToolCall({ taskId: 't1' })],
      queue: [makeToolCall({ id: 'q', taskId: 't1', gate: 'queue' })],
      historyEntries: [{ ...task, tools: [], waitingCalls: 0, deniedCalls: 0, failedCalls: 0 }],
      historyTotal: 1,
      ledgerEvents: [egress(1)],
      ledgerTotal: 1,
      ledgerAllowedCount: 0,
      auditEvents: [
        {
          id: 1,
          at: 1,
          taskId: 't1',
          callId: null,
          kind: 'x',
          actor: 'user',
          summary: 's',
          detail: null,
          basis: null,
          paths: [],
        },
      ],
    });
    const next = { ...s, ...reduceEvent(s, { type: 'privacy.dataDeleted' }) };
    expect(next).toMatchObject({
      tasks: [],
      openTaskId: null,
      messages: [],
      toolCalls: [],
      queue: [],
      historyEntries: [],
      historyTotal: 0,
      ledgerEvents: [],
      ledgerTotal: 0,
      auditEvents: [],
    });
  });

  it('reaches the store through connectHost, which then loads the lists again', async () => {
    let listeners: HostListeners | undefined;
    const client = {
      subscribe(l: HostListeners) {
        listeners = l;
        return () => undefined;
      },
    } as unknown as HostClient;
    const emptyLedger: LedgerPage = { events: [], total: 0, allowedCount: 0 };
    const report: StorageReport = {
      dataDir: '/data',
      items: [],
      totalBytes: 0,
      secrets: { protection: 'key-file', description: 'key file' },
      sandbox: { kind: 'bubblewrap', summary: 'bubblewrap: sandboxed.', detail: '' },
    };
    const calls: string[] = [];
    const api = fakeApi({
      'tasks.list': async () => (calls.push('tasks.list'), { tasks: [] }),
      'approvals.list': async () => (calls.push('approvals.list'), { calls: [] }),
      'audit.list': async () => (calls.push('audit.list'), { events: [] }),
      'privacy.network': async () => ({ offline: true, rules: [], features: [] }),
      'privacy.ledger': async () => (calls.push('privacy.ledger'), emptyLedger),
      'privacy.storage': async () => (calls.push('privacy.storage'), report),
    });
    const storage = memoryStorage();
    storage.set(OPEN_TASK_KEY, 't1');
    const store = createAppStore({ api, storage });
    store.setState({ tasks: [makeTask({ id: 't1' })], openTaskId: 't1', ledgerTotal: 1, ledgerEvents: [egress(1)] });
    connectHost(client, store, { request: () => 0, cancel: () => undefined });
    listeners!.onEvent({ type: 'privacy.dataDeleted' });
    expect(store.getState()).toMatchObject({ tasks: [], openTaskId: null, ledgerEvents: [] });
    expect(storage.get(OPEN_TASK_KEY)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toEqual(
      expect.arrayContaining(['tasks.list', 'approvals.list', 'audit.list', 'privacy.ledger', 'privacy.storage']),
    );
    expect(store.getState().storageReport).toEqual(report);
  });
});
