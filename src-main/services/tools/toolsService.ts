import {
  HomebodyError,
  ID_PREFIX_MIN,
  type Policy,
  type ToolCall,
  type ToolCallOutcome,
} from '../../../src-shared/contract/index.js';
import { ToolActions, type ProposalResult } from '../../agent/toolActions.js';
import type { Store } from '../../store/store.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ToolRunner } from '../../tools/sandbox/toolExecutor.js';
import type { PackConfig } from '../../tools/toolTypes.js';
import type { Caller, Emit, HandlersOf } from '../handlers.js';

type ToolsMethod =
  | 'tools.list'
  | 'tools.call'
  | 'toolcalls.answer'
  | 'toolcalls.undo'
  | 'approvals.list'
  | 'approvals.approve'
  | 'approvals.deny'
  | 'policy.folders';

export interface ToolsServiceDeps {
  readonly store: Store;
  readonly registry: ToolRegistry;
  /** The sandboxed worker that runs the built-in tools. */
  readonly worker: ToolRunner;
  /** MCP servers: the runner that sends their tools' calls to them, and when the ones started at launch are up. */
  readonly mcp: { runner(worker: ToolRunner): ToolRunner; ready(): Promise<void> };
  /** The policy now, and how "always allow" saves it (ToolActions audits that change itself). */
  readonly policies: { current(): Policy; saveQuietly(next: Policy): void };
  /** The packs' folders and settings as they are now. */
  readonly packs: { readonly settings: { config(): PackConfig } };
  /** Whether the user's evaluation gate lets a tool run without asking now. */
  readonly evaluation: { gateOpen(tool: string): boolean };
  readonly emit: Emit;
  readonly dataDir: string;
  /** Who decides calls through this Host, as the audit log records them. */
  readonly caller: Caller;
  /** The tasks of calls just decided (in the queue, at a prompt) go on (the chat service); answers the replies that will. */
  readonly continueTasks?: (
    calls: readonly ToolCall[],
    from: 'queue' | 'prompt',
  ) => Array<{ taskId: string; messageId: string }>;
}

/** A proposal's or a decision's result as the contract answers it (the call itself travels beside it). */
export function outcomeOf(result: ProposalResult): ToolCallOutcome {
  switch (result.status) {
    case 'done':
      return { status: 'done', result: result.result };
    case 'failed':
    case 'denied':
    case 'rejected':
      return { status: result.status, error: result.error };
    case 'needs-permission':
    case 'queued':
      return { status: result.status };
    default:
      return result satisfies never;
  }
}

/** The call a decision is about; a decision that recorded none is refused with its reason. */
function callOf(result: ProposalResult): ToolCall {
  if (result.call) return result.call;
  throw new HomebodyError('INVALID_REQUEST', 'error' in result ? result.error : 'The call was not recorded.');
}

/**
 * Tool calls behind the contract: every call, the model's or the command line's, goes through ToolActions (checked,
 * gated by the broker, recorded, run at most once, audited); prompts answered, queued calls approved or denied,
 * reversible ones undone, and each granted folder as it is now.
 */
export function createToolsService(deps: ToolsServiceDeps) {
  const { store, registry, caller, mcp } = deps;
  const actions = new ToolActions({
    store,
    registry,
    // MCP tools to their servers, the rest to the worker.
    executor: mcp.runner(deps.worker),
    policy: () => deps.policies.current(),
    packs: () => deps.packs.settings.config(),
    savePolicy: (next) => deps.policies.saveQuietly(next),
    emit: deps.emit,
    evalGateOpen: (tool) => deps.evaluation.gateOpen(tool),
    dataDir: deps.dataDir,
  });
  /** A call's id, or the start of the id of one call in the queue (at least 4 characters), as copied from a list. */
  const queuedId = (given: string): string => {
    if (store.toolCalls.get(given) || given.length < ID_PREFIX_MIN) return given;
    const matching = actions.queue().filter((call) => call.id.startsWith(given));
    if (matching.length > 1) {
      throw new HomebodyError(
        'INVALID_REQUEST',
        `More than one queued call's id begins with ${given}: give more of it.`,
      );
    }
    return matching[0]?.id ?? given;
  };
  /**
   * Decides each call in turn: the calls as they are now and, in the same order, what became of them; then, unless
   * `continueTasks` is false, the tasks of the calls this request decided go on (one already decided continues
   * nothing).
   */
  const decideEach = async (
    ids: readonly string[],
    continueTasks: boolean | undefined,
    decide: (id: string) => Promise<ProposalResult>,
  ) => {
    const calls: ToolCall[] = [];
    const outcomes: ToolCallOutcome[] = [];
    const decidedNow: ToolCall[] = [];
    for (const given of ids) {
      const id = queuedId(given);
      const waiting = store.toolCalls.get(id)?.state === 'pending';
      const result = await decide(id);
      const call = callOf(result);
      calls.push(call);
      outcomes.push(outcomeOf(result));
      if (waiting && call.state !== 'pending') decidedNow.push(call);
    }
    const continued = continueTasks === false ? [] : (deps.continueTasks?.(decidedNow, 'queue') ?? []);
    return { calls, outcomes, continued };
  };
  const handlers: HandlersOf<ToolsMethod> = {
    'tools.list': async ({ waitForServers }) => {
      if (waitForServers) await mcp.ready();
      return registry.info();
    },
    'tools.call': async ({ tool, args, taskId }) => {
      if (caller !== 'cli') {
        throw new HomebodyError(
          'INVALID_REQUEST',
          'In the app the assistant proposes tool calls and you decide them; `homebody tools call` runs one itself.',
        );
      }
      if (taskId && !store.tasks.get(taskId)) {
        throw new HomebodyError('TASK_NOT_FOUND', `There is no task ${taskId}; it may have been deleted.`);
      }
      // The MCP servers the user enabled start with the Host; their tools can be called once they run.
      await mcp.ready();
      const result = await actions.propose({ taskId: taskId ?? null, tool, args, actor: 'cli', interactive: false });
      return { ...outcomeOf(result), call: result.call };
    },
    // The reply that asked ended at the prompt: once the call is decided (and ran, or not), its task goes on.
    'toolcalls.answer': async ({ id, answer, reason }) => {
      const waiting = store.toolCalls.get(id)?.state === 'pending';
      const call = callOf(await actions.answerPrompt(id, answer, reason ?? null));
      if (waiting && call.state !== 'pending') deps.continueTasks?.([call], 'prompt');
      return call;
    },
    'toolcalls.undo': async ({ id }) => actions.undo(id),
    'approvals.list': async () => ({ calls: actions.queue() }),
    'approvals.approve': async ({ ids, args, continue: go }) =>
      decideEach(ids, go, (id) => actions.approve(id, caller, args)),
    'approvals.deny': async ({ ids, reason, continue: go }) =>
      decideEach(ids, go, (id) => actions.deny(id, caller, reason ?? null)),
    'policy.folders': async () => ({ folders: actions.folderStates() }),
  };
  return {
    actions,
    handlers,
    /** At start: calls a crash left executing become interrupted, never run again by themselves. */
    recoverAfterCrash: (): void => actions.recoverAfterCrash(),
  };
}
export type ToolsService = ReturnType<typeof createToolsService>;
