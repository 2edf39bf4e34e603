import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { taskStatusWords } from '../../src-shared/contract/index.js';
import { createHost, type HostInternals } from './createHost.js';
import { COMPILED_TOOL_WORKER } from '../testing/compiledApp.js';
import { scriptedEngines } from '../testing/scriptedEngine.js';
import { settledReply } from '../testing/settledTask.js';

/**
 * A task that asks at a prompt ends its reply there: other tasks are written meanwhile, the task reads "Waiting for
 * you", and the answer makes it go on (the rest of its request runs); writing again or stopping instead lets the
 * prompt lapse, and nothing runs. On the real engine (Qwen3.5's dialect), worker and broker.
 */
describe('waiting for the user is not replying', () => {
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-waiting-')));
  const reports = join(work, 'Reports');
  mkdirSync(reports);
  const json = (value: unknown) => JSON.stringify(value);
  const write = (name: string) => ({
    name: 'write_text',
    params: `{"path": ${json(join(reports, name))}, "content": "hello", "overwrite": false}`,
  });
  const list = { name: 'list_folder', params: `{"path": ${json(reports)}, "limit": 50}` };
  const PROMPTS = {
    twoStep: 'write hello.txt in Reports, then list Reports',
    superseded: 'write never.txt in Reports',
    stopped: 'write stopped.txt in Reports',
    swapped: 'write swapped.txt in Reports/drafts',
  };
  const scripts = {
    [PROMPTS.twoStep]: [write('hello.txt'), list],
    [PROMPTS.superseded]: [write('never.txt')],
    [PROMPTS.stopped]: [write('stopped.txt')],
    [PROMPTS.swapped]: [write(join('drafts', 'swapped.txt'))],
  };

  let host: HostInternals;
  beforeAll(async () => {
    host = await createHost({
      toolWorker: COMPILED_TOOL_WORKER,
      dataDir: join(work, 'data'),
      shell: 'browser',
      loadModelOnStart: false,
      engineConfig: { gpu: false, contextSize: 8192 },
      reply: { maxTokens: 64, temperature: 0 },
      createEngine: scriptedEngines(scripts),
    });
    await host.invoke('policy.grantFolder', { path: reports, untrusted: false });
    // The listing runs by itself; the write asks.
    await host.invoke('policy.setMode', { tool: 'list_folder', mode: 'auto' });
    expect((await host.invoke('model.open', { path: inject('tinyQwen35ModelPath') })).status).toBe('ready');
  });
  afterAll(() => host.dispose());

  /** Sends a request and waits for its reply to end at the prompt it asks; answers the task and that call. */
  async function askedFor(prompt: string) {
    const sent = await host.invoke('chat.send', { taskId: null, text: prompt });
    const first = await settledReply(host, sent.taskId, { promptsAnswered: false });
    const { task, toolCalls } = await host.invoke('tasks.get', { taskId: sent.taskId });
    const asking = toolCalls.find((call) => call.gate === 'prompt' && call.state === 'pending');
    expect(asking).toBeDefined();
    return { taskId: sent.taskId, first, task, callId: asking!.id };
  }

  it('ends the reply at the prompt, writes other tasks meanwhile, and goes on with the request after the answer', async () => {
    const asked = await askedFor(PROMPTS.twoStep);
    expect(asked.first.state).toBe('complete');
    expect(host.chat.isRunning(asked.taskId)).toBe(false);
    expect(taskStatusWords(asked.task)).toBe('Waiting for you');
    const { tasks } = await host.invoke('tasks.list', {});
    expect(tasks.find((t) => t.id === asked.taskId)).toMatchObject({ waitingCalls: 1 });

    // Another task is answered while this one waits for the user.
    const other = await host.invoke('chat.send', { taskId: null, text: 'hello there' });
    expect(await settledReply(host, other.taskId)).toMatchObject({
      state: expect.stringMatching(/complete|truncated/),
    });

    await host.invoke('toolcalls.answer', { id: asked.callId, answer: 'allow-once', reason: null });
    const last = await settledReply(host, asked.taskId);
    expect(last.id).not.toBe(asked.first.id);
    expect(last.state).toBe('complete');
    expect(readFileSync(join(reports, 'hello.txt'), 'utf8')).toBe('hello');
    const detail = await host.invoke('tasks.get', { taskId: asked.taskId });
    // The second step ran in the reply that went on: the listing sees the file the first step wrote.
    expect(detail.toolCalls.map((call) => [call.tool, call.state])).toEqual([
      ['write_text', 'done'],
      ['list_folder', 'done'],
    ]);
    expect(JSON.stringify(detail.toolCalls[1]!.result)).toContain('hello.txt');
    expect(detail.task.waitingCalls).toBe(0);
    expect(taskStatusWords(detail.task)).toBe('Completed');
  });

  it('lets the prompt lapse when the user writes again in the task instead of answering; it never runs', async () => {
    const asked = await askedFor(PROMPTS.superseded);
    await host.invoke('chat.send', { taskId: asked.taskId, text: 'never mind, leave it' });
    await settledReply(host, asked.taskId);
    const call = (await host.invoke('tasks.get', { taskId: asked.taskId })).toolCalls[0]!;
    expect(call).toMatchObject({ state: 'expired', basis: { kind: 'system', why: 'superseded' } });
    const late = await host.invoke('toolcalls.answer', { id: asked.callId, answer: 'allow-once', reason: null });
    expect(late.state).toBe('expired');
    expect(existsSync(join(reports, 'never.txt'))).toBe(false);
  });

  it('runs nothing when, while the prompt waits, its folder is swapped for a link to a folder outside', async () => {
    const drafts = join(reports, 'drafts');
    const outside = join(work, 'outside');
    mkdirSync(drafts);
    mkdirSync(outside);
    const asked = await askedFor(PROMPTS.swapped);
    // The reply has ended; the prompt can wait a long time, and another program swaps the folder meanwhile.
    renameSync(drafts, join(reports, 'drafts.old'));
    symlinkSync(outside, drafts);
    const answered = await host.invoke('toolcalls.answer', { id: asked.callId, answer: 'allow-once', reason: null });
    expect(answered).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/link leading outside|changed since you were asked/),
    });
    expect(readdirSync(outside)).toEqual([]);
    // The task goes on, told the call failed; the model is not told it was done.
    await settledReply(host, asked.taskId);
    const { messages } = await host.invoke('tasks.get', { taskId: asked.taskId });
    expect(messages.filter((m) => m.role === 'assistant')).toHaveLength(2);
  });

  it('stops a task that waits at a prompt by letting the prompt lapse', async () => {
    const asked = await askedFor(PROMPTS.stopped);
    expect(await host.invoke('chat.stop', { taskId: asked.taskId })).toEqual({ stopped: true });
    const detail = await host.invoke('tasks.get', { taskId: asked.taskId });
    expect(detail.toolCalls[0]).toMatchObject({ state: 'expired', basis: { kind: 'system', why: 'stopped' } });
    expect(detail.task.waitingCalls).toBe(0);
    expect(detail.messages.filter((m) => m.role === 'assistant')).toHaveLength(1);
    expect(existsSync(join(reports, 'stopped.txt'))).toBe(false);
  });
});
