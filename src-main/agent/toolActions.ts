import { mkdirSync, realpathSync } from 'node:fs';
import {
  HomebodyError,
  type CallPath,
  type Decision,
  type DecisionBasis,
  type FolderState,
  type Gate,
  type HostEvent,
  type Policy,
  type TaintSource,
  type ToolCall,
  type ToolDescriptionView,
} from '../../src-shared/contract/index.js';
import { decide, type ResolvedPaths } from '../permissions/broker.js';
import { grantState } from '../permissions/grants.js';
import { checkMode, modeFor } from '../permissions/policy.js';
import { describeChanges, policyChanges } from '../permissions/policyChanges.js';
import { labelSources, provenanceOf, readPathKeys, sourcesInResult } from '../permissions/taint.js';
import type { Store } from '../store/store.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolRunner } from '../tools/sandbox/toolExecutor.js';
import { validateArguments } from '../tools/schema/index.js';
import type {
  GrantedRoot,
  JsonValue,
  PackConfig,
  ToolDefinition,
  ToolOutcome,
  UndoRecord,
} from '../tools/toolTypes.js';
import { resolveCallPaths, type PathContext } from './callPaths.js';

export type Actor = 'model' | 'cli';

/** What became of a proposed call, as the model (or the CLI) is told. */
export type ProposalResult =
  | { readonly status: 'done'; readonly call: ToolCall; readonly result: unknown }
  | { readonly status: 'failed'; readonly call: ToolCall; readonly error: string }
  | { readonly status: 'needs-permission'; readonly call: ToolCall }
  | { readonly status: 'queued'; readonly call: ToolCall }
  | { readonly status: 'denied'; readonly call: ToolCall | null; readonly error: string }
  | { readonly status: 'rejected'; readonly call: ToolCall | null; readonly error: string };

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
  /** Homebody's own data folder, which no tool touches through a path even where a grant covers it. */
  readonly dataDir?: string;
  readonly now?: () => number;
  readonly newId?: () => string;
}

export type PromptAnswer = 'allow-once' | 'allow-task' | 'always' | 'deny';

/** The longest one-line summary of a result kept; the result itself stays whole beside it. */
const MAX_SUMMARY_CHARS = 300;

/** One untrusted source as a prompt names it: "mail from eve@example.com (via mail_read)". */
export function taintNote(source: string, tool: string | null): string {
  return tool ? `${source} (via ${tool})` : source;
}

function describeSafely(
  tool: ToolDefinition,
  args: Record<string, JsonValue>,
  paths: readonly CallPath[] = [],
): ToolDescriptionView {
  let view: ToolDescriptionView;
  try {
    const { title, summary, details } = tool.describe(args);
    view = { title, summary, details: details.map((d) => ({ label: d.label, value: d.value })) };
  } catch {
    view = {
      title: tool.name,
      summary: `Run ${tool.name}`,
      details: [{ label: 'arguments', value: JSON.stringify(args) }],
    };
  }
  return { ...view, details: [...view.details, ...pathDetails(paths, args)] };
}

/**
 * What the user is shown of a call's paths beyond the tool's own words: where a move or copy lands when the
 * argument names a folder, and the granted folder each path lies in (computed as the tool will resolve it).
 */
function pathDetails(paths: readonly CallPath[], args: Record<string, JsonValue>): ToolDescriptionView['details'] {
  const details: Array<{ label: string; value: string }> = [];
  const roots = new Set(paths.map((p) => p.root));
  for (const p of paths) {
    if (p.path !== args[p.arg]) details.push({ label: 'Lands at', value: p.path });
    if (p.root === null) continue;
    const label =
      roots.size > 1
        ? `${p.arg === 'to' ? 'To' : p.arg === 'from' ? 'From' : p.arg}: granted folder`
        : 'In granted folder';
    if (roots.size > 1 || !details.some((d) => d.label === label)) {
      details.push({ label, value: p.untrusted ? `${p.root} (untrusted content)` : p.root });
    }
  }
  return details;
}

/** A call as the audit log's summaries name it: its title and the files it touches ("Delete permanently /d/x"). */
function named(call: Pick<ToolCall, 'description' | 'paths'>): string {
  const files = call.paths.map((p) => p.path).join(' → ');
  return files ? `${call.description.title} ${files}` : call.description.title;
}

/** The granted folders as they are now: those still the folders granted, and those that changed. */
export interface RootsNow {
  readonly roots: GrantedRoot[];
  readonly unusable: Array<{ path: string; message: string }>;
}

/**
 * Every tool call goes through here, whoever proposed it: checked (the tool exists, its arguments match its
 * schema), its paths resolved as the tool will resolve them, decided by the permission broker (permissions/
 * broker.ts: the only place that decides), recorded, and run in the sandbox at most once. Each step is an audit
 * event carrying the basis of the decision and the files concerned.
 */
export class ToolActions {
  private readonly now: () => number;
  private readonly newId: () => string;
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
        `${call?.description.title ?? 'A tool'} was running when Homebody stopped; it was not run again`,
        { basis: { kind: 'system', why: 'crash' }, paths: call?.paths ?? [] },
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
      this.audit(taskId, null, 'rejected', actor, error, { detail: { tool: input.tool, args: input.args } });
      return { status: 'rejected', call: null, error };
    }
    const validation = validateArguments(tool.parameters, input.args);
    if (!validation.ok) {
      const error = `Invalid arguments for ${tool.name}: ${validation.problems.join('; ')}.`;
      this.audit(taskId, null, 'rejected', actor, error, { detail: { tool: tool.name, args: input.args } });
      return { status: 'rejected', call: null, error };
    }
    const { resolved, args } = await resolveCallPaths(tool.pathArgs, validation.value, this.pathContext());
    const taintSources = taskId ? this.taintOf(taskId) : [];
    const policy = this.deps.policy();
    const verdict = decide({
      manifest: tool,
      paths: resolved,
      policy,
      // A tool that always asks is asked again even after "allow for this task".
      task: taskId
        ? { granted: !tool.alwaysAsk && store.taskSafety.isGranted(taskId, tool.name), taint: taintSources }
        : null,
      evalGateOpen: this.deps.evalGateOpen?.(tool.name) === true,
    });
    const paths = resolved.ok ? resolved.paths : [];
    // The prompt names what was read and which call read it, so the user can tell where an instruction came from.
    const taint = taintSources.map((t) => taintNote(t.source, t.via));

    if (verdict.gate === 'refused' && verdict.basis.kind === 'switched-off') {
      this.audit(taskId, null, 'denied', 'policy', verdict.reason, {
        basis: verdict.basis,
        detail: { tool: tool.name, args },
      });
      return { status: 'denied', call: null, error: verdict.reason };
    }
    const record = (gate: Gate, state: 'pending' | 'approved' | 'rejected', error?: string): ToolCall =>
      store.toolCalls.insert({
        id: this.newId(),
        taskId,
        tool: tool.name,
        args,
        description: describeSafely(tool, args, paths),
        risk: tool.risk,
        gate,
        state,
        taint,
        paths,
        basis: verdict.basis,
        ...(error === undefined ? {} : { error }),
        now: this.now(),
      });
    if (verdict.gate === 'refused') {
      // Refused before anyone is asked, and shown in the chat with the reason: no "Allow" could make it run.
      const call = record('none', 'rejected', verdict.reason);
      this.audit(taskId, call.id, 'rejected', actor, `Refused ${named(call)}: ${verdict.reason}`, {
        basis: verdict.basis,
        paths,
        detail: { tool: tool.name, args },
      });
      return { status: 'rejected', call: this.changed(call.id), error: verdict.reason };
    }

    const call = record(verdict.gate, verdict.gate === 'none' ? 'approved' : 'pending');
    this.audit(
      taskId,
      call.id,
      'proposed',
      actor,
      `${actor === 'model' ? 'The model' : 'The command line'} proposed ${named(call)}`,
      {
        paths,
        detail: {
          tool: tool.name,
          args,
          // What the model wrote, where the broker made a path absolute.
          ...(JSON.stringify(args) === JSON.stringify(validation.value) ? {} : { given: validation.value }),
          gate: verdict.gate,
          untrusted: verdict.untrusted,
        },
      },
    );

    // Only a call that runs at once is tied to the reply: a prompt outlives it (the reply ends there, and the call
    // runs when the user answers), as a queued call does.
    if (input.signal && verdict.gate === 'none') this.stops.set(call.id, input.signal);
    switch (verdict.gate) {
      case 'none':
        this.audit(taskId, call.id, 'decided', 'policy', 'Allowed without asking', {
          basis: verdict.basis,
          paths,
        });
        return this.execute(call.id);
      case 'prompt':
        if (!input.interactive) {
          const basis: DecisionBasis = { kind: 'system', why: 'no-one-to-ask' };
          // The call keeps the broker's basis (why it needed asking); the audit event records why it lapsed.
          store.toolCalls.decide(call.id, 'pending', 'expired', {
            decision: 'deny',
            by: 'policy',
            reason: 'needs permission, and no one can be asked',
            now: this.now(),
          });
          this.audit(taskId, call.id, 'expired', 'policy', 'Not run: it needs permission and this session cannot ask', {
            basis,
            paths,
          });
          return { status: 'needs-permission', call: this.get(call.id) };
        }
        this.audit(taskId, call.id, 'asked', 'policy', `Asked the user about ${named(call)}`, {
          basis: verdict.basis,
          paths,
        });
        this.changed(call.id);
        return { status: 'needs-permission', call: this.get(call.id) };
      case 'queue':
        this.audit(taskId, call.id, 'queued', 'policy', `${call.description.title} waits in the approval queue`, {
          basis: verdict.basis,
          paths,
        });
        this.changed(call.id);
        return { status: 'queued', call: this.get(call.id) };
      default:
        verdict satisfies never;
        throw new Error('unreachable');
    }
  }

  /**
   * The task's prompts still waiting for an answer lapse (expired) and never run: the user wrote again in the task
   * instead of answering (the model then works from the new message), or stopped the task.
   */
  lapsePrompts(taskId: string, why: 'new-message' | 'stopped'): void {
    const basis: DecisionBasis = { kind: 'system', why: why === 'stopped' ? 'stopped' : 'superseded' };
    const reason = why === 'stopped' ? 'the task was stopped' : 'the user wrote again instead of answering';
    const summary =
      why === 'stopped'
        ? 'Not run: the task was stopped before an answer'
        : 'Not run: you wrote again in the task instead of answering';
    for (const call of this.deps.store.toolCalls.listForTask(taskId)) {
      if (call.gate !== 'prompt' || call.state !== 'pending') continue;
      const lapsed = this.deps.store.toolCalls.decide(call.id, 'pending', 'expired', {
        decision: 'deny',
        by: 'policy',
        reason,
        now: this.now(),
        basis,
      });
      if (!lapsed) continue;
      this.audit(taskId, call.id, 'expired', 'system', summary, { basis, paths: call.paths });
      this.changed(call.id);
    }
  }

  /** The user's answer to a permission prompt in the chat: the call runs if allowed, and what became of it. */
  answerPrompt(id: string, answer: PromptAnswer, reason: string | null = null): Promise<ProposalResult> {
    return this.decidePrompt(id, answer, reason);
  }

  private async decidePrompt(id: string, answer: PromptAnswer, reason: string | null): Promise<ProposalResult> {
    const call = this.get(id);
    if (call.gate !== 'prompt')
      throw new HomebodyError('INVALID_REQUEST', 'This call waits in the approval queue; decide it there.');
    if (answer === 'deny') return this.refuse(call, 'user', reason);
    if (answer === 'always') {
      const policy = this.deps.policy();
      checkMode(call.tool, call.risk, 'auto', this.deps.registry.get(call.tool)?.alwaysAsk);
      const next = { ...policy, tools: { ...policy.tools, [call.tool]: 'auto' as const } };
      this.deps.savePolicy(next);
      const changes = policyChanges(policy, next);
      this.audit(call.taskId, id, 'policy-changed', 'user', describeChanges(changes), { detail: { changes } });
    }
    // Reads are asked once per task: any allow covers the task's later reads with this tool.
    if (call.taskId && (answer === 'allow-task' || call.risk === 'read')) {
      this.deps.store.taskSafety.grant(call.taskId, call.tool, this.now());
    }
    const basis: DecisionBasis = { kind: 'user', answer };
    if (
      !this.deps.store.toolCalls.decide(id, 'pending', 'approved', {
        decision: answer,
        by: 'user',
        now: this.now(),
        basis,
      })
    ) {
      return this.alreadyDecided(id);
    }
    this.audit(call.taskId, id, 'decided', 'user', `Allowed (${answer})`, { basis, paths: call.paths });
    return this.execute(id);
  }

  /**
   * Approves a queued call, optionally with edited arguments; it runs at most once. An interrupted call is
   * never approved again: it may have run already, so the user reviews it and proposes it anew if needed.
   */
  async approve(id: string, by: 'user' | 'cli', editedArgs?: unknown): Promise<ProposalResult> {
    const call = this.get(id);
    if (call.gate !== 'queue') throw new HomebodyError('INVALID_REQUEST', 'This call is not in the approval queue.');
    let edited: { args: Record<string, JsonValue>; description: ToolDescriptionView; paths: CallPath[] } | undefined;
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
      // Edited paths are resolved and checked like the model's: one outside every grant is refused here.
      const { resolved, args } = await resolveCallPaths(tool.pathArgs, validation.value, this.pathContext());
      if (!resolved.ok) throw new HomebodyError('INVALID_REQUEST', resolved.reason);
      edited = { args, description: describeSafely(tool, args, resolved.paths), paths: [...resolved.paths] };
    }
    if (call.state === 'interrupted') {
      return {
        status: 'denied',
        call,
        error: `${call.description.title} was running when Homebody stopped; it may have run already and will not run again. Check the result yourself, then ask for it anew if it is still needed.`,
      };
    }
    const basis: DecisionBasis =
      by === 'cli'
        ? { kind: 'cli', answer: 'approve' }
        : { kind: 'user', answer: 'approve', ...(edited ? { edited: true } : {}) };
    if (
      !this.deps.store.toolCalls.decide(
        id,
        'pending',
        'approved',
        { decision: 'approve', by, now: this.now(), basis },
        edited,
      )
    ) {
      return this.alreadyDecided(id);
    }
    this.audit(call.taskId, id, 'decided', by, edited ? 'Approved with edited arguments' : 'Approved', {
      basis,
      paths: edited?.paths ?? call.paths,
      detail: edited ? { args: edited.args } : null,
    });
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
      this.audit(call.taskId, id, 'undone', 'user', `Undid ${call.description.title}`, { paths: call.paths });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.audit(call.taskId, id, 'undo-failed', 'user', `Could not undo ${call.description.title}: ${message}`, {
        paths: call.paths,
      });
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

  /** The granted folders a call may use now: each still the folder the user granted (grants.ts). */
  roots(): GrantedRoot[] {
    return this.rootsNow().roots;
  }

  rootsNow(): RootsNow {
    const roots: GrantedRoot[] = [];
    const unusable: Array<{ path: string; message: string }> = [];
    for (const folder of this.deps.policy().folders) {
      const state = grantState(folder);
      if (state.ok) roots.push({ path: folder.path, untrusted: folder.untrusted, identity: state.identity });
      else unusable.push({ path: folder.path, message: state.message });
    }
    return { roots, unusable };
  }

  /** Each granted folder as it is now, for Settings: still the folder granted, or what changed. */
  folderStates(): FolderState[] {
    return this.deps.policy().folders.map((folder) => {
      const state = grantState(folder);
      return state.ok
        ? { path: folder.path, untrusted: folder.untrusted, state: 'ok', message: null }
        : { path: folder.path, untrusted: folder.untrusted, state: state.why, message: state.message };
    });
  }

  private pathContext(): PathContext {
    const { roots, unusable } = this.rootsNow();
    const packs = this.deps.packs();
    return {
      roots,
      unusable,
      firstGrant: this.deps.policy().folders[0]?.path ?? null,
      dataDir: this.dataDir(),
      packFolders: [packs.calendarDir, packs.contactsDir, packs.notesDir, packs.mailDir],
    };
  }

  /** The data folder as resolved paths are compared with it: its real path (a link on its way would hide it). */
  private dataDir(): string | null {
    const { dataDir } = this.deps;
    if (!dataDir) return null;
    try {
      return realpathSync(dataDir);
    } catch {
      return dataDir;
    }
  }

  /** The task's untrusted sources so far, each with the tool whose call read it. */
  private taintOf(taskId: string): TaintSource[] {
    return this.deps.store.taskSafety.taintRecords(taskId).map((t) => ({ source: t.source, via: t.tool }));
  }

  /**
   * Before an approved call runs, its paths are resolved again: a file that now resolves elsewhere than the user
   * was shown (a folder swapped for a link, a grant that changed) is not the file the user allowed.
   */
  private async stillAsShown(call: ToolCall): Promise<string | undefined> {
    if (call.paths.length === 0) return undefined;
    const tool = this.deps.registry.get(call.tool);
    if (!tool?.pathArgs) return undefined;
    const { resolved } = await resolveCallPaths(
      tool.pathArgs,
      call.args as Record<string, JsonValue>,
      this.pathContext(),
    );
    if (!resolved.ok) return resolved.reason;
    for (const shown of call.paths) {
      const now = resolved.paths.find((p) => p.arg === shown.arg);
      if (now && (now.path !== shown.path || now.root !== shown.root)) {
        return `${shown.path} changed since you were asked (it now leads to ${now.path}); nothing was done.`;
      }
    }
    return undefined;
  }

  /**
   * The result in one line for people, from the tool's own words. A summary that fails (a result of a shape the tool
   * did not expect, from a server or a worker) is no summary: the card shows the result as it is.
   */
  private summaryOf(call: ToolCall, result: unknown): string | null {
    const tool = this.deps.registry.get(call.tool);
    if (!tool?.summarize) return null;
    try {
      const line = tool.summarize(result as JsonValue, call.args as never);
      return typeof line === 'string' && line.trim() !== '' ? line.trim().slice(0, MAX_SUMMARY_CHARS) : null;
    } catch {
      return null;
    }
  }

  private async execute(id: string): Promise<ProposalResult> {
    const { store, executor } = this.deps;
    // approved → executing is a compare-and-set: a second approval, or a race, finds nothing to start.
    if (!store.toolCalls.start(id, this.now())) return this.alreadyDecided(id);
    const call = this.get(id);
    this.audit(call.taskId, id, 'started', 'system', `Running ${call.description.title}`, { paths: call.paths });
    this.changed(id);
    const started = this.now();
    try {
      const changed = await this.stillAsShown(call);
      if (changed) throw new HomebodyError('INVALID_REQUEST', changed);
      mkdirSync(executor.trashDir, { recursive: true });
      const signal = this.stops.get(id);
      const outcome = await executor.run(call.tool, call.args as Record<string, JsonValue>, {
        roots: this.roots(),
        packs: this.deps.packs(),
        ...(signal ? { signal } : {}),
      });
      const summary = this.summaryOf(call, outcome.result);
      store.toolCalls.finish(id, {
        state: 'done',
        result: outcome.result,
        summary,
        undo: outcome.undo,
        now: this.now(),
      });
      if (call.taskId) this.recordProvenance(call.taskId, call, outcome);
      this.audit(call.taskId, id, 'finished', 'system', `${named(call)}: done`, {
        paths: call.paths,
        detail: { durationMs: this.now() - started },
      });
      return { status: 'done', call: this.changed(id), result: outcome.result };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      store.toolCalls.finish(id, { state: 'failed', error: message, now: this.now() });
      // A failure can carry untrusted text too (an MCP server's error message or its last words on stderr).
      const source = (error as { untrustedSource?: unknown } | null)?.untrustedSource;
      if (typeof source === 'string' && call.taskId) store.taskSafety.addTaint(call.taskId, source, id, this.now());
      this.audit(call.taskId, id, 'finished', 'system', `${named(call)}: failed: ${message}`, {
        paths: call.paths,
        detail: { durationMs: this.now() - started },
      });
      return { status: 'failed', call: this.changed(id), error: message };
    } finally {
      this.stops.delete(id);
    }
  }

  /**
   * Declared taint and provenance, applied in one place: what the result carries that others wrote (the tool's
   * declaration, files in untrusted folders, labelled content) taints the task; what the call wrote keeps the
   * task's untrusted sources, and a copy or move keeps those of what it came from.
   */
  private recordProvenance(taskId: string, call: ToolCall, outcome: ToolOutcome): void {
    const { store } = this.deps;
    const tool = this.deps.registry.get(call.tool);
    const now = this.now();
    const labels = {
      roots: this.deps.policy().folders,
      labelsOf: (keys: string[]) => store.provenance.sourcesOf(keys),
    };
    const before = this.taintOf(taskId).map((t) => t.source);
    const read = sourcesInResult(tool, outcome.result, {
      ...labels,
      extraReads: readPathKeys(call.paths),
      // A runner may name content too (an MCP server's result is the manager's to name); it can only add taint.
      ...(outcome.untrustedSource ? { named: outcome.untrustedSource } : {}),
    });
    for (const source of read) store.taskSafety.addTaint(taskId, source, call.id, now);
    for (const write of provenanceOf(tool?.provenance, outcome.result).writes) {
      const carried = new Set(before);
      if (write.from) for (const source of labelSources(write.from, labels)) carried.add(source);
      if (carried.size > 0) store.provenance.label(write.key, [...carried], taskId, call.id, now);
    }
  }

  private refuse(call: ToolCall, by: 'user' | 'cli', reason: string | null): ProposalResult {
    this.stops.delete(call.id);
    const from = call.state === 'interrupted' ? 'interrupted' : 'pending';
    const basis: DecisionBasis = by === 'cli' ? { kind: 'cli', answer: 'deny' } : { kind: 'user', answer: 'deny' };
    if (
      !this.deps.store.toolCalls.decide(call.id, from, 'denied', {
        decision: 'deny',
        by,
        reason,
        now: this.now(),
        basis,
      })
    ) {
      return this.alreadyDecided(call.id);
    }
    this.audit(call.taskId, call.id, 'decided', by, reason ? `Denied: ${reason}` : 'Denied', {
      basis,
      paths: call.paths,
    });
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
    // The task's count of calls waiting for the user moves with its calls ("Waiting for you" in the sidebar).
    const task = call.taskId === null ? undefined : this.deps.store.tasks.get(call.taskId);
    if (task) this.deps.emit({ type: 'task.updated', task });
    return call;
  }

  private audit(
    taskId: string | null,
    callId: string | null,
    kind: string,
    actor: 'model' | 'user' | 'policy' | 'cli' | 'system',
    summary: string,
    extra: { basis?: DecisionBasis; paths?: readonly CallPath[]; detail?: unknown } = {},
  ): void {
    this.deps.store.audit.append({
      at: this.now(),
      taskId,
      callId,
      kind,
      actor,
      summary,
      detail: extra.detail ?? null,
      basis: extra.basis ?? null,
      paths: extra.paths ?? [],
    });
  }
}

export type { Decision, ResolvedPaths };
