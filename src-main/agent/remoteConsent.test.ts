import { describe, expect, it } from 'vitest';
import type { ModelState } from '../../src-shared/contract/index.js';
import { OPTIONS, READY, setupRunner } from '../testing/chatRunnerFixture.js';

const NODE: ModelState = {
  status: 'ready',
  info: {
    ...(READY.status === 'ready' ? READY.info : ({} as never)),
    path: 'remote:n1',
    remote: { url: 'http://192.168.1.20:8080', model: 'botpsy', protocol: 'dialect', label: 'the study PC' },
  },
};
const MARK = { url: 'http://192.168.1.20:8080', model: 'botpsy', label: 'the study PC' };

describe("a task's consent to a model on another computer", () => {
  it('is asked before anything is saved, then kept for the task and that node only', async () => {
    const { runner, store, calls, setModel } = setupRunner();
    setModel(NODE);
    expect(() => runner.send(null, 'plan my week', OPTIONS)).toThrow(
      expect.objectContaining({ code: 'REMOTE_CONSENT_REQUIRED', message: expect.stringContaining('the study PC') }),
    );
    expect(store.tasks.list(10)).toEqual([]);
    expect(calls).toHaveLength(0);

    const sent = runner.send(null, 'plan my week', OPTIONS, { allowRemote: true });
    const reply = await sent.done;
    expect(reply.remote).toEqual(MARK);
    // Agreed once for this task: the next message needs no new agreement.
    expect((await runner.send(sent.taskId, 'and Friday?', OPTIONS).done).remote).toEqual(MARK);
    // Another task asks again.
    expect(() => runner.send(null, 'something else', OPTIONS)).toThrow(
      expect.objectContaining({ code: 'REMOTE_CONSENT_REQUIRED' }),
    );
    // Another node asks again, even in the same task.
    setModel({
      ...NODE,
      info: {
        ...(NODE.status === 'ready' ? NODE.info : ({} as never)),
        remote: { ...MARK, url: 'http://10.0.0.9:8000', protocol: 'openai' },
      },
    } as ModelState);
    expect(() => runner.send(sent.taskId, 'again', OPTIONS)).toThrow(
      expect.objectContaining({ code: 'REMOTE_CONSENT_REQUIRED' }),
    );
  });

  it('a reply written on this computer has no mark and needs no agreement', async () => {
    const { runner } = setupRunner();
    const reply = await runner.send(null, 'hello', OPTIONS).done;
    expect(reply).not.toHaveProperty('remote');
  });

  it('a task that goes on after the model changed to a node is refused there, and nothing is sent', async () => {
    const { runner, calls, setModel, store } = setupRunner();
    const sent = runner.send(null, 'tidy my reports', OPTIONS);
    await sent.done;
    setModel(NODE);
    const continued = runner.continueTask(sent.taskId, [], OPTIONS);
    const reply = await continued!.done;
    expect(reply.state).toBe('failed');
    expect(reply.error).toMatch(/runs on another computer: the study PC/);
    expect(reply).not.toHaveProperty('remote');
    expect(calls).toHaveLength(1);
    expect(store.tasks.remoteAllowed(sent.taskId, MARK.url)).toBe(false);
  });
});
