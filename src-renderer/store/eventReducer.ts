import type { HostEvent, Message, TaskSummary, ToolCall } from '../../src-shared/contract/index.js';
import { applyEvalFinished, applyEvalProgress } from './evalView.js';
import { applyTaskUpdate, withoutTasks } from './historyView.js';
import { applyDownloadProgress } from './modelsView.js';
import { applyEgressEvent, dataDeletedState } from './privacyView.js';
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
    case 'task.updated': {
      const changes: Partial<AppData> = {
        tasks: upsertTask(state.tasks, event.task),
        ...(state.openTaskId === event.task.id ? { openTaskSummary: event.task } : {}),
      };
      const entries = applyTaskUpdate(state.historyEntries, event.task);
      if (entries) changes.historyEntries = entries;
      else if (state.historyLoaded && !state.historyStale) changes.historyStale = true;
      if (state.timelineDetail?.task.id === event.task.id) {
        changes.timelineDetail = { ...state.timelineDetail, task: event.task };
      }
      return changes;
    }
    case 'message.created': {
      const timeline = timelineWithMessage(state, event.message);
      return { ...(timeline ? { timelineDetail: timeline } : {}), ...chatMessageCreated(state, event.message) };
    }
    case 'message.delta':
      return applyDeltas(state, [event]);
    case 'message.finished': {
      const timeline = timelineWithMessage(state, event.message);
      const changes: Partial<AppData> = timeline ? { timelineDetail: timeline } : {};
      if (event.message.taskId !== state.openTaskId) return changes;
      return { ...changes, messages: upsertMessage(state.messages, event.message) };
    }
    case 'toolcall.updated': {
      const { call } = event;
      const queue = updateQueue(state.queue, call);
      const changes: Partial<AppData> = queue === state.queue ? {} : { queue };
      if (state.timelineDetail && call.taskId === state.timelineDetail.task.id) {
        changes.timelineDetail = {
          ...state.timelineDetail,
          toolCalls: upsertToolCall(state.timelineDetail.toolCalls, call),
        };
      }
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
      return { ...changes, ...historyDeletion(state, event.taskIds, event.all) };
    }
    case 'tasks.imported':
      // The new tasks are fetched by the caller (connectHost): an event cannot carry thousands of them.
      return {};
    case 'download.progress': {
      const listing = state.modelsListing && applyDownloadProgress(state.modelsListing, event);
      return listing ? { modelsListing: listing } : {};
    }
    case 'models.changed':
      return { modelsListing: event.listing, modelsError: null };
    // Side effects (the page's clipboard, a toast): handled in connectHost.
    case 'device.request':
    case 'reminder.due':
    case 'doctor.progress':
      return {};
    case 'mcp.changed':
      return { mcpServers: event.servers };
    case 'egress.recorded':
      return applyEgressEvent(state, event.event);
    case 'privacy.dataDeleted':
      // The lists are fetched again by connectHost.
      return { ...historyDeletion(state, [], true), ...dataDeletedState(state) };
    case 'eval.progress':
      return applyEvalProgress(state, event);
    case 'eval.finished':
      // The run's results and the gates' scores are fetched by connectHost.
      return applyEvalFinished(state, event.run);
    default:
      return event satisfies never;
  }
}

/** What a new message changes in the chat: the open task's list, or the new task a send is waiting for. */
function chatMessageCreated(state: AppData, message: Message): Partial<AppData> {
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

/** The timeline shown on the History page with a message added or replaced; null when it is another task's. */
function timelineWithMessage(state: AppData, message: Message): AppData['timelineDetail'] {
  const detail = state.timelineDetail;
  if (!detail || detail.task.id !== message.taskId) return null;
  return { ...detail, messages: upsertMessage(detail.messages, message) };
}

/** What deleting tasks changes on the History page and in the search palette. Applying it twice changes nothing. */
export function historyDeletion(state: AppData, taskIds: readonly string[], all: boolean): Partial<AppData> {
  if (all) {
    return {
      historyEntries: [],
      historyTotal: state.historyTotal === null ? null : 0,
      historyNext: null,
      historySelection: new Set(),
      historySelectionAnchor: null,
      searchHits: [],
      focusTarget: null,
      ...(state.timelineTaskId !== null ? { timelineTaskId: null, timelineDetail: null, timelineError: null } : {}),
    };
  }
  const gone = new Set(taskIds);
  const changes: Partial<AppData> = {};
  const entries = withoutTasks(state.historyEntries, (e) => e.id, gone);
  if (entries.length !== state.historyEntries.length) {
    changes.historyEntries = entries;
    if (state.historyTotal !== null) {
      changes.historyTotal = Math.max(0, state.historyTotal - (state.historyEntries.length - entries.length));
    }
  }
  if ([...state.historySelection].some((id) => gone.has(id))) {
    changes.historySelection = new Set([...state.historySelection].filter((id) => !gone.has(id)));
  }
  if (state.historySelectionAnchor !== null && gone.has(state.historySelectionAnchor)) {
    changes.historySelectionAnchor = null;
  }
  const hits = withoutTasks(state.searchHits, (h) => h.taskId, gone);
  if (hits.length !== state.searchHits.length) changes.searchHits = hits;
  if (state.focusTarget && gone.has(state.focusTarget.taskId)) changes.focusTarget = null;
  if (state.timelineTaskId !== null && gone.has(state.timelineTaskId)) {
    Object.assign(changes, { timelineTaskId: null, timelineDetail: null, timelineError: null });
  }
  return changes;
}
