/**
 * The words a person reads for the state of a task, a reply and a tool call: one vocabulary, the same in the chat,
 * the sidebar, History, the timeline, search and the command line, so no two places name one state differently
 * ("Interrupted" here, "Stopped" there).
 */
import type { MessageState, TaskSummary } from './chat.js';
import type { HistoryStatus } from './history.js';
import type { ToolCall } from './tools.js';

/** A task's status in words. `waiting`: no reply is being written and a call of it waits for the user. */
export const TASK_STATUS_WORDS: Readonly<Record<HistoryStatus, string>> = {
  idle: 'New',
  running: 'Replying…',
  waiting: 'Waiting for you',
  completed: 'Completed',
  stopped: 'Stopped',
  failed: 'Failed',
};

/**
 * The status a person is shown: waiting for them while a call of the task waits for an answer or an approval and no
 * reply is being written (the reply that asked has ended; the task goes on once they decide), else its own.
 */
export function taskStatusOf(task: Pick<TaskSummary, 'status'> & { readonly waitingCalls?: number }): HistoryStatus {
  return task.status !== 'running' && (task.waitingCalls ?? 0) > 0 ? 'waiting' : task.status;
}

export function taskStatusWords(task: Pick<TaskSummary, 'status'> & { readonly waitingCalls?: number }): string {
  return TASK_STATUS_WORDS[taskStatusOf(task)];
}

function calls(count: number): string {
  return `${count.toLocaleString('en')} ${count === 1 ? 'call' : 'calls'}`;
}

/** What a task's status does not say: "2 calls not run", "1 call failed" (a "Completed" task can have either). */
export function callOutcomeWords(task: { readonly deniedCalls: number; readonly failedCalls: number }): string[] {
  return [
    ...(task.deniedCalls > 0 ? [`${calls(task.deniedCalls)} not run`] : []),
    ...(task.failedCalls > 0 ? [`${calls(task.failedCalls)} failed`] : []),
  ];
}

/** The note under a reply that did not finish normally; null when there is nothing to say. */
export function messageStateNote(state: MessageState, error: string | null): string | null {
  switch (state) {
    case 'streaming':
    case 'complete':
      return null;
    case 'stopped':
      return 'Stopped';
    case 'truncated':
      return 'Length limit reached';
    case 'interrupted':
      // Its task is "Stopped": one word for one state, and why.
      return 'Stopped: Homebody closed while replying';
    case 'failed':
      return error ? `Failed: ${error}` : 'Failed';
    default:
      return state satisfies never;
  }
}

/** A tool call's state in words. */
export function toolCallStateWords(call: Pick<ToolCall, 'state' | 'gate' | 'error'>): string {
  switch (call.state) {
    case 'pending':
      return call.gate === 'queue' ? 'Waiting for you in Approvals' : 'Waiting for you';
    case 'approved':
    case 'executing':
      return 'Running';
    case 'done':
      return 'Done';
    case 'failed':
      return call.error ? `Failed: ${call.error}` : 'Failed';
    case 'rejected':
      // Recorded refusals are the broker's, made before anyone was asked (a path outside every granted folder).
      return call.error ? `Refused: ${call.error}` : 'Refused: not a valid call';
    case 'denied':
      return 'Denied';
    case 'expired':
      return 'Not run: no answer';
    case 'interrupted':
      // As a reply cut short by a crash says it; the call is never run again by itself.
      return 'Stopped: Homebody closed while it ran';
    default:
      return call.state satisfies never;
  }
}
