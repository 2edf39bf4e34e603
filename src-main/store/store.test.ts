import { describe, expect, it } from 'vitest';
import { openStore } from './store.js';

describe('store repositories', () => {
  it('keeps tasks newest first with their message counts', () => {
    const store = openStore(':memory:');
    store.tasks.create({ id: 'a', title: 'first', now: 1000 });
    store.tasks.create({ id: 'b', title: 'second', now: 2000 });
    store.messages.insert({ id: 'm1', taskId: 'a', role: 'user', text: 'hello', state: 'complete', now: 1000 });
    store.tasks.setStatus('a', 'completed', 3000);
    expect(store.tasks.list(10).map((t) => [t.id, t.messageCount, t.status])).toEqual([
      ['a', 1, 'completed'],
      ['b', 0, 'idle'],
    ]);
    expect(store.tasks.get('missing')).toBeUndefined();
  });

  it('numbers messages per task, appends streamed text and records stats', () => {
    const store = openStore(':memory:');
    store.tasks.create({ id: 't', title: 't', now: 1 });
    const user = store.messages.insert({ id: 'u', taskId: 't', role: 'user', text: 'hi', state: 'complete', now: 1 });
    const reply = store.messages.insert({
      id: 'r',
      taskId: 't',
      role: 'assistant',
      text: '',
      state: 'streaming',
      now: 2,
    });
    expect([user.seq, reply.seq]).toEqual([0, 1]);
    store.messages.append('r', 'Hel', '');
    store.messages.append('r', 'lo', 'thinking');
    const stats = { promptTokens: 10, completionTokens: 2, ttftMs: 12.5, tokensPerSecond: 40 };
    const done = store.messages.finish('r', 'complete', stats, null);
    expect(done).toMatchObject({ text: 'Hello', reasoning: 'thinking', state: 'complete', stats });
    expect(store.messages.listForTask('t').map((m) => m.id)).toEqual(['u', 'r']);
  });

  it('marks replies left streaming by a crash as interrupted, keeping their text', () => {
    const store = openStore(':memory:');
    store.tasks.create({ id: 't', title: 't', now: 1 });
    store.messages.insert({ id: 'r', taskId: 't', role: 'assistant', text: 'partial', state: 'streaming', now: 2 });
    expect(store.messages.markStreamingInterrupted()).toBe(1);
    expect(store.messages.get('r')).toMatchObject({ text: 'partial', state: 'interrupted' });
  });

  it('stores settings as JSON values', () => {
    const store = openStore(':memory:');
    store.settings.set('lastModelPath', '/models/a.gguf');
    expect(store.settings.get('lastModelPath')).toBe('/models/a.gguf');
    store.settings.delete('lastModelPath');
    expect(store.settings.get('lastModelPath')).toBeUndefined();
  });
});
