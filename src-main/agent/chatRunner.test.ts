import { describe, expect, it } from 'vitest';
import type { HostEvent, ModelState } from '../../src-shared/contract/index.js';
import type { ChatEngine, GenerateOptions, GenerateResult } from '../llm/engineTypes.js';
import { openStore } from '../store/store.js';
import { ChatRunner, MAX_TOOL_STEPS, historyOf, titleFrom } from './chatRunner.js';

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

  it('refuses a second reply while one is running, and a missing task', async () => {
    const { runner } = setup({ waitForAbort: true });
    const sent = runner.send(null, 'first', OPTIONS);
    expect(() => runner.send(null, 'second', OPTIONS)).toThrowError(expect.objectContaining({ code: 'TASK_BUSY' }));
    await runner.stopAll();
    expect(() => runner.send('nope', 'hi', OPTIONS)).toThrowError(expect.objectContaining({ code: 'TASK_NOT_FOUND' }));
    expect(runner.isRunning(sent.taskId)).toBe(false);
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

  function run(calls: Array<[string, unknown]>) {
    const { engine, told } = callingEngine(calls);
    const executed: Array<[string, unknown]> = [];
    const store = openStore(':memory:');
    const runner = new ChatRunner({
      engine,
      store,
      emit: () => undefined,
      tools: {
        offered: () => [{ name: 'list_folder', description: 'list', parameters: { type: 'object' } }],
        call: async (_taskId, name, args) => {
          executed.push([name, args]);
          return 'ok';
        },
      },
    });
    return { done: runner.send(null, 'go', OPTIONS).done, executed, told };
  }

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
      result: { deleted: true },
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
