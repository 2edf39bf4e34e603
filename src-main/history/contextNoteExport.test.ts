import { describe, expect, it } from 'vitest';
import { openStore } from '../store/store.js';
import { NOW } from '../testing/historyFixture.js';
import { HistoryService } from './historyService.js';

const service = (store: ReturnType<typeof openStore>) =>
  new HistoryService({ store, emit: () => undefined, appVersion: '0.0.0-test', now: () => NOW });

describe("a reply's context note in the history", () => {
  it('goes through a JSON export and import', () => {
    const store = openStore(':memory:');
    store.tasks.create({ id: 't', title: 'Garden', now: NOW - 10 });
    store.messages.insert({ id: 'm1', taskId: 't', role: 'user', text: 'go on', state: 'complete', now: NOW - 9 });
    store.messages.insert({ id: 'm2', taskId: 't', role: 'assistant', text: 'ok', state: 'complete', now: NOW - 8 });
    store.messages.setContextNote('m2', "Earlier messages were left out to fit the model's context (4 left out).");
    const content = service(store).export(undefined, 'json').content;

    const fresh = openStore(':memory:');
    expect(service(fresh).import(content)).toMatchObject({ imported: 1, messages: 2 });
    expect(fresh.messages.get('m2')?.contextNote).toBe(
      "Earlier messages were left out to fit the model's context (4 left out).",
    );
    expect(fresh.messages.get('m1')).not.toHaveProperty('contextNote');
  });
});
