import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { HostEvent, Message } from '../../src-shared/contract/index.js';
import { createHost, type HostInternals } from './createHost.js';
import { scriptedEngines } from '../testing/scriptedEngine.js';
import { COMPILED_TOOL_WORKER } from '../testing/compiledApp.js';

/**
 * A two-step request whose first step waits in the approval queue: once the user approves it, the task goes on by
 * itself (the model is told the outcome and makes the second call), on the real engine, worker and broker; without
 * continuing, or while another call of the task still waits, it does not.
 */
describe.each([
  ['Qwen3', 'tinyModelPath'],
  ['Qwen3.5', 'tinyQwen35ModelPath'],
] as const)('a task goes on after the approval queue, on the %s template', (_template, model) => {
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-continue-')));
  const reports = join(work, 'Reports');
  mkdirSync(reports);
  for (const name of ['tmp.log', 'old.log', 'keep.txt', 'a.log', 'b.log']) writeFileSync(join(reports, name), name);
  const json = (value: unknown) => JSON.stringify(value);
  const remove = (name: string) => ({
    name: 'delete_permanently',
    params: `{"path": ${json(join(reports, name))}, "recursive": false}`,
  });
  const list = { name: 'list_folder', params: `{"path": ${json(reports)}, "limit": 50}` };
  const PROMPTS = {
    twoStep: "delete tmp.log for good, then tell me what's left in Reports",
    onlyApprove: 'delete old.log for good, then list Reports',
    twoQueued: 'delete a.log and b.log for good, then list Reports',
  };
  const scripts = {
    [PROMPTS.twoStep]: [remove('tmp.log')],
    [`*Go on with their request (${json(PROMPTS.twoStep)})*`]: [list],
    [PROMPTS.onlyApprove]: [remove('old.log')],
    [`*Go on with their request (${json(PROMPTS.onlyApprove)})*`]: [list],
    [PROMPTS.twoQueued]: [remove('a.log'), remove('b.log')],
    [`*Go on with their request (${json(PROMPTS.twoQueued)})*`]: [list],
  };

  let host: HostInternals;
  const events: HostEvent[] = [];
  beforeAll(async () => {
    host = await createHost({
      toolWorker: COMPILED_TOOL_WORKER,
      dataDir: join(work, 'data'),
      shell: 'cli',
      loadModelOnStart: false,
      engineConfig: { gpu: false, contextSize: 8192 },
      reply: { maxTokens: 64, temperature: 0 },
      createEngine: scriptedEngines(scripts),
    });
    await host.invoke('policy.grantFolder', { path: reports, untrusted: false });
    // The folder is read without a prompt, so the continuation's call runs by itself.
    await host.invoke('policy.setMode', { tool: 'list_folder', mode: 'auto' });
    host.subscribe((event) => events.push(event));
    expect((await host.invoke('model.open', { path: inject(model) })).status).toBe('ready');
  });
  afterAll(() => host.dispose());

  /** Sends a request whose calls all wait in the queue; answers the task and those calls. */
  async function queueFor(prompt: string) {
    const sent = await host.invoke('chat.send', { taskId: null, text: prompt });
    await host.chat.whenDone(sent.taskId);
    const { toolCalls } = await host.invoke('tasks.get', { taskId: sent.taskId });
    expect(toolCalls.map((c) => [c.tool, c.gate, c.state])).toEqual(
      toolCalls.map(() => ['delete_permanently', 'queue', 'pending']),
    );
    return { taskId: sent.taskId, queued: toolCalls.map((c) => c.id) };
  }

  const replyEnd = (messageId: string) =>
    new Promise<Message>((resolve) => {
      const done = events.find((e) => e.type === 'message.finished' && e.message.id === messageId);
      if (done && done.type === 'message.finished') return resolve(done.message);
      const off = host.subscribe((event) => {
        if (event.type === 'message.finished' && event.message.id === messageId) {
          off();
          resolve(event.message);
        }
      });
    });

  it('approving the first step makes the task go on: the model is told it was done and makes the second call', async () => {
    const { taskId, queued } = await queueFor(PROMPTS.twoStep);
    const approved = await host.invoke('approvals.approve', { ids: queued });
    expect(approved.calls[0]?.state).toBe('done');
    expect(existsSync(join(reports, 'tmp.log'))).toBe(false);
    expect(approved.continued).toEqual([{ taskId, messageId: expect.any(String) }]);
    const reply = await replyEnd(approved.continued[0]!.messageId);
    expect(reply).toMatchObject({ taskId, role: 'assistant', state: 'complete' });

    const detail = await host.invoke('tasks.get', { taskId });
    // No message from the user was added: the task is the request, the first reply, and the one that went on.
    expect(detail.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(detail.toolCalls.map((c) => [c.tool, c.state])).toEqual([
      ['delete_permanently', 'done'],
      ['list_folder', 'done'],
    ]);
    const listed = json(detail.toolCalls[1]!.result);
    expect(listed).toContain('keep.txt');
    expect(listed).not.toContain('tmp.log');
    expect(detail.task.status).toBe('completed');
  });

  it('"approve without continuing" runs the call and leaves the task where it was', async () => {
    const { taskId, queued } = await queueFor(PROMPTS.onlyApprove);
    const approved = await host.invoke('approvals.approve', { ids: queued, continue: false });
    expect(approved.calls[0]?.state).toBe('done');
    expect(approved.continued).toEqual([]);
    const detail = await host.invoke('tasks.get', { taskId });
    expect(detail.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(detail.toolCalls.map((c) => c.tool)).toEqual(['delete_permanently']);
    // Deciding it again continues nothing either: it was decided already.
    expect((await host.invoke('approvals.approve', { ids: queued })).continued).toEqual([]);
  });

  it('goes on once, with both outcomes, when the last of two queued calls is decided', async () => {
    const { taskId, queued } = await queueFor(PROMPTS.twoQueued);
    expect(queued).toHaveLength(2);
    const first = await host.invoke('approvals.approve', { ids: [queued[0]!] });
    expect(first.continued).toEqual([]);
    const second = await host.invoke('approvals.deny', { ids: [queued[1]!], reason: 'keep b' });
    expect(second.continued).toEqual([{ taskId, messageId: expect.any(String) }]);
    await replyEnd(second.continued[0]!.messageId);
    const detail = await host.invoke('tasks.get', { taskId });
    expect(detail.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(detail.toolCalls.map((c) => [c.tool, c.state])).toEqual([
      ['delete_permanently', 'done'],
      ['delete_permanently', 'denied'],
      ['list_folder', 'done'],
    ]);
    expect(existsSync(join(reports, 'a.log'))).toBe(false);
    expect(existsSync(join(reports, 'b.log'))).toBe(true);
  });
});
