import type { Gate, PolicyMode, Risk } from '../../src-shared/contract/index.js';

export interface GateInput {
  readonly risk: Risk;
  readonly mode: PolicyMode;
  /** The user answered "Allow for this task" (or allowed a read) for this tool in this task. */
  readonly grantedForTask: boolean;
  /** Untrusted content the task has read so far. */
  readonly taint: readonly string[];
  /** The call's arguments leave the device (a URL requested, a search query sent): a way to carry data out. */
  readonly reachesOut?: boolean;
}

export type GateDecision = { readonly gate: Gate } | { readonly off: true };

/**
 * Where a valid call waits before it runs. The risk class and the user's
 * policy decide, never the model. Irreversible calls always go to the queue;
 * after untrusted content, a write always asks, whatever the policy says,
 * and a call that reaches out asks too unless the policy says auto: a task
 * grant given before (or for) that content does not let injected text send
 * what the task read to a server of its choosing.
 */
export function gateFor(input: GateInput): GateDecision {
  const { risk, mode, grantedForTask, taint } = input;
  if (mode === 'off') return { off: true };
  if (risk === 'irreversible' || mode === 'queue') return { gate: 'queue' };
  if (risk === 'write' && taint.length > 0) return { gate: 'prompt' };
  if (input.reachesOut && taint.length > 0 && mode !== 'auto') return { gate: 'prompt' };
  if (mode === 'auto' || grantedForTask) return { gate: 'none' };
  return { gate: 'prompt' };
}
