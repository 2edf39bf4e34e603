import type { HostEvent, Message, TaskSummary, ToolCall } from '../../src-shared/contract/index.js';
import type { AppData, MessageDelta } from './types.js';

/** Inserts or replaces a task summary, keeping the list newest first. */
export function upsertTask(tasks: readonly TaskSummary[], task: TaskSummary): TaskSummary[] {
  const next = tasks.filter((t) => t.id !== task.id);
  next.push(task);
  return sortTasks(next);
}

export function sortTasks(tasks: TaskSummary[]): TaskSummary[] {
  return tasks.sort((a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt);
}

function bySeq(a: Message, b: Message): number {
  return a.seq - b.seq || a.createdAt - b.createdAt;
}

/** Inserts or replaces one message by id, keeping seq order. */
export function upsertMessage(messages: readonly Message[], message: Message): Message[] {
  const index = messages.findIndex((m) => m.id === message.id);
  if (index === -1) return [...messages, message].sort(bySeq);
  const next = messages.slice();
  next[index] = message;
  return next;
}

/** Inserts or replaces one tool call by id, keeping creation order. */
export function upsertToolCall(calls: readonly ToolCall[], call: ToolCall): ToolCall[] {
  const next = calls.filter((c) => c.id !== call.id);
  next.push(call);
  return next.sort((a, b) => a.createdAt - b.createdAt);
}

/** A call that waits in the approval queue: queued and not decided yet, or interrupted and not dismissed. */
export function isQueued(call: ToolCall): boolean {
  return call.gate === 'queue' && (call.state === 'pending' || call.state === 'interrupted');
}

/** Puts a queue-gated call into the approval queue or takes it out, by its current state. */
export function updateQueue(queue: readonly ToolCall[], call: ToolCall): ToolCall[] {
  if (call.gate !== 'queue') return queue as ToolCall[];
  if (isQueued(call)) return upsertToolCall(queue, call);
  return queue.some((c) => c.id === call.id) ? queue.filter((c) => c.id !== call.id) : (queue as ToolCall[]);
}

/** Applies several calls the Host answered with (approve/deny results) to the queue. */
export function updateQueueMany(queue: readonly ToolCall[], calls: readonly ToolCall[]): ToolCall[] {
  return calls.reduce<ToolCall[]>((q, call) => updateQueue(q, call), queue.slice());
}

/**
 * Merges a fetched task detail into what events already gave us. A message
 * still streaming locally keeps the longer text: deltas may have arrived after
 * the Host took its snapshot.
 */
export function mergeMessages(local: readonly Message[], fetched: readonly Message[]): Message[] {
  const byId = new Map(local.map((m) => [m.id, m]));
  const merged: Message[] = [];
  for (const remote of fetched) {
    const mine = byId.get(remote.id);
    byId.delete(remote.id);
    if (
      mine &&
      mine.state === 'streaming' &&
      remote.state === 'streaming' &&
      mine.text.length + mine.reasoning.length > remote.text.length + remote.reasoning.length
    ) {
      merged.push(mine);
    } else {
      merged.push(remote);
    }
  }
  for (const rest of byId.values()) merged.push(rest);
  return merged.sort(bySeq);
}

/** Appends a batch of deltas to the open task's messages; deltas for other tasks or unknown messages are dropped. */
export function applyDeltas(state: Pick<AppData, 'openTaskId' | 'messages'>, batch: readonly MessageDelta[]) {
  let messages: Message[] | null = null;
  for (const delta of batch) {
    if (delta.taskId !== state.openTaskId) continue;
    const list: Message[] = messages ?? state.messages;
    const index = list.findIndex((m) => m.id === delta.messageId);
    const current = list[index];
    if (!current) continue;
    messages ??= state.messages.slice();
    messages[index] = { ...current, text: current.text + delta.text, reasoning: current.reasoning + delta.reasoning };
  }
  return messages ? { messages } : {};
}

/** What one Host event changes in the store. Pure, so each case is unit-tested. */
export function reduceEvent(state: AppData, event: HostEvent): Partial<AppData> {
  switch (event.type) {
    case 'model.state':
      return { modelState: event.state };
    case 'task.updated':
      return {
        tasks: upsertTask(state.tasks, event.task),
        ...(state.openTaskId === event.task.id ? { openTaskSummary: event.task } : {}),
      };
    case 'message.created': {
      const { message } = event;
      if (message.taskId === state.openTaskId) {
        if (state.messages.some((m) => m.id === message.id)) return {};
        return { messages: upsertMessage(state.messages, message) };
      }
      if (state.openTaskId === null && state.awaitingNewTask) {
        // chat.send with no open task: its first message tells us the new task's id before the call returns.
        const summary = state.tasks.find((t) => t.id === message.taskId) ?? null;
        return { openTaskId: message.taskId, openTaskSummary: summary, messages: [message], awaitingNewTask: false };
      }
      return {};
    }
    case 'message.delta':
      return applyDeltas(state, [event]);
    case 'message.finished':
      if (event.message.taskId !== state.openTaskId) return {};
      return { messages: upsertMessage(state.messages, event.message) };
    case 'toolcall.updated': {
      const { call } = event;
      const queue = updateQueue(state.queue, call);
      const changes: Partial<AppData> = queue === state.queue ? {} : { queue };
      if (call.taskId !== null && call.taskId === state.openTaskId) {
        changes.toolCalls = upsertToolCall(state.toolCalls, call);
      }
      return changes;
    }
    case 'tasks.deleted': {
      const gone = (taskId: string | null) => event.all || (taskId !== null && event.taskIds.includes(taskId));
      const changes: Partial<AppData> = {
        tasks: state.tasks.filter((t) => !gone(t.id)),
        queue: state.queue.filter((c) => !gone(c.taskId)),
      };
      if (gone(state.openTaskId)) {
        Object.assign(changes, { openTaskId: null, openTaskSummary: null, messages: [], toolCalls: [] });
      }
      return changes;
    }
    case 'tasks.imported':
      // The new tasks are fetched by the caller (connectHost): an event cannot carry thousands of them.
      return {};
    default:
      return event satisfies never;
  }
}
