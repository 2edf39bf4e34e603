import {
  HomebodyError,
  ID_PREFIX_MIN,
  type HostEvent,
  type ModelState,
  type ToolCall,
} from '../../../src-shared/contract/index.js';
import { agentToolsFrom } from '../../agent/agentTools.js';
import { ChatRunner, tasksToContinue, type DecidedIn, type ReplyOptions } from '../../agent/chatRunner.js';
import type { ToolActions } from '../../agent/toolActions.js';
import type { ChatEngine } from '../../llm/engineTypes.js';
import type { Store } from '../../store/store.js';
import type { Emit, HandlersOf } from '../handlers.js';
import { defaultReplyOptions } from './replyOptions.js';

export interface ChatServiceDeps {
  readonly store: Store;
  readonly emit: Emit;
  /** The chat's model (the models service loads and replaces it), and the temperature its settings say now. */
  readonly models: {
    readonly engine: ChatEngine;
    readonly settings: { effective(): { temperature: number } };
    /** Opens the last model used, when none is open (a command-line Host starts without one); undefined: none. */
    loadAtStart(modelPath: undefined): Promise<unknown> | undefined;
  };
  /** Every call the model makes goes through these. */
  readonly tools: { readonly actions: ToolActions };
  /** The length cap and temperature the caller fixes; the environment's defaults fill the rest. */
  readonly reply?: Partial<ReplyOptions>;
  /** Someone can answer a prompt in the chat; a command's Host cannot (its calls that need asking are not run). */
  readonly canAsk?: boolean;
}

/** How long after a change the next task's tools are evaluated: a burst of changes gives one evaluation. */
const PREPARE_DELAY_MS = 300;
/** Requests that may change the tools a new task is offered. */
const CHANGES_TOOLS = /^(policy|settings|packs|mcp)\./;

/** The chat: one reply at a time, streamed as events, and the tasks it keeps. */
export function createChatService(deps: ChatServiceDeps) {
  const { store } = deps;
  const { engine, settings } = deps.models;
  const tools = agentToolsFrom(deps.tools.actions, { canAsk: deps.canAsk ?? true });
  const runner = new ChatRunner({ engine, store, emit: deps.emit, tools });
  const reply = { ...defaultReplyOptions(), ...deps.reply };
  const handlers: HandlersOf<'chat.send' | 'chat.stop' | 'tasks.list' | 'tasks.get'> = {
    'chat.send': async ({ taskId, text, allowRemote }) => {
      const options = { ...reply, temperature: settings.effective().temperature };
      const sent = runner.send(taskId, text, options, allowRemote === undefined ? {} : { allowRemote });
      return { taskId: sent.taskId, userMessageId: sent.userMessageId, assistantMessageId: sent.assistantMessageId };
    },
    'chat.stop': async ({ taskId }) => ({ stopped: await runner.stop(taskId) }),
    'tasks.list': async ({ limit }) => ({ tasks: store.tasks.list(limit ?? 200) }),
    'tasks.get': async ({ taskId: given }) => {
      const task = store.tasks.get(given) ?? taskByPrefix(given);
      if (!task) throw new HomebodyError('TASK_NOT_FOUND', `There is no task ${given}; it may have been deleted.`);
      return { task, messages: store.messages.listForTask(task.id), toolCalls: store.toolCalls.listForTask(task.id) };
    },
  };
  /** A task named by the start of its id, as a person copies it from a list (at least 4 characters, one task). */
  const taskByPrefix = (prefix: string) => {
    if (prefix.length < ID_PREFIX_MIN) return undefined;
    const ids = store.tasks.idsStartingWith(prefix);
    if (ids.length > 1) {
      throw new HomebodyError('INVALID_REQUEST', `More than one task's id begins with ${prefix}: give more of it.`);
    }
    return ids[0] === undefined ? undefined : store.tasks.get(ids[0]);
  };
  const stopAll = (): Promise<void> => runner.stopAll();
  /** A model to go on with: the one open, the one loading, else the last one used (opened now). */
  const readyModel = async (): Promise<void> => {
    if (engine.state.status === 'ready') return;
    if (engine.state.status === 'loading') {
      await new Promise<ModelState>((resolve) => {
        const off = engine.onStateChange((state) => {
          if (state.status === 'loading') return;
          off();
          resolve(state);
        });
      });
      return;
    }
    await deps.models.loadAtStart(undefined)?.catch(() => {});
  };
  // The tools a new task starts with are evaluated ahead of it: as soon as a model is ready (the first task after a
  // start then finds its prompt's prefix rendered, tokenized and checked), and a moment after something that
  // changes the tools happened (several changes in a row give one evaluation).
  let preparing: NodeJS.Timeout | undefined;
  const prepare = (delayMs = PREPARE_DELAY_MS): void => {
    clearTimeout(preparing);
    preparing = setTimeout(() => runner.prepare(reply.maxTokens), delayMs);
    preparing.unref();
  };
  const offState = engine.onStateChange((state) => {
    if (state.status === 'ready') prepare(0);
  });
  return {
    runner,
    handlers,
    /**
     * After the user decided calls (in the queue, or at a prompt): each task that waits for nothing more goes on
     * (ChatRunner.continueTask); answers the replies that will be written, at once, before they are. A task goes on
     * after a prompt once none of its prompts waits (a call of it left in the queue was told to the model as
     * waiting there); after the queue, once neither its queued calls nor a prompt wait (answering the prompt goes
     * on with the task, the queue's outcomes in its history).
     */
    continueAfterDecisions: (
      calls: readonly ToolCall[],
      from: DecidedIn = 'queue',
    ): Array<{ taskId: string; messageId: string }> => {
      const stillWaiting = (taskId: string) =>
        store.toolCalls
          .listForTask(taskId)
          .some((call) => call.state === 'pending' && (from === 'queue' || call.gate === 'prompt'));
      const byTask = tasksToContinue(calls, stillWaiting);
      const options = { ...reply, temperature: settings.effective().temperature };
      return [...byTask].flatMap(([taskId, decided]) => {
        const continued = runner.continueTask(taskId, decided, options, readyModel, from);
        return continued ? [{ taskId, messageId: continued.assistantMessageId }] : [];
      });
    },
    /** At start: a reply a crash cut short is marked so, with what it had written. */
    recoverAfterCrash: (): void => runner.recoverAfterCrash(),
    /** Stops every reply in progress; resolves once each is recorded. */
    stopAll,
    /** Before "Delete all my data": no reply may write while the data goes. */
    stopForWipe: stopAll,
    /** A reply is being written now. */
    replying: (): boolean => store.tasks.runningIds().some((taskId) => runner.isRunning(taskId)),
    /** After each request: one that may change the offered tools (a policy, a pack, an MCP server) re-prepares. */
    afterRequest: (method: string): void => {
      if (CHANGES_TOOLS.test(method)) prepare();
    },
    /** An MCP server's tools changed. */
    afterEvent: (event: HostEvent): void => {
      if (event.type === 'mcp.changed') prepare();
    },
    dispose: async () => {
      clearTimeout(preparing);
      offState();
      await stopAll();
    },
  };
}
export type ChatService = ReturnType<typeof createChatService>;
