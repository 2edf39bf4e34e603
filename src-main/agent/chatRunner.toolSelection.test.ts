import { describe, expect, it } from 'vitest';
import { SELECT_TOP } from './toolSelection.js';
import { MANY, OPTIONS, setupRunner } from '../testing/chatRunnerFixture.js';

describe('ChatRunner offering tools', () => {
  it('lets the model call the relevant few of many tools, in registry order, and records the choice in the audit log', async () => {
    const { store, runner, calls } = setupRunner();
    const sent = runner.send(null, 'send an email to Ana about the trip', OPTIONS);
    await sent.done;
    // Every tool stays in the prompt (one stable prefix); the grammar names only the callable ones.
    expect(calls[0]?.tools).toEqual(MANY);
    const names = [...(calls[0]?.callableTools ?? [])];
    expect(names).toContain('send_mail');
    expect(names.length).toBeLessThanOrEqual(SELECT_TOP);
    expect(names).toEqual(MANY.map((t) => t.name).filter((n) => names.includes(n)));
    const audit = store.audit.forTask(sent.taskId).filter((e) => e.kind === 'tools-offered');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'system', detail: { offered: names, available: MANY.length } });
  });

  it('keeps the tools the task has called already', async () => {
    const { store, runner, calls } = setupRunner();
    const first = runner.send(null, 'how much battery is left?', OPTIONS);
    await first.done;
    store.toolCalls.insert({
      id: 'c1',
      taskId: first.taskId,
      tool: 'battery_level',
      args: {},
      description: { title: 'Battery', summary: 'battery level', details: [] },
      risk: 'read',
      gate: 'none',
      state: 'done',
      taint: [],
      now: Date.now(),
    });
    await runner.send(first.taskId, 'now email Ana that the trip is on', OPTIONS).done;
    expect(calls[1]?.callableTools).toEqual(expect.arrayContaining(['battery_level', 'send_mail']));
  });

  it("offers the task's previous tools again while they suit the request, so the prompt's start stays the same", async () => {
    const { runner, calls } = setupRunner();
    const first = runner.send(null, 'send an email to Ana about the trip', OPTIONS);
    await first.done;
    await runner.send(first.taskId, 'and send one to Bo as well', OPTIONS).done;
    expect(calls[1]?.callableTools).toEqual(calls[0]?.callableTools);
  });

  it('offers every tool, and records nothing, when there are 12 or fewer', async () => {
    const { store, runner, calls, offer } = setupRunner();
    offer(MANY.slice(0, 12));
    const sent = runner.send(null, 'send an email to Ana', OPTIONS);
    await sent.done;
    expect(calls[0]?.tools).toEqual(MANY.slice(0, 12));
    expect(calls[0]?.callableTools).toBeUndefined();
    expect(store.audit.forTask(sent.taskId).filter((e) => e.kind === 'tools-offered')).toEqual([]);
  });
});
