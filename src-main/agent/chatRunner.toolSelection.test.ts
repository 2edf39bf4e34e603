import { describe, expect, it } from 'vitest';
import type { HostEvent, ModelState } from '../../src-shared/contract/index.js';
import type { ChatEngine, EngineTool, GenerateOptions, GenerateResult } from '../llm/engineTypes.js';
import { openStore } from '../store/store.js';
import type { AgentTools } from './agentTools.js';
import { ChatRunner } from './chatRunner.js';
import { SELECT_TOP } from './toolSelection.js';

const READY: ModelState = {
  status: 'ready',
  info: {
    path: '/m.gguf',
    name: 'm',
    architecture: 'qwen3',
    sizeBytes: 1,
    contextSize: 512,
    trainContextSize: 2048,
    synthetic: true,
    gpu: 'cpu',
  },
};

const tool = (name: string, description: string): EngineTool => ({
  name,
  description,
  parameters: { type: 'object', properties: {} },
});

const MANY: EngineTool[] = [
  tool('list_folder', 'List the files in a folder.'),
  tool('read_text', 'Read a text file.'),
  tool('write_text', 'Write a text file.'),
  tool('move', 'Move or rename a file.'),
  tool('move_to_trash', 'Move a file to the trash.'),
  tool('delete_permanently', 'Delete a file for good.'),
  tool('search_mail', 'Search the mail inbox.'),
  tool('send_mail', 'Send an email to someone.'),
  tool('list_events', 'List calendar events.'),
  tool('add_event', 'Add an event to the calendar.'),
  tool('add_note', 'Write a note.'),
  tool('search_notes', 'Search notes.'),
  tool('add_reminder', 'Set a reminder.'),
  tool('battery_level', 'Report the battery level of the device.'),
  tool('web_search', 'Search the web.'),
  tool('fetch_page', 'Read a web page.'),
];

function setup(result: Partial<GenerateResult> = {}) {
  const store = openStore(':memory:');
  const events: HostEvent[] = [];
  const calls: GenerateOptions[] = [];
  const engine: ChatEngine = {
    state: READY,
    onStateChange: () => () => undefined,
    load: async () => READY,
    dispose: async () => undefined,
    async generate(options): Promise<GenerateResult> {
      calls.push(options);
      options.onText('ok');
      return {
        text: 'ok',
        reasoning: '',
        stopReason: 'complete',
        stats: { promptTokens: 20, completionTokens: 1, ttftMs: 5, tokensPerSecond: 50 },
        evaluatedPromptTokens: 20,
        ...result,
      };
    },
  };
  let offered = MANY;
  const tools: AgentTools = { offered: () => offered, call: async () => 'done' };
  let ids = 0;
  const runner = new ChatRunner({
    engine,
    store,
    tools,
    emit: (e) => events.push(e),
    newId: () => `id${++ids}`,
    persistEveryMs: 0,
  });
  return { store, events, runner, calls, offer: (list: EngineTool[]) => (offered = list) };
}

const OPTIONS = { maxTokens: 64, temperature: 0 };

describe('ChatRunner offering tools', () => {
  it('offers the relevant few of many tools, in registry order, and records the choice in the audit log', async () => {
    const { store, runner, calls } = setup();
    const sent = runner.send(null, 'send an email to Ana about the trip', OPTIONS);
    await sent.done;
    const names = calls[0]?.tools?.map((t) => t.name) ?? [];
    expect(names).toContain('send_mail');
    expect(names.length).toBeLessThanOrEqual(SELECT_TOP);
    expect(names).toEqual(MANY.map((t) => t.name).filter((n) => names.includes(n)));
    const audit = store.audit.forTask(sent.taskId).filter((e) => e.kind === 'tools-offered');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'system', detail: { offered: names, available: MANY.length } });
  });

  it('keeps the tools the task has called already', async () => {
    const { store, runner, calls } = setup();
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
    const names = calls[1]?.tools?.map((t) => t.name) ?? [];
    expect(names).toEqual(expect.arrayContaining(['battery_level', 'send_mail']));
  });

  it("offers the task's previous tools again while they suit the request, so the prompt's start stays the same", async () => {
    const { runner, calls } = setup();
    const first = runner.send(null, 'send an email to Ana about the trip', OPTIONS);
    await first.done;
    await runner.send(first.taskId, 'and send one to Bo as well', OPTIONS).done;
    expect(calls[1]?.tools).toEqual(calls[0]?.tools);
  });

  it('offers every tool, and records nothing, when there are 12 or fewer', async () => {
    const { store, runner, calls, offer } = setup();
    offer(MANY.slice(0, 12));
    const sent = runner.send(null, 'send an email to Ana', OPTIONS);
    await sent.done;
    expect(calls[0]?.tools).toEqual(MANY.slice(0, 12));
    expect(store.audit.forTask(sent.taskId).filter((e) => e.kind === 'tools-offered')).toEqual([]);
  });
});
