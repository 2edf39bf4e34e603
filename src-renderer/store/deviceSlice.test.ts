import { describe, expect, it } from 'vitest';
import type { DeviceAnswer, HostEvent } from '../../src-shared/contract/index.js';
import type { HostClient, HostListeners } from '../bridge/hostClient.js';
import { connectHost } from './connectHost.js';
import { createAppStore } from './createAppStore.js';
import type { PageDevice } from './deviceSlice.js';
import { fakeApi, memoryStorage } from '../testing/testFixtures.js';

function setup(page: Partial<PageDevice> = {}) {
  const answers: DeviceAnswer[] = [];
  const actions: string[] = [];
  let clipboard = 'on the clipboard';
  const device: PageDevice = {
    readClipboard: async () => clipboard,
    writeClipboard: async (text) => {
      clipboard = text;
    },
    systemNotify: () => false,
    open: (url) => {
      actions.push(`open ${url}`);
      return true;
    },
    ...page,
  };
  const api = fakeApi({
    'device.answer': async (answer) => {
      answers.push(answer);
      return { accepted: true };
    },
  });
  let listeners: HostListeners | undefined;
  const client: HostClient = {
    transport: 'http',
    api,
    subscribe: (l) => {
      listeners = l;
      return () => undefined;
    },
  };
  const store = createAppStore({ api, storage: memoryStorage() }, device);
  connectHost(client, store, { request: () => 0, cancel: () => undefined });
  const emit = (event: HostEvent) => listeners?.onEvent(event);
  /** Lets the handlers' awaited calls finish. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { store, emit, answers, actions, settle, clipboard: () => clipboard };
}

describe('the page as the device bridge (browser mode)', () => {
  it('reads and writes the clipboard and answers the Host', async () => {
    const s = setup();
    s.emit({ type: 'device.request', id: 'a', request: { kind: 'clipboard-read' } });
    s.emit({ type: 'device.request', id: 'b', request: { kind: 'clipboard-write', text: 'copied' } });
    await s.settle();
    expect(s.answers).toEqual([
      { id: 'a', ok: true, text: 'on the clipboard' },
      { id: 'b', ok: true },
    ]);
    expect(s.clipboard()).toBe('copied');
  });

  it('answers a refusal when the browser denies the clipboard', async () => {
    const s = setup({ readClipboard: () => Promise.reject(new Error('Read permission denied.')) });
    s.emit({ type: 'device.request', id: 'a', request: { kind: 'clipboard-read' } });
    await s.settle();
    expect(s.answers).toEqual([
      { id: 'a', ok: false, message: 'the browser refused clipboard access: Read permission denied.' },
    ]);
  });

  it('shows a toast for a due reminder, once even when its notification arrives too', async () => {
    const s = setup();
    s.emit({ type: 'device.request', id: 'n', request: { kind: 'notify', title: 'Reminder', body: 'Tea' } });
    s.emit({ type: 'reminder.due', reminder: { id: 'r', text: 'Tea', due: '2026-11-30T10:00:00Z' } });
    await s.settle();
    expect(s.store.getState().toasts).toMatchObject([{ title: 'Reminder', body: 'Tea' }]);
    expect(s.answers).toEqual([{ id: 'n', ok: true, shown: 'page' }]);
    s.store.getState().dismissToast(s.store.getState().toasts[0]!.id);
    expect(s.store.getState().toasts).toEqual([]);
  });

  it('uses a system notification when the browser allows it, without a toast', async () => {
    const s = setup({ systemNotify: () => true });
    s.emit({ type: 'device.request', id: 'n', request: { kind: 'notify', title: 'Hi', body: 'there' } });
    await s.settle();
    expect(s.store.getState().toasts).toEqual([]);
    expect(s.answers).toEqual([{ id: 'n', ok: true, shown: 'system' }]);
  });

  it('opens an address only after the user clicks Open, and says so when they cancel', async () => {
    const s = setup();
    s.emit({ type: 'device.request', id: 'o1', request: { kind: 'open', target: 'https://example.org/' } });
    await s.settle();
    expect(s.store.getState().openRequest).toEqual({ id: 'o1', target: 'https://example.org/' });
    expect(s.actions).toEqual([]);
    await s.store.getState().answerOpen(true);
    expect(s.actions).toEqual(['open https://example.org/']);
    s.emit({ type: 'device.request', id: 'o2', request: { kind: 'open', target: 'https://example.com/' } });
    await s.settle();
    await s.store.getState().answerOpen(false);
    expect(s.answers).toEqual([
      { id: 'o1', ok: true },
      { id: 'o2', ok: false, message: 'the user chose not to open it' },
    ]);
    expect(s.store.getState().openRequest).toBeNull();
  });
});
