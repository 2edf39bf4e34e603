import { describe, expect, it } from 'vitest';
import type { ApiRequest, EgressEvent, LedgerPage, NetworkSettingsView } from '../../src-shared/contract/index.js';
import { ApiCallError } from '../bridge/apiError.js';
import { createAppStore } from './createAppStore.js';
import { deferred, fakeApi, memoryStorage } from '../testing/testFixtures.js';

const view = (rules: NetworkSettingsView['rules'] = []): NetworkSettingsView => ({
  offline: true,
  rules,
  features: [{ feature: 'mail', label: 'Mail' }],
});

function blocked(id: number): EgressEvent {
  return {
    id,
    at: id,
    source: 'tool mail_send',
    feature: 'mail',
    url: 'smtps://smtp.example.org:465',
    host: 'smtp.example.org',
    port: 465,
    allowed: false,
    reason: 'offline',
    bytes: null,
    via: 'guard',
  };
}

describe('the privacy slice', () => {
  it('removes one rule by sending the rest', async () => {
    const sent: Array<ApiRequest<'privacy.setNetwork'>> = [];
    const api = fakeApi({
      'privacy.setNetwork': async (request) => {
        sent.push(request);
        return view(request.rules);
      },
    });
    const store = createAppStore({ api, storage: memoryStorage() });
    store.setState({
      privacyNetwork: view([
        { feature: 'mail', host: 'smtp.example.org' },
        { feature: 'web', host: 'search.example.org' },
      ]),
    });
    expect(await store.getState().removeNetworkRule({ feature: 'mail', host: 'smtp.example.org' })).toBeNull();
    expect(sent).toEqual([{ rules: [{ feature: 'web', host: 'search.example.org' }] }]);
    expect(store.getState().privacyNetwork?.rules).toEqual([{ feature: 'web', host: 'search.example.org' }]);
  });

  it("shows a failed Allow on the ledger row it came from, not above the page's sections", async () => {
    const api = fakeApi({
      'privacy.allow': async () => {
        throw new ApiCallError('INVALID_REQUEST', 'Homebody keeps at most 200 network rules.');
      },
    });
    const store = createAppStore({ api, storage: memoryStorage() });
    const error = await store.getState().allowFromLedger(7, { feature: 'mail', host: 'smtp.example.org' });
    expect(error?.message).toContain('at most 200');
    expect(store.getState().ledgerAllowErrors[7]?.message).toContain('at most 200');
    expect(store.getState().privacyNetworkError).toBeNull();
  });

  it('drops a ledger page answered after the filter changed again', async () => {
    const unfiltered = deferred<LedgerPage>();
    const requests: Array<ApiRequest<'privacy.ledger'>> = [];
    const api = fakeApi({
      'privacy.ledger': (request) => {
        requests.push(request);
        return request.allowedOnly ? Promise.resolve({ events: [], total: 0, allowedCount: 0 }) : unfiltered.promise;
      },
    });
    const store = createAppStore({ api, storage: memoryStorage() });
    const first = store.getState().loadLedger();
    await store.getState().setLedgerAllowedOnly(true);
    unfiltered.resolve({ events: [blocked(1)], total: 1, allowedCount: 0 });
    await first;
    expect(requests.map((r) => r.allowedOnly ?? false)).toEqual([false, true]);
    expect(store.getState()).toMatchObject({ ledgerEvents: [], ledgerTotal: 0, ledgerAllowedOnly: true });
  });

  it('pages back from the oldest event shown', async () => {
    const requests: Array<ApiRequest<'privacy.ledger'>> = [];
    const api = fakeApi({
      'privacy.ledger': async (request) => {
        requests.push(request);
        return { events: [blocked(2), blocked(1)], total: 3, allowedCount: 0 };
      },
    });
    const store = createAppStore({ api, storage: memoryStorage() });
    store.setState({ ledgerEvents: [blocked(3), blocked(2)], ledgerTotal: 3 });
    await store.getState().loadOlderLedger();
    expect(requests).toEqual([{ limit: 50, beforeId: 2 }]);
    expect(store.getState().ledgerEvents.map((e) => e.id)).toEqual([3, 2, 1]);
  });

  it('sends "delete all my data" only with the exact words, and reports what went', async () => {
    const calls: Array<ApiRequest<'privacy.deleteAllData'>> = [];
    const api = fakeApi({
      'privacy.deleteAllData': async (request) => {
        calls.push(request);
        return { deletedBytes: 2048, removed: ['History database'] };
      },
      'privacy.storage': async () => ({
        dataDir: '/d',
        items: [],
        totalBytes: 0,
        secrets: { protection: 'key-file', description: '' },
        sandbox: { kind: 'none', summary: 'No OS sandbox.', detail: '' },
      }),
    });
    const store = createAppStore({ api, storage: memoryStorage() });
    expect(await store.getState().deleteAllData('delete my dat', true)).toMatchObject({ ok: false });
    expect(calls).toEqual([]);
    expect(await store.getState().deleteAllData(' delete my data ', true)).toEqual({
      ok: true,
      value: { deletedBytes: 2048, removed: ['History database'] },
    });
    expect(calls).toEqual([{ confirm: 'delete my data', includeModels: true }]);
    expect(store.getState()).toMatchObject({ dataDeleting: false, storageReport: { totalBytes: 0 } });
  });
});
