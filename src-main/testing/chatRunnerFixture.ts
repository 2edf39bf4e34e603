import type { HostEvent, ModelState } from '../../src-shared/contract/index.js';
import type { ChatEngine, EngineTool, GenerateOptions, GenerateResult } from '../llm/engineTypes.js';
import { openStore } from '../store/store.js';
import type { AgentTools } from '../agent/agentTools.js';
import { ChatRunner } from '../agent/chatRunner.js';

/** A ChatRunner over a scripted engine that answers "ok", offered many tools; for the runner's unit tests. */
export const READY: ModelState = {
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

export const tool = (name: string, description: string): EngineTool => ({
  name,
  description,
  parameters: { type: 'object', properties: {} },
});

export const MANY: EngineTool[] = [
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

export function setupRunner(result: Partial<GenerateResult> = {}) {
  const store = openStore(':memory:');
  const events: HostEvent[] = [];
  const calls: GenerateOptions[] = [];
  let state: ModelState = READY;
  const engine: ChatEngine = {
    get state() {
      return state;
    },
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
  const tools: AgentTools = {
    offered: () => offered,
    call: async () => ({ told: 'done', waitsForAnswer: false }),
    lapsePrompts: () => undefined,
  };
  let ids = 0;
  const runner = new ChatRunner({
    engine,
    store,
    tools,
    emit: (e) => events.push(e),
    newId: () => `id${++ids}`,
    persistEveryMs: 0,
  });
  return {
    store,
    events,
    runner,
    calls,
    offer: (list: EngineTool[]) => (offered = list),
    /** Changes the model the engine reports (a node in place of the file, say). */
    setModel: (next: ModelState) => (state = next),
  };
}

export const OPTIONS = { maxTokens: 64, temperature: 0 };
