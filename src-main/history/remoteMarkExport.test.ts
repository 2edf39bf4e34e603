import { describe, expect, it } from 'vitest';
import { openStore } from '../store/store.js';
import { NOW } from '../testing/historyFixture.js';
import { HistoryService } from './historyService.js';

const service = (store: ReturnType<typeof openStore>) =>
  new HistoryService({ store, emit: () => undefined, appVersion: '0.0.0-test', now: () => NOW });

const MARK = { url: 'http://192.168.1.20:8080', model: 'botpsy-q8', label: 'the study PC' };

describe('a reply written on another computer, in the history', () => {
  function storeWithRemoteReply() {
    const store = openStore(':memory:');
    store.tasks.create({ id: 't', title: 'Garden', now: NOW - 10 });
    store.messages.insert({ id: 'm1', taskId: 't', role: 'user', text: 'plan it', state: 'complete', now: NOW - 9 });
    store.messages.insert({ id: 'm2', taskId: 't', role: 'assistant', text: 'ok', state: 'complete', now: NOW - 8 });
    store.messages.setRemote('m2', MARK);
    return store;
  }

  it('keeps its mark through a JSON export and import; a local reply has none', () => {
    const content = service(storeWithRemoteReply()).export(undefined, 'json').content;
    const fresh = openStore(':memory:');
    expect(service(fresh).import(content)).toMatchObject({ imported: 1, messages: 2 });
    expect(fresh.messages.get('m2')?.remote).toEqual(MARK);
    expect(fresh.messages.get('m1')).not.toHaveProperty('remote');
  });

  it('says so in the Markdown export, naming the model and the node', () => {
    const content = service(storeWithRemoteReply()).export(undefined, 'md').content;
    expect(content).toContain('written on another computer: botpsy-q8 at the study PC (http://192.168.1.20:8080)');
    expect(content.match(/written on another computer/g)).toHaveLength(1);
  });
});
