import type { Store } from '../store/store.js';

export const DAY = 86_400_000;
export const NOW = Date.UTC(2026, 10, 30, 12);

/** Writes a small, varied history straight through the repositories, as the chat and the tools would. */
export function seedHistory(store: Store): void {
  let n = 0;
  const task = (id: string, title: string, at: number) => store.tasks.create({ id, title, now: at });
  const message = (taskId: string, role: 'user' | 'assistant', text: string, at: number) =>
    store.messages.insert({ id: `${taskId}-m${n++}`, taskId, role, text, state: 'complete', now: at });
  const call = (
    taskId: string,
    id: string,
    tool: string,
    args: Record<string, unknown>,
    at: number,
    finish?: { result?: unknown; error?: string },
    gate: 'none' | 'queue' = 'none',
  ) => {
    store.toolCalls.insert({
      id,
      taskId,
      tool,
      args,
      description: { title: `${tool} call`, summary: '', details: [] },
      risk: gate === 'queue' ? 'irreversible' : 'read',
      gate,
      state: 'pending',
      taint: [],
      now: at,
    });
    if (!finish) return;
    store.toolCalls.decide(id, 'pending', 'approved', { decision: 'auto', by: 'policy', now: at });
    store.toolCalls.start(id, at);
    store.toolCalls.finish(id, {
      state: finish.error ? 'failed' : 'done',
      result: finish.result,
      error: finish.error ?? null,
      now: at + 5,
    });
  };

  const old = NOW - 400 * DAY;
  task('trip', 'Lisbon trip', old);
  message('trip', 'user', 'Plan a weekend in Lisbon with a ferry to Cacilhas', old);
  message('trip', 'assistant', 'Here is a plan: ferry at nine, lunch by the river.', old + 1000);
  call('trip', 'c-trip', 'read_text', { path: 'notes/ferry-times.txt' }, old + 2000, {
    result: { text: 'Cacilhas 09:10\nboarding gate 3' },
  });
  store.tasks.setStatus('trip', 'completed', old + 3000);

  const recent = NOW - 2 * DAY;
  task('invoice', 'Invoices', recent);
  message('invoice', 'user', 'Find the invoice from the plumber', recent);
  call('invoice', 'c-list', 'list_folder', { path: 'Documents/invoices' }, recent + 10, {
    result: ['plumber-2026-03.pdf', 'electrician.pdf'],
  });
  call(
    'invoice',
    'c-del',
    'delete_permanently',
    { path: 'Documents/invoices/electrician.pdf' },
    recent + 20,
    undefined,
    'queue',
  );
  store.tasks.setStatus('invoice', 'stopped', recent + 30);

  task('broken', 'Broken read', NOW - DAY);
  message('broken', 'user', 'Read the Lisbon packing list', NOW - DAY);
  call('broken', 'c-fail', 'read_text', { path: 'packing.txt' }, NOW - DAY + 10, { error: 'No file packing.txt' });
  store.tasks.setStatus('broken', 'failed', NOW - DAY + 20);
}
