import {
  HomebodyError,
  type AuditEvent,
  type ChatStats,
  type HostEvent,
  type Message,
  type MessageState,
  type TaskStatus,
  type ToolCall,
} from '../../src-shared/contract/index.js';
import type { ChatEngine, ChatTurn, GenerateResult } from '../llm/engineTypes.js';
import type { AgentTools } from './agentTools.js';
import { allowRemote, consentRequired, remoteAllowed, remoteOf } from './remoteConsent.js';
import { selectTools, type SelectionRequest } from './toolSelection.js';
import { storageFailure } from '../store/db.js';
import type { Store } from '../store/store.js';

export interface ChatRunnerDeps {
  readonly engine: ChatEngine;
  readonly store: Store;
  readonly emit: (event: HostEvent) => void;
  readonly now?: () => number;
  readonly newId?: () => string;
  /** How often streamed text is written to the database; a crash loses at most this much of a reply. */
  readonly persistEveryMs?: number;
  /** Tools the model may call; without them the model only chats. */
  readonly tools?: AgentTools;
}

/** Most tool calls in one reply; past it the model is told to answer, and then the reply is stopped. */
export const MAX_TOOL_STEPS = 8;
/** The same call (tool and arguments) this many times in one reply means the model is looping. */
export const MAX_IDENTICAL_CALLS = 3;

/**
 * Counts a request's tool calls and decides when the model is running away. A reply that goes on with the request
 * after the user decided (a prompt, the queue) starts from the calls made for it before (`earlier`): the limit is the
 * request's, not each reply's.
 */
export class LoopGuard {
  private steps = 0;
  private refusals = 0;
  private readonly seen = new Map<string, number>();
  stoppedBecause: string | null = null;

  constructor(earlier: ReadonlyArray<{ readonly name: string; readonly args: unknown }> = []) {
    for (const call of earlier) {
      this.steps++;
      const key = `${call.name} ${JSON.stringify(call.args)}`;
      this.seen.set(key, (this.seen.get(key) ?? 0) + 1);
    }
  }

  /** undefined: go ahead; a string: what the model is told instead of running the call. */
  check(name: string, args: unknown): string | undefined {
    this.steps++;
    const key = `${name} ${JSON.stringify(args)}`;
    const repeats = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, repeats);
    if (this.steps > MAX_TOOL_STEPS) {
      this.refusals++;
      this.stoppedBecause = `The model made more than ${MAX_TOOL_STEPS} tool calls in one reply, so Homebody stopped it.`;
      return `Step limit reached (${MAX_TOOL_STEPS} tool calls). Do not call any more tools; answer the user now.`;
    }
    if (repeats >= MAX_IDENTICAL_CALLS) {
      this.refusals++;
      this.stoppedBecause = `The model repeated the same ${name} call ${repeats} times, so Homebody stopped it.`;
      return `You already called ${name} with exactly these arguments; use that result instead of calling it again.`;
    }
    return undefined;
  }

  /** After a refusal the model gets two more chances before the reply is stopped. */
  get runaway(): boolean {
    return (
      this.stoppedBecause !== null &&
      (this.steps > MAX_TOOL_STEPS + 2 || [...this.seen.values()].some((n) => n > MAX_IDENTICAL_CALLS + 1))
    );
  }
}

export interface ReplyOptions {
  readonly maxTokens: number;
  readonly temperature: number;
}

export interface SentMessage {
  readonly taskId: string;
  readonly userMessageId: string;
  readonly assistantMessageId: string;
  /** Settles with the final assistant message (complete, stopped, truncated or failed); never rejects. */
  readonly done: Promise<Message>;
}

/** A reply that goes on with a task after a decision in the approval queue. */
export interface Continued {
  readonly taskId: string;
  readonly assistantMessageId: string;
  /** Settles with the final assistant message; never rejects. */
  readonly done: Promise<Message>;
}

/** A reply longer than this is cut, so a model that never stops cannot run forever. */
export const DEFAULT_MAX_TOKENS = 1024;
export const DEFAULT_TEMPERATURE = 0.7;

const TITLE_LENGTH = 60;

/** The tools the task's latest narrowed choice offered (its `tools-offered` audit event), if any. */
export function lastOffer(events: readonly AuditEvent[]): string[] | undefined {
  const detail = events.findLast((e) => e.kind === 'tools-offered')?.detail as { offered?: unknown } | undefined;
  return Array.isArray(detail?.offered) ? detail.offered.filter((n): n is string => typeof n === 'string') : undefined;
}

/** What a reply says when earlier turns of its task were left out to fit the model's context. */
export function contextNoteFor(droppedTurns: number): string {
  return `Earlier messages were left out to fit the model's context (${droppedTurns} left out).`;
}

export function titleFrom(text: string): string {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? '';
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1).trimEnd()}…` : line;
}

/** One tool call as the model sees it in later turns: what was asked, and what became of it. */
export function toolCallTurn(call: ToolCall): ChatTurn {
  return { role: 'assistant', text: `[${call.tool}: ${call.description.summary}] ${outcomeForModel(call)}` };
}

function outcomeForModel(call: ToolCall): string {
  switch (call.state) {
    case 'done':
      return `done: ${clip(typeof call.result === 'string' ? call.result : JSON.stringify(call.result))}`;
    case 'failed':
      return `failed: ${call.error ?? ''}`;
    case 'denied':
      return `denied by the user${call.reason ? `: ${call.reason}` : ''}`;
    case 'pending':
      return call.gate === 'queue' ? 'waiting in the approval queue' : "waiting for the user's answer";
    case 'expired':
      return 'not run: the user did not answer';
    default:
      return call.state;
  }
}

function clip(text: string, max = 400): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The turns a new reply sees: every user turn, every assistant turn that produced text, and the task's tool
 * calls with their outcomes (so the model knows what it did, and what the user decided in the queue since).
 */
export function historyOf(messages: readonly Message[], calls: readonly ToolCall[] = []): ChatTurn[] {
  const items: Array<{ at: number; order: number; turn: ChatTurn }> = [];
  messages.forEach((m, i) => {
    if (m.role === 'user' || m.text.length > 0)
      items.push({ at: m.createdAt, order: i, turn: { role: m.role, text: m.text } });
  });
  calls.forEach((c, i) => items.push({ at: c.createdAt, order: messages.length + i, turn: toolCallTurn(c) }));
  return items.sort((a, b) => a.at - b.at || a.order - b.order).map((item) => item.turn);
}

/** The states a call ends in once the user decided it in the queue or at a prompt (and it ran, or not). */
const DECIDED: ReadonlySet<ToolCall['state']> = new Set(['done', 'failed', 'denied']);

/** Where the user decided the calls a task goes on after: the approval queue, or a prompt in the chat. */
export type DecidedIn = 'queue' | 'prompt';

/**
 * What the model is told when a task goes on after the user decided the calls it waited on (in the approval queue,
 * or at a prompt in the chat): each call with its outcome, and the request it was working on. Written by Homebody,
 * never shown as the user's message.
 */
/** The line of a continuation prompt that names the request it goes on with (a test's script finds it by this). */
export function requestLine(request: string): string {
  return `Go on with their request ("${request}")`;
}

export function continuationPrompt(request: string, decided: readonly ToolCall[], from: DecidedIn = 'queue'): string {
  const outcomes = decided.map((call) => toolCallTurn(call).text).join('\n');
  const what = from === 'queue' ? 'the calls that waited in the approval queue' : 'what you asked permission for';
  return (
    `[Homebody] The user decided ${what}:\n${outcomes}\n` +
    `${requestLine(request)}: do what is left of it, or tell them what was done.`
  );
}

/** The calls made for the task's latest request (since its last message from the user), for its step limit. */
export function callsOfRequest(messages: readonly Message[], calls: readonly ToolCall[]): ToolCall[] {
  const since = messages.findLast((m) => m.role === 'user')?.createdAt ?? -Infinity;
  return calls.filter((call) => call.createdAt >= since && call.state !== 'rejected');
}

/**
 * The tasks that go on after these decisions, each with its decided calls: a task goes on once none of its calls
 * waits in the queue any more (calls of one task decided together go on once, with all their outcomes). A call of no
 * task (the command line's own) or not decided (refused as already decided, interrupted) continues nothing.
 */
export function tasksToContinue(
  calls: readonly ToolCall[],
  stillWaiting: (taskId: string) => boolean,
): Map<string, ToolCall[]> {
  const byTask = new Map<string, ToolCall[]>();
  for (const call of calls) {
    if (call.taskId === null || !DECIDED.has(call.state)) continue;
    byTask.set(call.taskId, [...(byTask.get(call.taskId) ?? []), call]);
  }
  for (const taskId of byTask.keys()) if (stillWaiting(taskId)) byTask.delete(taskId);
  return byTask;
}

/** A reply stopped while it waited for the engine. */
class StoppedBeforeStart extends Error {}

const OUTCOME: Record<GenerateResult['stopReason'], { message: MessageState; task: TaskStatus }> = {
  complete: { message: 'complete', task: 'completed' },
  maxTokens: { message: 'truncated', task: 'completed' },
  aborted: { message: 'stopped', task: 'stopped' },
};

/**
 * One turn of a task: saves the user's message, streams the model's reply as
 * events, writes the reply to the store as it grows, and records how it ended.
 * One reply runs at a time (the engine has one sequence).
 */
export class ChatRunner {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<Message> }>();
  /** Settles when the last reply asked for has ended: each reply waits for the ones before it (one engine). */
  private lane: Promise<void> = Promise.resolve();
  /** Replies that took a turn and have not ended: none, and a new one starts at once. */
  private turns = 0;
  /** The ends of replies the database could not take (a full disk), by message id: written before the next reply. */
  private readonly unrecorded = new Map<string, () => void>();
  private readonly now: () => number;
  private readonly newId: () => string;
  private readonly persistEveryMs: number;

  constructor(private readonly deps: ChatRunnerDeps) {
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? (() => crypto.randomUUID());
    this.persistEveryMs = deps.persistEveryMs ?? 200;
  }

  /** After a crash: replies left streaming are kept and marked interrupted; their tasks are marked stopped. */
  recoverAfterCrash(): void {
    const { store } = this.deps;
    store.transaction(() => {
      store.messages.markStreamingInterrupted();
      for (const id of store.tasks.runningIds()) store.tasks.setStatus(id, 'stopped', this.now());
    });
  }

  isRunning(taskId: string): boolean {
    return this.running.has(taskId);
  }

  /** `consent.allowRemote`: the user agreed that this task may use the model on another computer in use now. */
  send(
    taskId: string | null,
    text: string,
    options: ReplyOptions,
    consent: { allowRemote?: boolean } = {},
  ): SentMessage {
    const { engine, store, emit } = this.deps;
    const state = engine.state;
    if (state.status === 'loading')
      throw new HomebodyError('NO_MODEL', 'The model is still loading; try again in a moment.');
    if (state.status !== 'ready') throw new HomebodyError('NO_MODEL', 'No model is loaded. Open a GGUF model first.');
    // A node the task was not allowed to use is refused before anything is saved: the user's text stays in the box.
    const remote = remoteOf(state);
    const agreed =
      remote && (consent.allowRemote === true || (taskId !== null && remoteAllowed(store, taskId, remote)));
    if (remote && !agreed) throw consentRequired(remote);
    // A message the model cannot take is refused here, before a task or a message is saved.
    engine.checkMessage?.(text);
    // Another task's reply does not refuse this one: it waits for the engine. The same task's does.
    if (taskId !== null && this.running.has(taskId)) throw this.busy();

    this.writeUnrecorded();
    // A prompt the user wrote past instead of answering lapses: the model goes on from the new message.
    if (taskId !== null && store.tasks.get(taskId)) this.deps.tools?.lapsePrompts(taskId, 'new-message');
    const now = this.now();
    const { id, history, context, user, reply } = this.transaction(() => {
      let id = taskId;
      if (id === null) {
        id = this.newId();
        store.tasks.create({ id, title: titleFrom(text), now });
      } else if (!store.tasks.get(id)) {
        throw new HomebodyError('TASK_NOT_FOUND', `There is no task ${id}; it may have been deleted.`);
      }
      const messages = store.messages.listForTask(id);
      const calls = store.toolCalls.listForTask(id);
      const history = historyOf(messages, calls);
      // What tool selection reads besides the new message: the user's earlier messages, the tools used so far.
      const context: Omit<SelectionRequest, 'prompt'> = {
        earlierPrompts: messages.filter((m) => m.role === 'user').map((m) => m.text),
        usedTools: calls.map((c) => c.tool),
        previouslyOffered: lastOffer(store.audit.forTask(id)),
      };
      if (remote) allowRemote(store, id, remote, now);
      const user = store.messages.insert({ id: this.newId(), taskId: id, role: 'user', text, state: 'complete', now });
      const reply = store.messages.insert({
        id: this.newId(),
        taskId: id,
        role: 'assistant',
        text: '',
        state: 'streaming',
        now,
      });
      store.tasks.setStatus(id, 'running', now);
      return { id, history, context, user, reply };
    });
    this.emitTask(id);
    emit({ type: 'message.created', message: user });
    emit({ type: 'message.created', message: reply });

    const controller = new AbortController();
    const turn = this.takeTurn(controller.signal);
    const write = () => this.stream(id, reply, history, { prompt: text, ...context }, [], options, controller.signal);
    const done: Promise<Message> = (turn.ready ? turn.ready.then(write) : write()).finally(() => {
      turn.release();
      // The task may have gone on meanwhile (a prompt answered before this reply ended): that reply stays listed.
      if (this.running.get(id)?.done === done) this.running.delete(id);
    });
    this.running.set(id, { controller, done });
    return { taskId: id, userMessageId: user.id, assistantMessageId: reply.id, done };
  }

  /**
   * Goes on with a task after the user decided the calls it left in the approval queue (`decided`, all of one task):
   * a new reply in the task, without a message from the user, told each outcome (continuationPrompt) and offered
   * the tools the request chose. Its message is there at once; it is written once the replies being written now have
   * ended (one reply runs at a time) and `ready` has a model for it. Undefined when there is nothing to go on with:
   * the task was deleted, or it has no message from the user.
   */
  continueTask(
    taskId: string,
    decided: readonly ToolCall[],
    options: ReplyOptions,
    ready: () => Promise<void> = async () => {},
    from: DecidedIn = 'queue',
  ): Continued | undefined {
    const { store, emit } = this.deps;
    if (!store.tasks.get(taskId)) return undefined;
    this.writeUnrecorded();
    const decidedIds = new Set(decided.map((call) => call.id));
    const now = this.now();
    const started = this.transaction(() => {
      const messages = store.messages.listForTask(taskId);
      const lastRequest = messages.findLast((m) => m.role === 'user');
      if (!lastRequest) return undefined;
      const calls = store.toolCalls.listForTask(taskId);
      // The decided calls are told in the prompt, with their outcomes now; the history holds the rest.
      const history = historyOf(
        messages,
        calls.filter((c) => !decidedIds.has(c.id)),
      );
      const context: Omit<SelectionRequest, 'prompt'> = {
        earlierPrompts: messages.filter((m) => m.role === 'user' && m !== lastRequest).map((m) => m.text),
        usedTools: calls.map((c) => c.tool),
        previouslyOffered: lastOffer(store.audit.forTask(taskId)),
      };
      const reply = store.messages.insert({
        id: this.newId(),
        taskId,
        role: 'assistant',
        text: '',
        state: 'streaming',
        now,
      });
      store.tasks.setStatus(taskId, 'running', now);
      return { history, context, reply, request: lastRequest.text, earlier: callsOfRequest(messages, calls) };
    });
    if (!started) return undefined;
    const { history, context, reply, request, earlier } = started;
    this.emitTask(taskId);
    emit({ type: 'message.created', message: reply });

    const controller = new AbortController();
    const turn = this.takeTurn(controller.signal);
    // Stopping the continuation stops the task's own reply too, if that one is still being written.
    const own = this.running.get(taskId);
    if (own) controller.signal.addEventListener('abort', () => own.controller.abort(), { once: true });
    const done = (async () => {
      if (turn.ready) await turn.ready;
      let failure: string | null = null;
      try {
        await ready();
        if (this.deps.engine.state.status !== 'ready') failure = 'No model is loaded to go on with the task.';
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      }
      if (failure !== null) {
        const final = this.transaction(() => {
          store.tasks.setStatus(taskId, 'failed', this.now());
          return store.messages.finish(reply.id, 'failed', null, `${failure} Open a model, then ask again.`);
        });
        emit({ type: 'message.finished', message: final });
        this.emitTask(taskId);
        return final;
      }
      const prompt = continuationPrompt(request, decided, from);
      const asked = { prompt: request, ...context };
      const steps = earlier.map((call) => ({ name: call.tool, args: call.args }));
      return this.stream(taskId, reply, history, asked, steps, options, controller.signal, prompt);
    })().finally(() => {
      turn.release();
      if (this.running.get(taskId)?.done === done) this.running.delete(taskId);
    });
    this.running.set(taskId, { controller, done });
    return { taskId, assistantMessageId: reply.id, done };
  }

  /** Why a message cannot be sent to this task now: its own reply is still being written. */
  private busy(): HomebodyError {
    return new HomebodyError(
      'TASK_BUSY',
      'This task is still being written. Wait for its reply to finish, or stop it, before writing again.',
    );
  }

  /**
   * A place in the line for the engine: `ready` is null when no reply is being written (this one starts at once),
   * else it settles once every reply asked for before has ended, or at once when this one is stopped while it waits
   * (it then ends without the engine); `release` lets the next one go.
   */
  private takeTurn(signal: AbortSignal): { ready: Promise<void> | null; release: () => void } {
    const idle = this.turns === 0;
    this.turns++;
    const before = this.lane;
    let free!: () => void;
    const mine = new Promise<void>((resolve) => (free = resolve));
    this.lane = before.then(() => mine);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.turns--;
      free();
    };
    if (idle) return { ready: null, release };
    const ready = new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const onAbort = () => resolve();
      signal.addEventListener('abort', onAbort, { once: true });
      void before.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
    return { ready, release };
  }

  /** Resolves once no reply is being written, the ones that go on after a decision included. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((run) => run.done));
  }

  /** The final message of the task's running reply, or undefined when none runs. */
  whenDone(taskId: string): Promise<Message | undefined> {
    return this.running.get(taskId)?.done ?? Promise.resolve(undefined);
  }

  /** Tells the engine the tools a new task would start with now, so it can evaluate them ahead of the task. */
  prepare(maxTokens?: number): void {
    const tools = this.deps.tools;
    if (tools) this.deps.engine.prepare?.({ tools: tools.offered(), ...(maxTokens ? { maxTokens } : {}) });
  }

  /**
   * Stops the task's reply; resolves once it has been recorded. A task whose reply ended at a prompt is stopped by
   * letting that prompt lapse, so it never runs and the task does not go on.
   */
  async stop(taskId: string): Promise<boolean> {
    const run = this.running.get(taskId);
    if (run) {
      run.controller.abort();
      await run.done;
    }
    const asking = this.deps.store.toolCalls
      .listForTask(taskId)
      .some((call) => call.gate === 'prompt' && call.state === 'pending');
    if (asking) this.deps.tools?.lapsePrompts(taskId, 'stopped');
    return run !== undefined || (asking && this.deps.tools !== undefined);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.running.keys()].map((id) => this.stop(id)));
  }

  private async stream(
    taskId: string,
    reply: Message,
    history: ChatTurn[],
    request: SelectionRequest,
    /** The calls made for this request before this reply (it goes on after a decision): they count to its limit. */
    earlierCalls: ReadonlyArray<{ readonly name: string; readonly args: unknown }>,
    options: ReplyOptions,
    signal: AbortSignal,
    /** What the model is told; the user's message unless the task goes on after a decision. */
    prompt: string = request.prompt,
  ): Promise<Message> {
    const { engine, store, emit } = this.deps;
    const messageId = reply.id;
    const tools = this.deps.tools;
    const guard = new LoopGuard(earlierCalls);
    /** A call waits for the user's answer at a prompt: the reply ends there and the task goes on after the answer. */
    let endedAtPrompt = false;
    // Stops the generation for a runaway tool loop or a failed write, as well as for the user.
    const generation = new AbortController();
    const stop = () => generation.abort();
    if (signal.aborted) stop();
    signal.addEventListener('abort', stop, { once: true });

    // The whole reply stays in memory, so the user still gets it if the database cannot take it.
    let text = '';
    let reasoning = '';
    /** How much of `text` and `reasoning` the database holds. */
    let saved = { text: 0, reasoning: 0 };
    let lastWrite = this.now();
    /** A batch the database refused (a full disk): the reply stops and ends failed with this. */
    let writeFailure: Error | undefined;
    const persist = () => {
      if (saved.text === text.length && saved.reasoning === reasoning.length) return;
      store.messages.append(messageId, text.slice(saved.text), reasoning.slice(saved.reasoning));
      saved = { text: text.length, reasoning: reasoning.length };
      lastWrite = this.now();
    };
    const delta = (textDelta: string, reasoningDelta: string) => {
      text += textDelta;
      reasoning += reasoningDelta;
      emit({ type: 'message.delta', taskId, messageId, text: textDelta, reasoning: reasoningDelta });
      if (writeFailure || this.now() - lastWrite < this.persistEveryMs) return;
      try {
        persist();
      } catch (error) {
        // Thrown into the engine it would only be logged (node-llama-cpp catches its callbacks' errors) and the
        // reply would run on with nothing kept: it is stopped here instead.
        writeFailure = storageFailure(error) ?? (error instanceof Error ? error : new Error(String(error)));
        stop();
      }
    };

    let outcome: { message: MessageState; task: TaskStatus; stats: ChatStats | null; error: string | null };
    let contextNote: string | null = null;
    try {
      // Stopped while it waited for the engine: it ends without having started.
      if (signal.aborted) throw new StoppedBeforeStart();
      // Checked again here: the model may have changed to a node since the message was sent (or the task goes on).
      const remote = remoteOf(engine.state);
      if (remote) {
        if (!remoteAllowed(store, taskId, remote)) throw consentRequired(remote);
        store.messages.setRemote(messageId, remote);
      }
      const offered = tools ? this.offeredTools(taskId, tools, request) : undefined;
      // What the request to a node carries, for the ledger: the results of the task's earlier calls are in it.
      const priorToolResults = remote
        ? store.toolCalls.listForTask(taskId).filter((c) => c.state === 'done' || c.state === 'failed').length
        : 0;
      const result = await engine.generate({
        history,
        prompt,
        ...(priorToolResults ? { priorToolResults } : {}),
        maxTokens: options.maxTokens,
        temperature: options.temperature,
        signal: generation.signal,
        onText: (chunk) => delta(chunk, ''),
        onReasoning: (chunk) => delta('', chunk),
        ...(tools
          ? {
              tools: offered?.all ?? [],
              ...(offered?.narrowed ? { callableTools: offered.callable } : {}),
              onToolCall: async (name: string, args: unknown) => {
                const refusal = guard.check(name, args);
                if (guard.runaway) stop();
                if (refusal !== undefined) return refusal;
                const outcome = await tools.call(taskId, name, args, generation.signal);
                if (outcome.waitsForAnswer) {
                  endedAtPrompt = true;
                  stop();
                }
                return outcome.told;
              },
            }
          : {}),
      });
      if (result.droppedTurns) contextNote = contextNoteFor(result.droppedTurns);
      outcome = writeFailure
        ? { message: 'failed', task: 'failed', stats: result.stats, error: writeFailure.message }
        : endedAtPrompt && !signal.aborted
          ? // Ended to wait for the user's answer, not stopped: the task shows as waiting for them.
            { message: 'complete', task: 'completed', stats: result.stats, error: guard.stoppedBecause }
          : { ...OUTCOME[result.stopReason], stats: result.stats, error: guard.stoppedBecause };
    } catch (error) {
      if (error instanceof StoppedBeforeStart) {
        outcome = { message: 'stopped', task: 'stopped', stats: null, error: null };
      } else {
        // A tool call's record can hit a full disk too: the user gets the sentence that says so.
        const failure = writeFailure ?? storageFailure(error);
        const message = failure?.message ?? (error instanceof Error ? error.message : String(error));
        outcome = { message: 'failed', task: 'failed', stats: null, error: message };
      }
    }
    signal.removeEventListener('abort', stop);

    let final: Message;
    const before = saved;
    try {
      final = store.transaction(() => {
        persist();
        if (contextNote) store.messages.setContextNote(messageId, contextNote);
        store.tasks.setStatus(taskId, outcome.task, this.now());
        return store.messages.finish(messageId, outcome.message, outcome.stats, outcome.error);
      });
    } catch (error) {
      // The end could not be written either (the disk is still full): the transaction kept nothing, so the
      // reply is told from memory and its end is written before the next reply. Until then the database holds
      // what was saved, which a restart marks interrupted.
      saved = before;
      const failure = storageFailure(error) ?? (error instanceof Error ? error : new Error(String(error)));
      final = {
        ...reply,
        text,
        reasoning,
        state: 'failed',
        stats: outcome.stats,
        error: failure.message,
        ...(contextNote ? { contextNote } : {}),
      };
      const rest = { text: text.slice(saved.text), reasoning: reasoning.slice(saved.reasoning) };
      this.unrecorded.set(messageId, () => {
        if (!store.messages.get(messageId)) return; // deleted meanwhile
        store.messages.append(messageId, rest.text, rest.reasoning);
        if (contextNote) store.messages.setContextNote(messageId, contextNote);
        store.tasks.setStatus(taskId, 'failed', this.now());
        store.messages.finish(messageId, 'failed', final.stats, final.error);
      });
      try {
        // A task row updated in place usually still fits; the task then stops showing as running.
        store.tasks.setStatus(taskId, 'failed', this.now());
      } catch {
        // Written with the reply's end.
      }
    }
    emit({ type: 'message.finished', message: final });
    this.emitTask(taskId, final.state === 'failed' ? 'failed' : undefined);
    return final;
  }

  /**
   * The tools of this reply: every enabled tool, and the ones it may call — all of them when there are few, else the
   * ones ranked relevant to the request plus those the task has used. A model spoken to in its own dialect reads
   * every tool (one stable prompt prefix, evaluated once) and its call grammar names only the callable ones; another
   * model is offered the callable ones only. A narrowed choice is written to the audit log, so it can be seen.
   */
  private offeredTools(taskId: string, tools: AgentTools, request: SelectionRequest) {
    const all = tools.offered();
    const selection = selectTools(all, request);
    const callable = selection.tools.map((t) => t.name);
    if (selection.narrowed) {
      const names = selection.tools.map((t) => t.name);
      try {
        this.deps.store.audit.append({
          at: this.now(),
          taskId,
          callId: null,
          kind: 'tools-offered',
          actor: 'system',
          summary: `Offered ${names.length} of ${all.length} tools: ${names.join(', ')}`,
          detail: { offered: names, available: all.length },
        });
      } catch {
        // A record that could not be written (a full disk) does not stop the reply; the reply's own write reports it.
      }
    }
    return { all, callable, narrowed: selection.narrowed };
  }

  /** Writes the ends of replies a full disk refused; any still refused wait for the next try. */
  private writeUnrecorded(): void {
    for (const [id, write] of this.unrecorded) {
      try {
        this.deps.store.transaction(write);
        this.unrecorded.delete(id);
      } catch {
        // Still no room; the send that follows reports it.
      }
    }
  }

  /** One transaction; a database failure (a full disk) becomes the error the user is shown. */
  private transaction<T>(fn: () => T): T {
    try {
      return this.deps.store.transaction(fn);
    } catch (error) {
      throw storageFailure(error) ?? error;
    }
  }

  /** `status`: what the task is, when the database could not be told. */
  private emitTask(taskId: string, status?: TaskStatus): void {
    const task = this.deps.store.tasks.get(taskId);
    if (task) this.deps.emit({ type: 'task.updated', task: status ? { ...task, status } : task });
  }
}
