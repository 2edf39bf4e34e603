import { mkdirSync, realpathSync } from 'node:fs';
import {
  HomebodyError,
  type Decision,
  type HostEvent,
  type Policy,
  type ToolCall,
  type ToolDescriptionView,
} from '../../src-shared/contract/index.js';
import { gateFor } from '../permissions/gate.js';
import { checkMode, modeFor } from '../permissions/policy.js';
import type { Store } from '../store/store.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolRunner } from '../tools/sandbox/toolExecutor.js';
import { validateArguments } from '../tools/schema/index.js';
import type { GrantedRoot, JsonValue, PackConfig, ToolDefinition, UndoRecord } from '../tools/toolTypes.js';

export type Actor = 'model' | 'cli';

/** What became of a proposed call, as the model (or the CLI) is told. */
export type ProposalResult =
  | { readonly status: 'done'; readonly call: ToolCall; readonly result: unknown }
  | { readonly status: 'failed'; readonly call: ToolCall; readonly error: string }
  | { readonly status: 'needs-permission'; readonly call: ToolCall }
  | { readonly status: 'queued'; readonly call: ToolCall }
  | { readonly status: 'denied'; readonly call: ToolCall | null; readonly error: string }
  | { readonly status: 'rejected'; readonly call: null; readonly error: string };

export interface ToolActionsDeps {
  readonly store: Store;
  readonly registry: ToolRegistry;
  readonly executor: ToolRunner;
  readonly policy: () => Policy;
  /** The packs' folders and settings as they are now (read at each call, so a change applies at once). */
  readonly packs: () => PackConfig;
  readonly savePolicy: (policy: Policy) => void;
  readonly emit: (event: HostEvent) => void;
  /**
   * The user's evaluation gate for a tool: true while the active model scores at or above the threshold the user
   * set on that tool's evaluation cases. It turns the policy's "ask" into "run without asking", nothing more.
   */
  readonly evalGateOpen?: (tool: string) => boolean;
  readonly now?: () => number;
  readonly newId?: () => string;
}

export type PromptAnswer = 'allow-once' | 'allow-task' | 'always' | 'deny';

/** One untrusted source as a prompt names it: "mail from eve@example.com (via mail_read)". */
export function taintNote(source: string, tool: string | null): string {
  return tool ? `${source} (via ${tool})` : source;
}

function describeSafely(tool: ToolDefinition, args: Record<string, JsonValue>): ToolDescriptionView {
  try {
    const { title, summary, details } = tool.describe(args);
    return { title, summary, details: details.map((d) => ({ label: d.label, value: d.value })) };
  } catch {
    return {
      title: tool.name,
      summary: `Run ${tool.name}`,
      details: [{ label: 'arguments', value: JSON.stringify(args) }],
    };
  }
}

/**
 * Every tool call goes through here, whoever proposed it: checked (the tool
 * exists, is not switched off, its arguments match its schema), recorded,
 * gated by risk, policy, task grants and taint, then run in the sandbox at
 * most once. Each step is an audit event.
 */
export class ToolActions {
  private readonly now: () => number;
  private readonly newId: () => string;
  /** Replies waiting for the user's answer to a prompt, by call id. */
  private readonly waiting = new Map<string, (result: ProposalResult) => void>();
  /** The stop signal of the reply each call belongs to, by call id: stopping the reply cancels its running call. */
  private readonly stops = new Map<string, AbortSignal>();

  constructor(private readonly deps: ToolActionsDeps) {
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? (() => crypto.randomUUID());
  }

  /** After a crash: calls that were running are interrupted and wait for review; open prompts lapse. */
  recoverAfterCrash(): void {
    const { interrupted } = this.deps.store.toolCalls.recoverAfterCrash(this.now());
    for (const id of interrupted) {
      const call = this.deps.store.toolCalls.get(id);
      this.audit(
        call?.taskId ?? null,
        id,
        'interrupted',
        'system',
        `${call?.tool ?? 'A tool'} was running when Homebody stopped; it was not run again`,
      );
    }
  }

  /** The tools the model may be offered: all but those the policy switches off. */
  offeredTools(): ToolDefinition[] {
    const policy = this.deps.policy();
    return this.deps.registry.all().filter((t) => modeFor(policy, t.name, t.risk) !== 'off');
  }

  async propose(input: {
    taskId: string | null;
    tool: string;
    args: unknown;
    actor: Actor;
    /** Someone can answer a prompt now (the chat); otherwise a call that needs one is not run. */
    interactive: boolean;
    /** The proposing reply's stop: aborting it cancels the call if it is running (a queued call is not tied to it). */
    signal?: AbortSignal;
  }): Promise<ProposalResult> {
    const { store, registry } = this.deps;
    const { taskId, actor } = input;
    const tool = registry.get(input.tool);
    if (!tool) {
      // A tool held for review (its definition changed) or whose server stopped is refused with the reason.
      const error =
        registry.unavailableReason(input.tool) ??
        `There is no tool named "${input.tool}". Available tools: ${registry.names().join(', ')}.`;
      this.audit(taskId, null, 'rejected', actor, error, { tool: input.tool, args: input.args });
      return { status: 'rejected', call: null, error };
    }
    const policy = this.deps.policy();
    const policyMode = modeFor(policy, tool.name, tool.risk, tool.alwaysAsk);
    // Never for an irreversible tool or one that always asks: those ask whatever the model's scores.
    const evalGated =
      policyMode === 'ask' &&
      tool.risk !== 'irreversible' &&
      !tool.alwaysAsk &&
      this.deps.evalGateOpen?.(tool.name) === true;
    const mode = evalGated ? 'auto' : policyMode;
    const validation = validateArguments(tool.parameters, input.args);
    if (!validation.ok) {
      const error = `Invalid arguments for ${tool.name}: ${validation.problems.join('; ')}.`;
      this.audit(taskId, null, 'rejected', actor, error, { tool: tool.name, args: input.args });
      return { status: 'rejected', call: null, error };
    }
    const args = validation.value;
    // The prompt names what was read and which call read it, so the user can tell where an instruction came from.
    const taint = taskId ? store.taskSafety.taintRecords(taskId).map((t) => taintNote(t.source, t.tool)) : [];
    // A tool that always asks is asked again even after "allow for this task".
    const grantedForTask = taskId && !tool.alwaysAsk ? store.taskSafety.isGranted(taskId, tool.name) : false;
    const decision = gateFor({ risk: tool.risk, mode, grantedForTask, taint, reachesOut: tool.reachesOut === true });
    if ('off' in decision) {
      const error = `${tool.name} is switched off in Homebody's settings.`;
      this.audit(taskId, null, 'denied', 'policy', error, { tool: tool.name, args });
      return { status: 'denied', call: null, error };
    }
    const call = store.toolCalls.insert({
      id: this.newId(),
      taskId,
      tool: tool.name,
      args,
      description: describeSafely(tool, args),
      risk: tool.risk,
      gate: decision.gate,
      state: decision.gate === 'none' ? 'approved' : 'pending',
      taint,
      now: this.now(),
    });
    this.audit(
      taskId,
      call.id,
      'proposed',
      actor,
      `${actor === 'model' ? 'The model' : 'The command line'} proposed ${call.description.title}`,
      {
        tool: tool.name,
        args,
        gate: decision.gate,
      },
    );

    if (input.signal && decision.gate !== 'queue') this.stops.set(call.id, input.signal);
    switch (decision.gate) {
      case 'none': {
        // Recorded as decided by policy (or by the task's grant) before it runs.
        store.toolCalls.decide(call.id, 'approved', 'approved', { decision: 'auto', by: 'policy', now: this.now() });
        this.audit(
          taskId,
          call.id,
          'decided',
          'policy',
          `Allowed by ${grantedForTask ? 'the task grant' : evalGated ? "the model's evaluation scores (gate)" : 'the policy'}`,
        );
        return this.execute(call.id);
      }
      case 'prompt':
        if (!input.interactive) {
          store.toolCalls.decide(call.id, 'pending', 'expired', {
            decision: 'deny',
            by: 'policy',
            reason: 'needs permission, and no one can be asked',
            now: this.now(),
          });
          this.audit(taskId, call.id, 'expired', 'policy', 'Not run: it needs permission and this session cannot ask');
          return { status: 'needs-permission', call: this.get(call.id) };
        }
        this.changed(call.id);
        return { status: 'needs-permission', call: this.get(call.id) };
      case 'queue':
        this.audit(taskId, call.id, 'queued', 'policy', `${call.description.title} waits in the approval queue`);
        this.changed(call.id);
        return { status: 'queued', call: this.get(call.id) };
      default:
        decision.gate satisfies never;
        throw new Error('unreachable');
    }
  }

  /**
   * Waits for the user's answer to a prompt and for the call to run if allowed. If the reply is stopped first,
   * the prompt lapses (expired) and nothing runs.
   */
  awaitAnswer(id: string, signal: AbortSignal): Promise<ProposalResult> {
    // The answer may already be in (a quick click, a script): then report what became of the call.
    const settled = this.settledResult(this.get(id));
    if (settled) return Promise.resolve(settled);
    this.stops.set(id, signal);
    return new Promise((resolve) => {
      const onAbort = () => {
        this.waiting.delete(id);
        this.stops.delete(id);
        this.deps.store.toolCalls.decide(id, 'pending', 'expired', {
          decision: 'deny',
          by: 'policy',
          reason: 'the task was stopped',
          now: this.now(),
        });
        this.audit(this.get(id).taskId, id, 'expired', 'system', 'Not run: the task was stopped before an answer');
        resolve({ status: 'denied', call: this.changed(id), error: 'The task was stopped before the user answered.' });
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(id, (result) => {
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      });
    });
  }

  /** The user's answer to a permission prompt in the chat; a reply waiting for it goes on with the outcome. */
  async answerPrompt(id: string, answer: PromptAnswer, reason: string | null = null): Promise<ProposalResult> {
    const result = await this.decidePrompt(id, answer, reason);
    const waiter = this.waiting.get(id);
    this.waiting.delete(id);
    waiter?.(result);
    return result;
  }

  private async decidePrompt(id: string, answer: PromptAnswer, reason: string | null): Promise<ProposalResult> {
    const call = this.get(id);
    if (call.gate !== 'prompt')
      throw new HomebodyError('INVALID_REQUEST', 'This call waits in the approval queue; decide it there.');
    if (answer === 'deny') return this.refuse(call, 'user', reason);
    if (answer === 'always') {
      const policy = this.deps.policy();
      checkMode(call.tool, call.risk, 'auto', this.deps.registry.get(call.tool)?.alwaysAsk);
      this.deps.savePolicy({ ...policy, tools: { ...policy.tools, [call.tool]: 'auto' } });
      this.audit(call.taskId, id, 'policy-changed', 'user', `${call.tool} now runs without asking`);
    }
    // Reads are asked once per task: any allow covers the task's later reads with this tool.
    if (call.taskId && (answer === 'allow-task' || call.risk === 'read')) {
      this.deps.store.taskSafety.grant(call.taskId, call.tool, this.now());
    }
    if (
      !this.deps.store.toolCalls.decide(id, 'pending', 'approved', { decision: answer, by: 'user', now: this.now() })
    ) {
      return this.alreadyDecided(id);
    }
    this.audit(call.taskId, id, 'decided', 'user', `Allowed (${answer})`);
    return this.execute(id);
  }

  /**
   * Approves a queued call, optionally with edited arguments; it runs at most once. An interrupted call is
   * never approved again: it may have run already, so the user reviews it and proposes it anew if needed.
   */
  async approve(id: string, by: 'user' | 'cli', editedArgs?: unknown): Promise<ProposalResult> {
    const call = this.get(id);
    if (call.gate !== 'queue') throw new HomebodyError('INVALID_REQUEST', 'This call is not in the approval queue.');
    let edited: { args: unknown; description: ToolDescriptionView } | undefined;
    if (editedArgs !== undefined) {
      const tool = this.deps.registry.get(call.tool);
      if (!tool) throw new HomebodyError('INVALID_REQUEST', `The tool ${call.tool} no longer exists.`);
      const validation = validateArguments(tool.parameters, editedArgs);
      if (!validation.ok) {
        throw new HomebodyError(
          'INVALID_REQUEST',
          `Invalid arguments for ${call.tool}: ${validation.problems.join('; ')}.`,
        );
      }
      edited = { args: validation.value, description: describeSafely(tool, validation.value) };
    }
    if (call.state === 'interrupted') {
      return {
        status: 'denied',
        call,
        error: `${call.description.title} was running when Homebody stopped; it may have run already and will not run again. Check the result yourself, then ask for it anew if it is still needed.`,
      };
    }
    if (
      !this.deps.store.toolCalls.decide(id, 'pending', 'approved', { decision: 'approve', by, now: this.now() }, edited)
    ) {
      return this.alreadyDecided(id);
    }
    this.audit(
      call.taskId,
      id,
      'decided',
      by,
      edited ? 'Approved with edited arguments' : 'Approved',
      edited ? { args: edited.args } : null,
    );
    return this.execute(id);
  }

  async deny(id: string, by: 'user' | 'cli', reason: string | null = null): Promise<ProposalResult> {
    return this.refuse(this.get(id), by, reason);
  }

  /** Reverses a reversible call that ran, from its undo record. */
  async undo(id: string): Promise<ToolCall> {
    const call = this.get(id);
    const record = this.deps.store.toolCalls.undoRecord(id) as UndoRecord | undefined;
    if (call.undo !== 'available' || !record)
      throw new HomebodyError('INVALID_REQUEST', `${call.description.title} cannot be undone.`);
    try {
      await this.deps.executor.undo(record, { roots: this.roots(), packs: this.deps.packs() });
      this.deps.store.toolCalls.markUndo(id, 'undone');
      this.audit(call.taskId, id, 'undone', 'user', `Undid ${call.description.title}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.audit(call.taskId, id, 'undo-failed', 'user', `Could not undo ${call.description.title}: ${message}`);
      throw new HomebodyError('INVALID_REQUEST', `Could not undo ${call.description.title}: ${message}`);
    }
    return this.changed(id);
  }

  queue(): ToolCall[] {
    return this.deps.store.toolCalls.queue();
  }

  get(id: string): ToolCall {
    const call = this.deps.store.toolCalls.get(id);
    if (!call) throw new HomebodyError('INVALID_REQUEST', `There is no tool call ${id}.`);
    return call;
  }

  roots(): GrantedRoot[] {
    const roots: GrantedRoot[] = [];
    for (const folder of this.deps.policy().folders) {
      try {
        roots.push({ path: realpathSync(folder.path), untrusted: folder.untrusted });
      } catch {
        // A granted folder that is gone grants nothing until it is back.
      }
    }
    return roots;
  }

  private async execute(id: string): Promise<ProposalResult> {
    const { store, executor } = this.deps;
    // approved → executing is a compare-and-set: a second approval, or a race, finds nothing to start.
    if (!store.toolCalls.start(id, this.now())) return this.alreadyDecided(id);
    const call = this.get(id);
    this.audit(call.taskId, id, 'started', 'system', `Running ${call.description.title}`);
    this.changed(id);
    const started = this.now();
    try {
      mkdirSync(executor.trashDir, { recursive: true });
      const signal = this.stops.get(id);
      const outcome = await executor.run(call.tool, call.args as Record<string, JsonValue>, {
        roots: this.roots(),
        packs: this.deps.packs(),
        ...(signal ? { signal } : {}),
      });
      store.toolCalls.finish(id, { state: 'done', result: outcome.result, undo: outcome.undo, now: this.now() });
      if (outcome.untrustedSource && call.taskId)
        store.taskSafety.addTaint(call.taskId, outcome.untrustedSource, id, this.now());
      this.audit(call.taskId, id, 'finished', 'system', `${call.description.title}: done`, {
        durationMs: this.now() - started,
      });
      return { status: 'done', call: this.changed(id), result: outcome.result };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      store.toolCalls.finish(id, { state: 'failed', error: message, now: this.now() });
      // A failure can carry untrusted text too (an MCP server's error message or its last words on stderr).
      const source = (error as { untrustedSource?: unknown } | null)?.untrustedSource;
      if (typeof source === 'string' && call.taskId) store.taskSafety.addTaint(call.taskId, source, id, this.now());
      this.audit(call.taskId, id, 'finished', 'system', `${call.description.title}: failed: ${message}`, {
        durationMs: this.now() - started,
      });
      return { status: 'failed', call: this.changed(id), error: message };
    } finally {
      this.stops.delete(id);
    }
  }

  private refuse(call: ToolCall, by: 'user' | 'cli', reason: string | null): ProposalResult {
    this.stops.delete(call.id);
    const from = call.state === 'interrupted' ? 'interrupted' : 'pending';
    if (!this.deps.store.toolCalls.decide(call.id, from, 'denied', { decision: 'deny', by, reason, now: this.now() })) {
      return this.alreadyDecided(call.id);
    }
    this.audit(call.taskId, call.id, 'decided', by, reason ? `Denied: ${reason}` : 'Denied');
    const error = reason ? `The user denied this call: ${reason}` : 'The user denied this call.';
    return { status: 'denied', call: this.changed(call.id), error };
  }

  /** A call that no longer waits, as the result its proposer would have been given; undefined while it waits. */
  private settledResult(call: ToolCall): ProposalResult | undefined {
    switch (call.state) {
      case 'pending':
      case 'approved':
      case 'executing':
        return undefined;
      case 'done':
        return { status: 'done', call, result: call.result };
      case 'failed':
      case 'interrupted':
        return { status: 'failed', call, error: call.error ?? 'The call failed.' };
      case 'denied':
      case 'rejected':
      case 'expired':
        return {
          status: 'denied',
          call,
          error: call.reason ? `The user denied this call: ${call.reason}` : 'The user denied this call.',
        };
      default:
        return call.state satisfies never;
    }
  }

  private alreadyDecided(id: string): ProposalResult {
    const call = this.get(id);
    return {
      status: 'denied',
      call,
      error: `This call was already decided (it is ${call.state}); nothing was run again.`,
    };
  }

  private changed(id: string): ToolCall {
    const call = this.get(id);
    this.deps.emit({ type: 'toolcall.updated', call });
    return call;
  }

  private audit(
    taskId: string | null,
    callId: string | null,
    kind: string,
    actor: 'model' | 'user' | 'policy' | 'cli' | 'system',
    summary: string,
    detail: unknown = null,
  ): void {
    this.deps.store.audit.append({ at: this.now(), taskId, callId, kind, actor, summary, detail });
  }
}

export type { Decision };
