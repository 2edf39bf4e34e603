import { describe, expect, it } from 'vitest';
import { openStore } from '../store/store.js';
import { NOW } from '../testing/historyFixture.js';
import { HistoryService } from './historyService.js';

const service = (store: ReturnType<typeof openStore>) =>
  new HistoryService({ store, emit: () => undefined, appVersion: '0.0.0-test', now: () => NOW });

describe("a reply's thought tokens in the history", () => {
  it('go through a JSON export and import; a reply recorded without a count stays without one', () => {
    const store = openStore(':memory:');
    store.tasks.create({ id: 't', title: 'Plan', now: NOW - 10 });
    for (const id of ['counted', 'uncounted']) {
      store.messages.insert({ id, taskId: 't', role: 'assistant', text: '', state: 'streaming', now: NOW - 9 });
      store.messages.append(id, '', 'Thinking it over.');
    }
    const stats = { promptTokens: 5, completionTokens: 9, ttftMs: 1, tokensPerSecond: 9 };
    store.messages.finish('counted', 'complete', { ...stats, reasoningTokens: 9 }, null);
    store.messages.finish('uncounted', 'complete', stats, null);
    const content = service(store).export(undefined, 'json').content;

    const fresh = openStore(':memory:');
    expect(service(fresh).import(content)).toMatchObject({ imported: 1, messages: 2 });
    expect(fresh.messages.get('counted')?.stats?.reasoningTokens).toBe(9);
    expect(fresh.messages.get('uncounted')?.stats).toEqual(stats);
  });
});
