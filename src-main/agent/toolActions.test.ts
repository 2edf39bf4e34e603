import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostEvent, Policy } from '../../src-shared/contract/index.js';
import { emptyPolicy } from '../permissions/policy.js';
import { openStore } from '../store/store.js';
import { ToolRegistry } from '../tools/registry.js';
import type { ToolRunner } from '../tools/sandbox/toolExecutor.js';
import type { JsonSchema, ToolDefinition, ToolOutcome } from '../tools/toolTypes.js';
import { ToolActions } from './toolActions.js';
import { testPackConfig } from '../testing/tools/packFixture.js';

const pathParam: JsonSchema = {
  type: 'object',
  properties: { path: { type: 'string', maxLength: 200 }, count: { type: 'integer' } },
  required: ['path'],
  additionalProperties: false,
};

function tool(name: string, risk: ToolDefinition['risk']): ToolDefinition {
  return {
    name,
    description: `${name} a file`,
    parameters: pathParam,
    risk,
    describe: (args) => ({
      title: name,
      summary: `${name} ${String(args.path)}`,
      details: [{ label: 'Path', value: String(args.path) }],
    }),
    run: () => Promise.reject(new Error('runs in the worker only')),
  };
}

/** A sandbox stand-in that records what ran; tools/sandbox has its own tests against the real worker. */
function fakeRunner(outcomes: Record<string, ToolOutcome> = {}) {
  const ran: Array<{ tool: string; args: unknown; signal?: AbortSignal }> = [];
  const undone: unknown[] = [];
  const runner: ToolRunner = {
    trashDir: mkdtempSync(join(tmpdir(), 'hb-trash-')),
    async run(name, args, options) {
      ran.push({ tool: name, args, ...(options.signal ? { signal: options.signal } : {}) });
      return outcomes[name] ?? { result: `${name} ok` };
    },
    async undo(record) {
      undone.push(record);
      return { result: 'undone' };
    },
    async dispose() {},
  };
  return { runner, ran, undone };
}

function setup(outcomes?: Record<string, ToolOutcome>, initial?: Partial<Policy>) {
  const store = openStore(':memory:');
  store.tasks.create({ id: 't', title: 'task', now: 1 });
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'hb-root-')));
  let policy: Policy = { ...emptyPolicy(), folders: [{ path: folder, untrusted: false }], ...initial };
  const events: HostEvent[] = [];
  const { runner, ran, undone } = fakeRunner(outcomes);
  const actions = new ToolActions({
    store,
    registry: new ToolRegistry([
      tool('list_folder', 'read'),
      tool('move', 'write'),
      tool('delete_permanently', 'irreversible'),
    ]),
    executor: runner,
    policy: () => policy,
    packs: () => testPackConfig(join(folder, '.packs')),
    savePolicy: (next) => (policy = next),
    emit: (e) => events.push(e),
  });
  const propose = (name: string, args: unknown, interactive = true) =>
    actions.propose({ taskId: 't', tool: name, args, actor: 'model', interactive });
  return { store, actions, ran, undone, events, propose, policy: () => policy };
}

describe('ToolActions', () => {
  it('rejects an unknown tool and invalid arguments before anything else, saying why', async () => {
    const { propose, ran, store } = setup();
    expect(await propose('format_disk', {})).toMatchObject({
      status: 'rejected',
      error: expect.stringMatching(/no tool named "format_disk".*list_folder/),
    });
    expect(await propose('move', { count: 1 })).toMatchObject({
      status: 'rejected',
      error: expect.stringMatching(/path/),
    });
    // As node-llama-cpp's grammar allows: an exponent that overflows to Infinity once parsed.
    expect(await propose('move', JSON.parse('{"path": "a", "count": 1e400}'))).toMatchObject({ status: 'rejected' });
    expect(await propose('move', { path: 'a', count: 2 ** 60 })).toMatchObject({ status: 'rejected' });
    expect(ran).toEqual([]);
    expect(store.audit.forTask('t').map((e) => e.kind)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
  });

  it('asks before a read, then lets the task read with that tool without asking again', async () => {
    const { propose, actions, ran, events } = setup();
    const first = await propose('list_folder', { path: 'Reports' });
    expect(first).toMatchObject({ status: 'needs-permission', call: { state: 'pending', gate: 'prompt' } });
    expect(events.at(-2)).toMatchObject({ type: 'toolcall.updated', call: { state: 'pending' } });
    // Its task says it waits for the user, with the call.
    expect(events.at(-1)).toMatchObject({ type: 'task.updated', task: { id: 't', waitingCalls: 1 } });
    expect(ran).toEqual([]);
    const answered = await actions.answerPrompt(first.call!.id, 'allow-once');
    expect(answered).toMatchObject({
      status: 'done',
      result: 'list_folder ok',
      call: { state: 'done', decision: 'allow-once' },
    });
    expect(await propose('list_folder', { path: 'Other' })).toMatchObject({ status: 'done' });
    expect(ran).toHaveLength(2);
  });

  it('asks for every write unless allowed for the task, and tells the model why it was denied', async () => {
    const { propose, actions, ran } = setup();
    const first = await propose('move', { path: 'draft.txt' });
    expect(await actions.answerPrompt(first.call!.id, 'deny', 'not that one')).toMatchObject({
      status: 'denied',
      error: 'The user denied this call: not that one',
    });
    const second = await propose('move', { path: 'draft.txt' });
    expect(second.status).toBe('needs-permission');
    await actions.answerPrompt(second.call!.id, 'allow-task');
    expect(await propose('move', { path: 'other.txt' })).toMatchObject({ status: 'done' });
    expect(ran.map((r) => r.args)).toEqual([{ path: 'draft.txt' }, { path: 'other.txt' }]);
  });

  it('"Always allow" writes the policy; it is refused for irreversible tools', async () => {
    const { propose, actions, policy } = setup();
    const call = await propose('move', { path: 'a' });
    await actions.answerPrompt(call.call!.id, 'always');
    expect(policy().tools.move).toBe('auto');
    const queued = await propose('delete_permanently', { path: 'a' });
    await expect(actions.answerPrompt(queued.call!.id, 'always')).rejects.toThrow(/approval queue/);
  });

  it('queues an irreversible call; approved once it runs once, approving again runs nothing', async () => {
    const { propose, actions, ran, store } = setup(undefined, { tools: { delete_permanently: 'queue' } });
    const queued = await propose('delete_permanently', { path: 'tmp.log' });
    expect(queued).toMatchObject({ status: 'queued', call: { gate: 'queue', state: 'pending' } });
    expect(ran).toEqual([]);
    expect(actions.queue().map((c) => c.id)).toEqual([queued.call!.id]);
    const [a, b] = await Promise.all([
      actions.approve(queued.call!.id, 'user'),
      actions.approve(queued.call!.id, 'user'),
    ]);
    expect([a.status, b.status].sort()).toEqual(['denied', 'done']);
    expect((await actions.approve(queued.call!.id, 'cli')).status).toBe('denied');
    expect(ran).toHaveLength(1);
    expect(actions.queue()).toEqual([]);
    const kinds = store.audit.forTask('t').map((e) => e.kind);
    expect(kinds).toEqual(['proposed', 'queued', 'decided', 'started', 'finished']);
  });

  it("approves with edited arguments, validated like the model's", async () => {
    const { propose, actions, ran } = setup();
    const queued = await propose('delete_permanently', { path: 'tmp.log' });
    await expect(actions.approve(queued.call!.id, 'user', { path: 7 })).rejects.toThrow(/Invalid arguments/);
    expect(await actions.approve(queued.call!.id, 'user', { path: 'tmp2.log' })).toMatchObject({ status: 'done' });
    expect(ran).toEqual([{ tool: 'delete_permanently', args: { path: 'tmp2.log' } }]);
  });

  it('never re-runs a call that was executing when the app died', async () => {
    const { store, actions, ran } = setup();
    const queued = await actions.propose({
      taskId: 't',
      tool: 'delete_permanently',
      args: { path: 'x' },
      actor: 'model',
      interactive: true,
    });
    const id = queued.call!.id;
    // Simulate a crash between "executing" and "done".
    store.toolCalls.decide(id, 'pending', 'approved', { decision: 'approve', by: 'user', now: 2 });
    store.toolCalls.start(id, 3);
    actions.recoverAfterCrash();
    expect(actions.get(id).state).toBe('interrupted');
    expect(actions.queue().map((c) => c.id)).toEqual([id]);
    expect(await actions.approve(id, 'user')).toMatchObject({
      status: 'denied',
      error: expect.stringMatching(/will not run again/),
    });
    expect(ran).toEqual([]);
    expect((await actions.deny(id, 'user', 'reviewed')).call?.state).toBe('denied');
  });

  it('after untrusted content, a write always asks and the prompt names that content', async () => {
    const { propose, actions } = setup(
      { list_folder: { result: 'listing', untrustedSource: 'Downloads/offer.txt' } },
      { tools: { list_folder: 'auto', move: 'auto' } },
    );
    expect(await propose('move', { path: 'a' })).toMatchObject({ status: 'done' });
    expect(await propose('list_folder', { path: 'Downloads' })).toMatchObject({ status: 'done' });
    const tainted = await propose('move', { path: 'b' });
    expect(tainted).toMatchObject({
      status: 'needs-permission',
      call: { taint: ['Downloads/offer.txt (via list_folder)'] },
    });
    expect((await actions.answerPrompt(tainted.call!.id, 'allow-once')).status).toBe('done');
  });

  it('reports needs-permission without running when no one can be asked', async () => {
    const { actions, ran } = setup();
    const result = await actions.propose({
      taskId: null,
      tool: 'move',
      args: { path: 'a' },
      actor: 'cli',
      interactive: false,
    });
    expect(result).toMatchObject({ status: 'needs-permission', call: { state: 'expired' } });
    expect(ran).toEqual([]);
  });

  it("hands the runner the proposing reply's stop signal, so stopping the reply cancels the call it is running", async () => {
    const { actions, ran } = setup(undefined, { tools: { list_folder: 'auto' } });
    const reply = new AbortController();
    const args = { path: '.' };
    await actions.propose({
      taskId: 't',
      tool: 'list_folder',
      args,
      actor: 'model',
      interactive: true,
      signal: reply.signal,
    });
    expect(ran.at(-1)?.signal).toBe(reply.signal);
    // Asked first: the reply ends at the prompt, and stopping it later cannot cancel the call the user allowed.
    const asking = new AbortController();
    const asked = await actions.propose({
      taskId: 't',
      tool: 'move',
      args,
      actor: 'model',
      interactive: true,
      signal: asking.signal,
    });
    asking.abort();
    expect(await actions.answerPrompt(asked.call!.id, 'allow-once')).toMatchObject({ status: 'done' });
    expect(ran.at(-1)?.signal).not.toBe(asking.signal);
    expect(ran.at(-1)?.signal?.aborted ?? false).toBe(false);
    // A queued call runs when approved, long after its reply: stopping that reply cannot cancel it.
    const queued = await actions.propose({
      taskId: 't',
      tool: 'delete_permanently',
      args,
      actor: 'model',
      interactive: true,
      signal: reply.signal,
    });
    await actions.approve(queued.call!.id, 'user');
    expect(ran.at(-1)).toEqual({ tool: 'delete_permanently', args });
  });

  it('does not offer, and refuses, a tool the policy switched off', async () => {
    const { propose, actions } = setup(undefined, { tools: { move: 'off' } });
    expect(actions.offeredTools().map((t) => t.name)).toEqual(['list_folder', 'delete_permanently']);
    expect(await propose('move', { path: 'a' })).toMatchObject({
      status: 'denied',
      error: expect.stringMatching(/switched off/),
    });
  });

  it('undoes a reversible call once', async () => {
    const undo = { kind: 'move-back', from: '/r/b', to: '/r/a' } as const;
    const { propose, actions, undone } = setup({ move: { result: 'moved', undo } }, { tools: { move: 'auto' } });
    const done = await propose('move', { path: 'a' });
    expect(done.call?.undo).toBe('available');
    expect((await actions.undo(done.call!.id)).undo).toBe('undone');
    await expect(actions.undo(done.call!.id)).rejects.toThrow(/cannot be undone/);
    expect(undone).toEqual([undo]);
  });
});

describe("a finished call's line for people", () => {
  function withSummaries(summarize: ToolDefinition['summarize']) {
    const store = openStore(':memory:');
    store.tasks.create({ id: 't', title: 'task', now: 1 });
    const folder = realpathSync(mkdtempSync(join(tmpdir(), 'hb-root-')));
    const { runner } = fakeRunner({ list_folder: { result: { entries: ['a.txt', 'b.txt'] } } });
    const actions = new ToolActions({
      store,
      registry: new ToolRegistry([{ ...tool('list_folder', 'read'), ...(summarize ? { summarize } : {}) }]),
      executor: runner,
      policy: () => ({
        ...emptyPolicy(),
        folders: [{ path: folder, untrusted: false }],
        tools: { list_folder: 'auto' },
      }),
      packs: () => testPackConfig(join(folder, '.packs')),
      savePolicy: () => undefined,
      emit: () => undefined,
    });
    return actions.propose({
      taskId: 't',
      tool: 'list_folder',
      args: { path: folder },
      actor: 'model',
      interactive: true,
    });
  }

  it("is the tool's own, from the result the worker returned, kept with the call", async () => {
    const done = await withSummaries((result) => {
      const entries = (result as { entries?: unknown }).entries;
      return Array.isArray(entries) ? `${entries.length} files.` : null;
    });
    expect(done).toMatchObject({
      status: 'done',
      call: { resultSummary: '2 files.', result: { entries: ['a.txt', 'b.txt'] } },
    });
  });

  it('is none when the tool gives none, or its summary throws on a result it did not expect', async () => {
    expect((await withSummaries(undefined)).call?.resultSummary).toBeNull();
    const threw = await withSummaries(() => {
      throw new Error('not the shape I know');
    });
    expect(threw).toMatchObject({ status: 'done', call: { resultSummary: null } });
  });
});
