import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostEvent, Message, ModelState, ToolCall } from '../../src-shared/contract/index.js';
import type { ChatEngine, GenerateOptions, GenerateResult } from '../llm/engineTypes.js';
import { storageFailure } from '../store/db.js';
import { openStore, type Store } from '../store/store.js';
import {
  ChatRunner,
  LoopGuard,
  MAX_TOOL_STEPS,
  callsOfRequest,
  continuationPrompt,
  historyOf,
  tasksToContinue,
  titleFrom,
} from './chatRunner.js';

const READY: ModelState = {
  status: 'ready',
  info: {
    path: '/m.gguf',
    name: 'm',
    architecture: 'qwen3',
    sizeBytes: 1,
    contextSize: 2048,
    trainContextSize: 2048,
    synthetic: true,
    gpu: 'cpu',
  },
};

/** A scripted engine: replies with the given chunks, or waits for an abort, or fails. */
function scriptedEngine(
  script: { chunks?: string[]; waitForAbort?: boolean; fail?: Error },
  state: ModelState = READY,
) {
  const calls: GenerateOptions[] = [];
  const engine: ChatEngine = {
    state,
    onStateChange: () => () => undefined,
    load: async () => state,
    dispose: async () => undefined,
    async generate(options): Promise<GenerateResult> {
      calls.push(options);
      if (script.fail) throw script.fail;
      for (const chunk of script.chunks ?? []) options.onText(chunk);
      if (script.waitForAbort) {
        await new Promise((resolve) => options.signal.addEventListener('abort', resolve, { once: true }));
      }
      const stats = { promptTokens: 20, completionTokens: script.chunks?.length ?? 0, ttftMs: 5, tokensPerSecond: 50 };
      return {
        text: (script.chunks ?? []).join(''),
        reasoning: '',
        stopReason: script.waitForAbort ? 'aborted' : 'complete',
        stats,
        evaluatedPromptTokens: 20,
      };
    },
  };
  return { engine, calls };
}

function setup(script: Parameters<typeof scriptedEngine>[0], state?: ModelState) {
  const store = openStore(':memory:');
  const events: HostEvent[] = [];
  const { engine, calls } = scriptedEngine(script, state);
  let clock = 1000;
  let ids = 0;
  const runner = new ChatRunner({
    engine,
    store,
    emit: (e) => events.push(e),
    now: () => (clock += 10),
    newId: () => `id${++ids}`,
    persistEveryMs: 0,
  });
  return { store, events, runner, calls };
}

const OPTIONS = { maxTokens: 64, temperature: 0 };

describe('ChatRunner', () => {
  it('saves the turn, streams deltas and records the finished reply with its stats', async () => {
    const { store, events, runner } = setup({ chunks: ['Hel', 'lo', '!'] });
    const sent = runner.send(null, 'Say hello\nplease', OPTIONS);
    const final = await sent.done;
    expect(final).toMatchObject({
      text: 'Hello!',
      state: 'complete',
      stats: { completionTokens: 3, tokensPerSecond: 50 },
    });
    expect(store.tasks.get(sent.taskId)).toMatchObject({ title: 'Say hello', status: 'completed', messageCount: 2 });
    expect(events.map((e) => e.type)).toEqual([
      'task.updated',
      'message.created',
      'message.created',
      'message.delta',
      'message.delta',
      'message.delta',
      'message.finished',
      'task.updated',
    ]);
  });

  it('gives the model the earlier turns of the task', async () => {
    const { runner, calls } = setup({ chunks: ['ok'] });
    const first = runner.send(null, 'one', OPTIONS);
    await first.done;
    await runner.send(first.taskId, 'two', OPTIONS).done;
    expect(calls[1]?.history).toEqual([
      { role: 'user', text: 'one' },
      { role: 'assistant', text: 'ok' },
    ]);
    expect(calls[1]?.prompt).toBe('two');
  });

  it('stops a reply on request, keeping the text streamed so far', async () => {
    const { store, runner } = setup({ chunks: ['partial '], waitForAbort: true });
    const sent = runner.send(null, 'long story', OPTIONS);
    expect(runner.isRunning(sent.taskId)).toBe(true);
    expect(await runner.stop(sent.taskId)).toBe(true);
    expect(store.messages.get(sent.assistantMessageId)).toMatchObject({ text: 'partial ', state: 'stopped' });
    expect(store.tasks.get(sent.taskId)?.status).toBe('stopped');
    expect(await runner.stop(sent.taskId)).toBe(false);
  });

  it("refuses a second message to a task while its reply runs, and a missing task; another task's waits its turn", async () => {
    const { runner, calls, store } = setup({ waitForAbort: true });
    const sent = runner.send(null, 'first', OPTIONS);
    expect(() => runner.send(sent.taskId, 'again', OPTIONS)).toThrowError(
      expect.objectContaining({
        code: 'TASK_BUSY',
        message: expect.stringMatching(/^This task is still being written/),
      }),
    );
    // Another task is not refused: its reply is there at once and is written once the engine is free.
    const other = runner.send(null, 'second', OPTIONS);
    expect(store.messages.get(other.assistantMessageId)?.state).toBe('streaming');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls.map((c) => c.prompt)).toEqual(['first']);
    await runner.stop(sent.taskId);
    await vi.waitFor(() => expect(calls.map((c) => c.prompt)).toEqual(['first', 'second']));
    await runner.stopAll();
    expect(() => runner.send('nope', 'hi', OPTIONS)).toThrowError(expect.objectContaining({ code: 'TASK_NOT_FOUND' }));
    expect(runner.isRunning(sent.taskId)).toBe(false);
  });

  it('ends a reply stopped while it waits for the engine at once, without the engine', async () => {
    const { runner, calls, store } = setup({ waitForAbort: true });
    const first = runner.send(null, 'first', OPTIONS);
    const waiting = runner.send(null, 'second', OPTIONS);
    expect(await runner.stop(waiting.taskId)).toBe(true);
    expect(store.messages.get(waiting.assistantMessageId)?.state).toBe('stopped');
    expect(store.tasks.get(waiting.taskId)?.status).toBe('stopped');
    expect(runner.isRunning(first.taskId)).toBe(true);
    await runner.stop(first.taskId);
    expect(calls.map((c) => c.prompt)).toEqual(['first']);
  });

  it('refuses to send without a ready model', () => {
    const { runner } = setup({}, { status: 'none' });
    expect(() => runner.send(null, 'hi', OPTIONS)).toThrowError(expect.objectContaining({ code: 'NO_MODEL' }));
  });

  it('records an engine failure on the reply and the task', async () => {
    const { store, runner } = setup({ fail: new Error('context overflow') });
    const sent = runner.send(null, 'hi', OPTIONS);
    expect(await sent.done).toMatchObject({ state: 'failed', error: 'context overflow' });
    expect(store.tasks.get(sent.taskId)?.status).toBe('failed');
  });

  it('after a crash marks streaming replies interrupted and running tasks stopped', () => {
    const { store, runner } = setup({});
    store.tasks.create({ id: 't', title: 't', now: 1 });
    store.tasks.setStatus('t', 'running', 2);
    store.messages.insert({ id: 'r', taskId: 't', role: 'assistant', text: 'half', state: 'streaming', now: 2 });
    runner.recoverAfterCrash();
    expect(store.messages.get('r')?.state).toBe('interrupted');
    expect(store.tasks.get('t')?.status).toBe('stopped');
  });
});

describe('ChatRunner saving a reply as it streams', () => {
  it('writes streamed text in batches, not per token', async () => {
    const store = openStore(':memory:');
    let clock = 0;
    const chunks = Array.from({ length: 20 }, (_, i) => `t${i} `);
    const engine: ChatEngine = {
      ...scriptedEngine({}).engine,
      async generate(options): Promise<GenerateResult> {
        for (const chunk of chunks) {
          clock += 30; // a token every 30 ms
          options.onText(chunk);
        }
        const stats = { promptTokens: 1, completionTokens: chunks.length, ttftMs: 1, tokensPerSecond: 1 };
        return { text: chunks.join(''), reasoning: '', stopReason: 'complete', stats, evaluatedPromptTokens: 1 };
      },
    };
    const runner = new ChatRunner({ engine, store, emit: () => undefined, now: () => clock, persistEveryMs: 100 });
    const append = vi.spyOn(store.messages, 'append');
    const final = await runner.send(null, 'go', OPTIONS).done;
    expect(final.text).toBe(chunks.join(''));
    // 20 tokens over 600 ms with a write at most every 100 ms: 5 writes while streaming, the rest at the end.
    expect(append.mock.calls.length).toBeGreaterThan(1);
    expect(append.mock.calls.length).toBeLessThanOrEqual(7);
    expect(append.mock.calls.map((c) => c[1]).join('')).toBe(chunks.join(''));
  });
});

describe('ChatRunner on a full disk', () => {
  const dirs: string[] = [];
  const stores: Store[] = [];
  afterEach(() => {
    for (const store of stores.splice(0)) store.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const STORAGE_FULL = storageFailure(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))!;

  /**
   * A store in a real file (WAL, as the app has it), and an engine that streams 100-character chunks until it
   * is stopped (at most `max`), calling `onChunk` before each.
   */
  function fullDiskSetup(options: { persistEveryMs: number; onChunk?: (i: number, store: Store) => void }) {
    const dir = mkdtempSync(join(tmpdir(), 'hb-full-'));
    dirs.push(dir);
    const store = openStore(dir);
    stores.push(store);
    const events: HostEvent[] = [];
    let chunks = 0;
    let max = 3;
    const engine: ChatEngine = {
      ...scriptedEngine({}).engine,
      async generate(generate): Promise<GenerateResult> {
        let text = '';
        for (let i = 0; i < max && !generate.signal.aborted; i++) {
          options.onChunk?.(i, store);
          const chunk = `${String(i).padStart(4, '0')}${'x'.repeat(96)}`;
          text += chunk;
          chunks++;
          generate.onText(chunk);
          await Promise.resolve();
        }
        const stats = { promptTokens: 1, completionTokens: chunks, ttftMs: 1, tokensPerSecond: 1 };
        const stopReason = generate.signal.aborted ? 'aborted' : 'complete';
        return { text, reasoning: '', stopReason, stats, evaluatedPromptTokens: 1 };
      },
    };
    const runner = new ChatRunner({
      engine,
      store,
      emit: (e) => events.push(e),
      persistEveryMs: options.persistEveryMs,
    });
    return {
      store,
      events,
      runner,
      setMax: (n: number) => (max = n),
      chunks: () => chunks,
    };
  }

  it('stops a reply whose batch the disk refuses, tells the user, keeps what was saved, and goes on once there is room', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { store, events, runner, setMax, chunks } = fullDiskSetup({
        persistEveryMs: 0,
        onChunk: (i, s) => {
          if (i === 5) s.simulateFullDiskForTests(true);
        },
      });
      const earlier = await runner.send(null, 'an earlier task', OPTIONS).done;
      expect(earlier.state).toBe('complete');
      const before = store.messages.listForTask(earlier.taskId);

      setMax(5000);
      const sent = runner.send(earlier.taskId, 'a long story', OPTIONS);
      const final = await sent.done;
      // The user is told, with the whole reply as it was shown, although the end could not be written.
      expect(final).toMatchObject({ id: sent.assistantMessageId, state: 'failed', error: STORAGE_FULL.message });
      const streamed = events
        .filter((e) => e.type === 'message.delta' && e.messageId === sent.assistantMessageId)
        .map((e) => (e.type === 'message.delta' ? e.text : ''))
        .join('');
      expect(final.text).toBe(streamed);
      expect(events).toContainEqual({ type: 'message.finished', message: final });
      expect(events.at(-1)).toMatchObject({ type: 'task.updated', task: { id: sent.taskId, status: 'failed' } });
      // The reply was stopped at the first refused write, not generated on.
      expect(chunks()).toBeLessThan(1000);
      expect(runner.isRunning(sent.taskId)).toBe(false);

      // Nothing saved before is lost, and the database is sound.
      expect(store.integrityCheck()).toBe('ok');
      const saved = store.messages.get(sent.assistantMessageId)!;
      expect(saved.text.length).toBeGreaterThanOrEqual(500);
      expect(final.text.startsWith(saved.text)).toBe(true);
      expect(store.messages.listForTask(sent.taskId).slice(0, 2)).toEqual(before);
      expect(store.messages.listForTask(sent.taskId)[2]).toMatchObject({ role: 'user', text: 'a long story' });

      // A new message while the disk is full is refused with the same sentence, and changes nothing.
      expect(() => runner.send(sent.taskId, 'z'.repeat(20_000), OPTIONS)).toThrowError(
        expect.objectContaining({ code: 'STORAGE_FULL', message: STORAGE_FULL.message }),
      );
      expect(store.messages.listForTask(sent.taskId)).toHaveLength(4);

      // Once there is room, the failed reply's end is written in full and the next message goes through.
      store.simulateFullDiskForTests(false);
      setMax(3);
      const next = await runner.send(sent.taskId, 'and then?', OPTIONS).done;
      expect(next.state).toBe('complete');
      expect(store.messages.get(sent.assistantMessageId)).toMatchObject({
        text: final.text,
        state: 'failed',
        error: STORAGE_FULL.message,
      });
      expect(store.messages.listForTask(sent.taskId)).toHaveLength(6);
      expect(store.integrityCheck()).toBe('ok');
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('reports a full disk from memory when only the end of the reply cannot be written', async () => {
    const { store, events, runner, setMax } = fullDiskSetup({
      // No batch is written while streaming: everything waits for the final write.
      persistEveryMs: 1e9,
      onChunk: (i, s) => {
        if (i === 2) s.simulateFullDiskForTests(true);
      },
    });
    // 5,000 characters: more than a page, so the final write needs one.
    setMax(50);
    const started = runner.send(null, 'short', OPTIONS);
    const final: Message = await started.done;
    expect(final).toMatchObject({ state: 'failed', error: STORAGE_FULL.message });
    expect(final.text).toHaveLength(5000);
    expect(events.at(-2)).toEqual({ type: 'message.finished', message: final });
    // The database still has the reply as it was before the end: empty and streaming, which a restart marks
    // interrupted. The task no longer shows as running.
    expect(store.messages.get(started.assistantMessageId)).toMatchObject({ text: '', state: 'streaming' });
    expect(store.tasks.get(started.taskId)?.status).toBe('failed');
    expect(store.integrityCheck()).toBe('ok');

    store.simulateFullDiskForTests(false);
    runner.recoverAfterCrash();
    expect(store.messages.get(started.assistantMessageId)?.state).toBe('interrupted');
  });

  it('tells the user a full disk stopped a tool call from being recorded', async () => {
    const store = openStore(':memory:');
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const engine: ChatEngine = {
      ...scriptedEngine({}).engine,
      async generate(options): Promise<GenerateResult> {
        await options.onToolCall!('list_folder', { path: 'Reports' });
        throw new Error('unreachable');
      },
    };
    const runner = new ChatRunner({
      engine,
      store,
      emit: () => undefined,
      tools: {
        offered: () => [{ name: 'list_folder', description: 'list', parameters: { type: 'object' } }],
        call: async () => {
          throw full;
        },
        lapsePrompts: () => undefined,
      },
    });
    expect(await runner.send(null, 'go', OPTIONS).done).toMatchObject({ state: 'failed', error: STORAGE_FULL.message });
  });
});

describe('ChatRunner with tools', () => {
  /** An engine whose model makes the given calls in order, then stops, as a looping model would. */
  function callingEngine(calls: Array<[string, unknown]>) {
    const told: string[] = [];
    const engine: ChatEngine = {
      state: READY,
      onStateChange: () => () => undefined,
      load: async () => READY,
      dispose: async () => undefined,
      async generate(options): Promise<GenerateResult> {
        let made = 0;
        for (const [name, args] of calls) {
          if (options.signal.aborted) break;
          made++;
          told.push(await options.onToolCall!(name, args));
        }
        const stats = { promptTokens: 1, completionTokens: made, ttftMs: 1, tokensPerSecond: 1 };
        return {
          text: '',
          reasoning: '',
          stopReason: options.signal.aborted ? 'aborted' : 'complete',
          stats,
          evaluatedPromptTokens: 1,
        };
      },
    };
    return { engine, told };
  }

  function run(calls: Array<[string, unknown]>, waitsForAnswer: (name: string) => boolean = () => false) {
    const { engine, told } = callingEngine(calls);
    const executed: Array<[string, unknown]> = [];
    const lapsed: Array<[string, string]> = [];
    const store = openStore(':memory:');
    const runner = new ChatRunner({
      engine,
      store,
      emit: () => undefined,
      tools: {
        offered: () => [{ name: 'list_folder', description: 'list', parameters: { type: 'object' } }],
        call: async (_taskId, name, args) => {
          executed.push([name, args]);
          return { told: 'ok', waitsForAnswer: waitsForAnswer(name) };
        },
        lapsePrompts: (taskId, why) => void lapsed.push([taskId, why]),
      },
    });
    const sent = runner.send(null, 'go', OPTIONS);
    return { done: sent.done, sent, executed, told, runner, store, lapsed };
  }

  it("ends the reply at a call that waits for the user's answer: complete, the model free, nothing more called", async () => {
    const { done, sent, executed, store, runner, lapsed } = run(
      [
        ['list_folder', { path: 'a' }],
        ['move', { from: 'a', to: 'b' }],
        ['list_folder', { path: 'b' }],
      ],
      (name) => name === 'move',
    );
    const reply = await done;
    expect(executed.map(([name]) => name)).toEqual(['list_folder', 'move']);
    expect(reply).toMatchObject({ state: 'complete', error: null });
    expect(store.tasks.get(sent.taskId)?.status).toBe('completed');
    expect(runner.isRunning(sent.taskId)).toBe(false);
    // Writing again in the task instead of answering lets the prompt lapse.
    await runner.send(sent.taskId, 'never mind', OPTIONS).done;
    expect(lapsed).toEqual([[sent.taskId, 'new-message']]);
  });

  it('refuses a call repeated a third time, and stops a model that keeps repeating it', async () => {
    const same: [string, unknown] = ['list_folder', { path: 'Reports' }];
    const { done, executed, told } = run([same, same, same, same, same, same]);
    const reply = await done;
    expect(executed).toHaveLength(2);
    expect(told[2]).toMatch(/already called list_folder with exactly these arguments/);
    expect(reply.error).toMatch(/repeated the same list_folder call/);
    expect(told.length).toBeLessThan(6);
  });

  it(`stops after ${MAX_TOOL_STEPS} calls in one reply`, async () => {
    const many = Array.from({ length: 20 }, (_, i): [string, unknown] => ['list_folder', { path: `folder ${i}` }]);
    const { done, executed, told } = run(many);
    const reply = await done;
    expect(executed).toHaveLength(MAX_TOOL_STEPS);
    expect(told[MAX_TOOL_STEPS]).toMatch(/Step limit reached/);
    expect(reply.error).toMatch(new RegExp(`more than ${MAX_TOOL_STEPS} tool calls`));
    expect(told.length).toBeLessThan(20);
  });
});

describe('LoopGuard across the replies of one request', () => {
  it('counts the calls made for the request before a continuation toward its limit', () => {
    const earlier = Array.from({ length: MAX_TOOL_STEPS }, (_, i) => ({ name: 'list_folder', args: { path: `${i}` } }));
    expect(new LoopGuard(earlier).check('list_folder', { path: 'new' })).toMatch(/Step limit reached/);
    expect(new LoopGuard(earlier.slice(1)).check('list_folder', { path: 'new' })).toBeUndefined();
    const same = [
      { name: 'move', args: { from: 'a' } },
      { name: 'move', args: { from: 'a' } },
    ];
    expect(new LoopGuard(same).check('move', { from: 'a' })).toMatch(/already called move/);
  });

  it("takes the calls since the user's last message, not refusals", () => {
    const base = { taskId: 't', seq: 0, reasoning: '', stats: null, error: null, state: 'complete' as const };
    const messages = [
      { ...base, id: 'u1', role: 'user' as const, text: 'one', createdAt: 1 },
      { ...base, id: 'u2', role: 'user' as const, text: 'two', createdAt: 10 },
    ];
    const call = (id: string, createdAt: number, state: ToolCall['state']) => ({ id, createdAt, state }) as ToolCall;
    const calls = [call('old', 5, 'done'), call('new', 11, 'done'), call('refused', 12, 'rejected')];
    expect(callsOfRequest(messages, calls).map((c) => c.id)).toEqual(['new']);
  });
});

describe('historyOf with tool calls', () => {
  it('tells the model what its calls did, including decisions made in the queue since', () => {
    const base = { taskId: 't', seq: 0, reasoning: '', stats: null, error: null, state: 'complete' as const };
    const call = {
      id: 'c',
      taskId: 't',
      tool: 'delete_permanently',
      args: { path: 'tmp.log' },
      description: { title: 'Delete', summary: 'Delete tmp.log for good', details: [] },
      risk: 'irreversible' as const,
      gate: 'queue' as const,
      state: 'done' as const,
      decision: 'approve' as const,
      decidedBy: 'user' as const,
      reason: null,
      taint: [],
      paths: [],
      basis: null,
      result: { deleted: true },
      resultSummary: null,
      error: null,
      undo: null,
      createdAt: 20,
      decidedAt: 40,
      startedAt: 40,
      finishedAt: 41,
    };
    const turns = historyOf(
      [
        { ...base, id: 'u', role: 'user', text: 'delete tmp.log for good', createdAt: 10 },
        { ...base, id: 'a', role: 'assistant', text: 'It waits for your approval.', createdAt: 30 },
      ],
      [call],
    );
    expect(turns).toEqual([
      { role: 'user', text: 'delete tmp.log for good' },
      { role: 'assistant', text: '[delete_permanently: Delete tmp.log for good] done: {"deleted":true}' },
      { role: 'assistant', text: 'It waits for your approval.' },
    ]);
  });
});

describe('titleFrom and historyOf', () => {
  it('titles a task by its first line, shortened', () => {
    expect(titleFrom('  Plan my week\nwith details')).toBe('Plan my week');
    expect(titleFrom('x'.repeat(100))).toHaveLength(60);
  });
  it('leaves out assistant turns that produced nothing', () => {
    const base = { taskId: 't', seq: 0, reasoning: '', createdAt: 0, stats: null, error: null };
    expect(
      historyOf([
        { ...base, id: 'a', role: 'user', text: 'q', state: 'complete' },
        { ...base, id: 'b', role: 'assistant', text: '', state: 'failed' },
      ]),
    ).toEqual([{ role: 'user', text: 'q' }]);
  });
});

describe('a task that goes on after the approval queue', () => {
  const queued = (store: Store, id: string, taskId: string | null, tool = 'mail_send') =>
    store.toolCalls.insert({
      id,
      taskId,
      tool,
      args: { to: 'ana@example.org' },
      description: { title: 'Send mail', summary: `to Ana (${id})`, details: [] },
      risk: 'irreversible',
      gate: 'queue',
      state: 'pending',
      taint: [],
      now: 1,
    });
  const decide = (store: Store, id: string, to: 'done' | 'denied' | 'failed') => {
    if (to === 'denied') {
      store.toolCalls.decide(id, 'pending', 'denied', {
        decision: 'deny',
        by: 'user',
        now: 2,
        basis: { kind: 'user', answer: 'deny' },
      });
    } else {
      store.toolCalls.decide(id, 'pending', 'approved', {
        decision: 'approve',
        by: 'user',
        now: 2,
        basis: { kind: 'user', answer: 'approve' },
      });
      store.toolCalls.start(id, 3);
      store.toolCalls.finish(
        id,
        to === 'done' ? { state: 'done', result: 'sent', now: 3 } : { state: 'failed', error: 'SMTP refused', now: 3 },
      );
    }
    return store.toolCalls.get(id)!;
  };

  it('writes a new reply in the task, told each outcome and the request, with no message from the user', async () => {
    const { store, runner, calls, events } = setup({ chunks: ['Done, ', 'and Ana is told.'] });
    const first = runner.send(null, "send it, then tell Ana I'm on my way", OPTIONS);
    await first.done;
    queued(store, 'c1', first.taskId);
    const call = decide(store, 'c1', 'done');
    events.length = 0;

    const continued = runner.continueTask(first.taskId, [call], OPTIONS);
    expect(continued).toBeDefined();
    expect(store.tasks.get(first.taskId)?.status).toBe('running');
    const final = await continued!.done;

    expect(final).toMatchObject({ role: 'assistant', text: 'Done, and Ana is told.', state: 'complete' });
    expect(calls).toHaveLength(2);
    expect(calls[1]!.prompt).toBe(continuationPrompt("send it, then tell Ana I'm on my way", [call]));
    expect(calls[1]!.prompt).toContain('[mail_send: to Ana (c1)] done: sent');
    expect(calls[1]!.prompt).toContain("send it, then tell Ana I'm on my way");
    // The decided call is told once, in the prompt; the user's request is in the history as they wrote it.
    expect(calls[1]!.history).toEqual([
      { role: 'user', text: "send it, then tell Ana I'm on my way" },
      { role: 'assistant', text: 'Done, and Ana is told.' },
    ]);
    const messages = store.messages.listForTask(first.taskId);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(store.tasks.get(first.taskId)?.status).toBe('completed');
    expect(events.map((e) => e.type)).toContain('message.finished');
  });

  it('tells a denial and a failure as they are', () => {
    const { store } = setup({});
    queued(store, 'd', null);
    queued(store, 'f', null);
    const prompt = continuationPrompt('tidy up', [decide(store, 'd', 'denied'), decide(store, 'f', 'failed')]);
    expect(prompt).toContain('denied by the user');
    expect(prompt).toContain('failed: SMTP refused');
  });

  it('goes on once per task, only when none of its calls waits, and never for a call of no task', () => {
    const { store } = setup({});
    for (const id of ['t1', 't2']) store.tasks.create({ id, title: id, now: 1 });
    queued(store, 'a', 't1');
    queued(store, 'b', 't1');
    queued(store, 'c', 't2');
    queued(store, 'd', 't2');
    queued(store, 'e', null);
    const decided = [
      decide(store, 'a', 'done'),
      decide(store, 'b', 'denied'),
      decide(store, 'c', 'done'),
      decide(store, 'e', 'done'),
    ];
    const waiting = new Set(store.toolCalls.queue().map((call) => call.taskId));
    const byTask = tasksToContinue(decided, (taskId) => waiting.has(taskId));
    // t1's two calls go on together; t2 still has d in the queue; e belongs to no task.
    expect([...byTask.keys()]).toEqual(['t1']);
    expect(byTask.get('t1')!.map((call) => call.id)).toEqual(['a', 'b']);
    expect(tasksToContinue([store.toolCalls.get('d')!], () => false).size).toBe(0);
  });

  it('waits for the reply being written in another task, then goes on', async () => {
    const { store, runner, calls } = setup({ waitForAbort: true });
    const first = runner.send(null, 'book the table', OPTIONS);
    store.tasks.create({ id: 'other', title: 'other', now: 1 });
    store.messages.insert({ id: 'u', taskId: 'other', role: 'user', text: 'mail Tom', state: 'complete', now: 1 });
    queued(store, 'q', 'other');
    const continued = runner.continueTask('other', [decide(store, 'q', 'done')], OPTIONS)!;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toHaveLength(1);
    await runner.stop(first.taskId);
    // The continuation now runs (and waits for an abort too, as this engine does).
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    await runner.stop('other');
    expect(await continued.done).toMatchObject({ state: 'stopped' });
  });

  it('keeps a task listed as replying when it goes on before its first reply has ended (a quick answer)', async () => {
    const store = openStore(':memory:');
    let endFirst!: () => void;
    const first = new Promise<void>((resolve) => (endFirst = resolve));
    let continuationStarted!: () => void;
    const started = new Promise<void>((resolve) => (continuationStarted = resolve));
    let endContinuation!: () => void;
    const continuation = new Promise<void>((resolve) => (endContinuation = resolve));
    let generated = 0;
    const engine: ChatEngine = {
      state: READY,
      onStateChange: () => () => undefined,
      load: async () => READY,
      dispose: async () => undefined,
      async generate(): Promise<GenerateResult> {
        if (++generated === 1) await first;
        else {
          continuationStarted();
          await continuation;
        }
        const stats = { promptTokens: 1, completionTokens: 1, ttftMs: 1, tokensPerSecond: 1 };
        return { text: '', reasoning: '', stopReason: 'complete', stats, evaluatedPromptTokens: 1 };
      },
    };
    const runner = new ChatRunner({ engine, store, emit: () => undefined });
    const sent = runner.send(null, 'rename the draft', OPTIONS);
    queued(store, 'q', sent.taskId);
    const continued = runner.continueTask(sent.taskId, [decide(store, 'q', 'done')], OPTIONS)!;
    endFirst();
    await sent.done;
    await started;
    expect(runner.isRunning(sent.taskId)).toBe(true);
    expect(() => runner.send(sent.taskId, 'again', OPTIONS)).toThrowError(
      expect.objectContaining({ code: 'TASK_BUSY' }),
    );
    endContinuation();
    await continued.done;
    expect(runner.isRunning(sent.taskId)).toBe(false);
  });

  it('without a model, the reply says so and the task fails; a deleted task goes on with nothing', async () => {
    const { store, runner, calls } = setup({}, { status: 'none' });
    store.tasks.create({ id: 't', title: 't', now: 1 });
    store.messages.insert({ id: 'u', taskId: 't', role: 'user', text: 'send it', state: 'complete', now: 1 });
    queued(store, 'q', 't');
    const final = await runner.continueTask('t', [decide(store, 'q', 'done')], OPTIONS)!.done;
    expect(final).toMatchObject({ state: 'failed', error: expect.stringContaining('No model is loaded') });
    expect(store.tasks.get('t')?.status).toBe('failed');
    expect(calls).toHaveLength(0);
    expect(runner.continueTask('gone', [], OPTIONS)).toBeUndefined();
  });
});
