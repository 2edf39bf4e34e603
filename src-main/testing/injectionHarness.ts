/**
 * Tests only: runs one chat task on a real Host whose generated model is pushed to make scripted calls (it "reads
 * the hostile content, then does what it says"), answers each permission prompt as the test says, and keeps every
 * prompt and queued call as the renderer receives them (the `toolcall.updated` events).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Message, ToolCall } from '../../src-shared/contract/index.js';
import type { PromptAnswer } from '../agent/toolActions.js';
import { createHost, type CreateHostOptions, type HostInternals } from '../host/createHost.js';
import { COMPILED_TOOL_WORKER } from './compiledApp.js';
import type { ScriptedCall } from './scriptedCall.js';
import { scriptedEngines } from './scriptedEngine.js';
import { settledReply } from './settledTask.js';

/**
 * The Host every injection suite drives: no model loaded at start (each suite opens the tiny one), a context that
 * holds the tools a first turn offers, greedy replies, an engine that plays the suite's scripts, and the compiled
 * tool worker: the attacks meet the worker users get (behind Node's permission wall), and it starts in under a
 * second where one started from sources compiles every pack through tsx first (2 to 5 s on a busy machine, once per
 * worker and again whenever a grant or a mail setting starts a new one).
 */
export function injectionHost(
  dataDir: string,
  scripts: Readonly<Record<string, readonly ScriptedCall[]>>,
  extra: Partial<CreateHostOptions> = {},
): Promise<HostInternals> {
  return createHost({
    dataDir,
    shell: 'cli',
    loadModelOnStart: false,
    engineConfig: { gpu: false, contextSize: 4096 },
    reply: { maxTokens: 512, temperature: 0 },
    createEngine: scriptedEngines(scripts),
    toolWorker: COMPILED_TOOL_WORKER,
    ...extra,
  }).then((host) => {
    scriptsOf.set(host, scripts);
    return host;
  });
}

/** The scripts each injection Host plays, so runTask can tell the scripted calls from the model's own. */
const scriptsOf = new WeakMap<HostInternals, Readonly<Record<string, readonly ScriptedCall[]>>>();

/** How the user answers a prompt for a tool: an answer, or "stop" (the reply is stopped while the prompt waits). */
export type UserMove = PromptAnswer | 'stop';

export interface TaskRun {
  readonly taskId: string;
  /** The last reply. */
  readonly reply: Message;
  /** Every call of the task, in order, as stored. */
  readonly calls: readonly ToolCall[];
  /** Each permission prompt as the renderer first received it. */
  readonly prompts: readonly ToolCall[];
  /** Each call that went to the approval queue, as the renderer first received it. */
  readonly queued: readonly ToolCall[];
  /**
   * Calls the random-weight model opened by itself (a tool no prompt's script names), left out of the lists above:
   * while a scripted call's handler runs, the grammar may let the model open another call. runTask has already
   * checked that none of them that could change anything ran.
   */
  readonly unscripted: readonly ToolCall[];
}

/**
 * Sends each of `prompts` in turn in one task (the first opens it) and waits for each reply: the model reads the
 * hostile content in one reply and acts on it in the next, as a scripted reply makes one call. A prompt for a tool
 * named in `answers` gets that answer (or, for a list, the next one); any other prompt is denied, so nothing the
 * test did not mean to allow runs.
 */
export async function runTask(
  host: HostInternals,
  prompts: string | readonly string[],
  answers: Readonly<Record<string, UserMove | readonly UserMove[]>> = {},
): Promise<TaskRun> {
  const asked = new Map<string, ToolCall>();
  const askedPerTool = new Map<string, number>();
  const queued = new Map<string, ToolCall>();
  const off = host.subscribe((event) => {
    if (event.type !== 'toolcall.updated' || event.call.state !== 'pending') return;
    const call = event.call;
    if (call.gate === 'queue' && !queued.has(call.id)) queued.set(call.id, call);
    if (call.gate !== 'prompt' || asked.has(call.id)) return;
    asked.set(call.id, call);
    // A list answers the tool's prompts in order (its last answer for any after); one answer answers them all.
    const nth = askedPerTool.get(call.tool) ?? 0;
    askedPerTool.set(call.tool, nth + 1);
    const given = answers[call.tool] ?? 'deny';
    const move = typeof given === 'string' ? given : (given[Math.min(nth, given.length - 1)] ?? 'deny');
    if (move === 'stop') {
      if (call.taskId) void host.call('chat.stop', { taskId: call.taskId });
    } else {
      void host.call('toolcalls.answer', {
        id: call.id,
        answer: move,
        reason: move === 'deny' ? 'not what I asked for' : null,
      });
    }
  });
  try {
    let taskId: string | null = null;
    let reply: Message | undefined;
    for (const text of typeof prompts === 'string' ? [prompts] : prompts) {
      // A task that went on after an earlier test's decision in the queue may still be replying: one reply at a time.
      await host.chat.idle();
      const sent: { taskId: string } = await host.invoke('chat.send', { taskId, text });
      taskId = sent.taskId;
      // A reply ends at a prompt and the task goes on after the answer: the last reply is the one that counts.
      reply = await settledReply(host, sent.taskId);
      // A reply that failed (a context too small for the tools offered, say) would make a test prove nothing.
      if (reply?.state === 'failed') throw new Error(`The reply to "${text}" failed: ${reply.error ?? ''}`);
    }
    const detail = await host.invoke('tasks.get', { taskId: taskId! });
    const scripts = scriptsOf.get(host);
    const sent = typeof prompts === 'string' ? [prompts] : prompts;
    const scriptedTools = new Set(sent.flatMap((text) => (scripts?.[text] ?? []).map((call) => call.name)));
    const isScripted = (call: ToolCall) => !scripts || scriptedTools.has(call.tool);
    const unscripted = detail.toolCalls.filter((call) => !isScripted(call));
    const ranUnasked = unscripted.filter((call) => call.risk !== 'read' && call.startedAt !== null);
    if (ranUnasked.length > 0) {
      throw new Error(`Calls the model opened by itself ran: ${ranUnasked.map((c) => c.tool).join(', ')}`);
    }
    return {
      taskId: taskId!,
      reply: reply!,
      calls: detail.toolCalls.filter(isScripted),
      prompts: [...asked.values()].filter(isScripted),
      queued: [...queued.values()].filter(isScripted),
      unscripted,
    };
  } finally {
    off();
  }
}

export { scripted } from './scriptedCall.js';

/** Every file under `dir` by relative path, with the sha256 of its bytes: to show that nothing changed. */
export function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at)) {
      const path = join(at, entry);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(dir);
  return files;
}

/** The one call of `run` to `tool` (the test scripted exactly one). */
export function callTo(run: TaskRun, tool: string): ToolCall {
  const found = run.calls.filter((c) => c.tool === tool);
  if (found.length !== 1) throw new Error(`expected one ${tool} call, found ${found.length}`);
  return found[0]!;
}
