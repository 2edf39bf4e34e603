import type {
  CallPath,
  DecisionBasis,
  Gate,
  Policy,
  PolicyMode,
  Risk,
  TaintSource,
} from '../../src-shared/contract/index.js';
import { modeFor } from './policy.js';

/**
 * The permission broker: the one place that decides what happens to a valid tool call. It is a pure function of
 * data, so the chat, the command line and the evaluation all get the same answer, and a table of cases tests it in
 * milliseconds (broker.test.ts). The risk class and the user's policy decide, never the model.
 */

/** What the broker reads of a tool: data only (a built-in tool's definition and an MCP tool's both satisfy it). */
export interface ActionManifest {
  readonly name: string;
  readonly risk: Risk;
  /** Asked every time, whatever the policy or an earlier "allow for this task" says. */
  readonly alwaysAsk?: boolean;
  /** Its arguments leave the device (a URL requested, a query sent): a way to carry what the task read out. */
  readonly reachesOut?: boolean;
}

/** The call's path arguments, resolved the way the tool will resolve them, or why one cannot be used. */
export type ResolvedPaths =
  | { readonly ok: true; readonly paths: readonly CallPath[] }
  | {
      readonly ok: false;
      /** A sentence for the chat: which path, and why. */
      readonly reason: string;
      /** The path lies outside every granted folder (as opposed to not existing, or naming a granted folder). */
      readonly outside: boolean;
    };

export interface TaskState {
  /** The user said "Allow for this task" (or allowed a read) for this tool earlier in the task. */
  readonly granted: boolean;
  /** Content others wrote that the task has read so far, each with the call that read it. */
  readonly taint: readonly TaintSource[];
}

export interface DecisionRequest {
  readonly manifest: ActionManifest;
  readonly paths: ResolvedPaths;
  readonly policy: Policy;
  /** Null outside a task (a command-line call without --task): no task grants, no taint. */
  readonly task: TaskState | null;
  /**
   * The user's evaluation gate for this tool is open: the active model scored at or above the threshold the user
   * set on its cases. It can only turn the policy's "ask" into "run without asking", for a reversible tool.
   */
  readonly evalGateOpen?: boolean;
}

export type Verdict =
  | {
      /** Not offered, or not allowed at all: nobody is asked. */
      readonly gate: 'refused';
      readonly basis: DecisionBasis;
      readonly reason: string;
      readonly untrusted: readonly TaintSource[];
    }
  | { readonly gate: Gate; readonly basis: DecisionBasis; readonly untrusted: readonly TaintSource[] };

const DEFAULT_REFUSAL = 'switched off in Homebody’s settings';

/**
 * Where a valid call goes: refused, run now (none), asked in the chat (prompt) or queued for approval (queue), and
 * on what basis. In order:
 * - a tool the policy switches off is refused, and so is a path outside every granted folder, before anyone is
 *   asked: an "Allow" could not make it run;
 * - an irreversible call, or one the policy queues, waits in the approval queue;
 * - once the task read content others wrote, a write asks whatever the policy says, and so does a call that sends
 *   data off the device unless the policy says auto: injected text must not be able to act, or carry what the task
 *   read to a server of its choosing, on a grant the user gave before that content arrived;
 * - a tool that always asks, asks;
 * - then the policy's auto, the task's grant, and the evaluation gate let it run; otherwise it asks.
 */
export function decide(request: DecisionRequest): Verdict {
  const { manifest, paths, policy, task } = request;
  const untrusted = task?.taint ?? [];
  const mode: PolicyMode = modeFor(policy, manifest.name, manifest.risk, manifest.alwaysAsk === true);
  if (mode === 'off') {
    return {
      gate: 'refused',
      basis: { kind: 'switched-off' },
      reason: `${manifest.name} is ${DEFAULT_REFUSAL}.`,
      untrusted,
    };
  }
  if (!paths.ok) {
    return {
      gate: 'refused',
      basis: paths.outside ? { kind: 'outside-grants' } : { kind: 'unusable-path' },
      reason: paths.reason,
      untrusted,
    };
  }
  if (manifest.risk === 'irreversible') return { gate: 'queue', basis: { kind: 'irreversible' }, untrusted };
  if (mode === 'queue') return { gate: 'queue', basis: { kind: 'policy', mode: 'queue' }, untrusted };
  if (untrusted.length > 0) {
    if (manifest.risk === 'write') return { gate: 'prompt', basis: { kind: 'untrusted-content' }, untrusted };
    if (manifest.reachesOut === true && mode !== 'auto')
      return { gate: 'prompt', basis: { kind: 'reaches-out' }, untrusted };
  }
  if (manifest.alwaysAsk === true) return { gate: 'prompt', basis: { kind: 'always-asks' }, untrusted };
  if (mode === 'auto') return { gate: 'none', basis: { kind: 'policy', mode: 'auto' }, untrusted };
  if (task?.granted === true) return { gate: 'none', basis: { kind: 'task-grant' }, untrusted };
  if (request.evalGateOpen === true) return { gate: 'none', basis: { kind: 'eval-gate' }, untrusted };
  return { gate: 'prompt', basis: { kind: 'policy', mode: 'ask' }, untrusted };
}
