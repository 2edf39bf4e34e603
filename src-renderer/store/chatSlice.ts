import type { StateCreator } from 'zustand/vanilla';
import { MAX_MESSAGE_CHARS, messageTooLong, type ToolCall } from '../../src-shared/contract/index.js';
import { toAppError } from '../bridge/apiError.js';
import { mergeMessages, upsertTask, upsertToolCall, updateQueue } from './eventReducer.js';
import {
  OPEN_TASK_KEY,
  type AppState,
  type ChatActions,
  type ChatData,
  type StoreDeps,
  type ToolCallActions,
} from './types.js';

export const initialChatData: ChatData = {
  openTaskId: null,
  openTaskSummary: null,
  messages: [],
  toolCalls: [],
  taskLoading: false,
  sending: false,
  awaitingNewTask: false,
  chatError: null,
  remoteConsent: null,
};

export const createChatSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], ChatData & ChatActions & ToolCallActions> =>
  (set, get) => {
    /** Fetches a task and merges it in, unless the user has moved on to another task meanwhile. */
    const fetchDetail = async (taskId: string, { opening = false } = {}) => {
      try {
        const detail = await deps.api['tasks.get']({ taskId });
        if (get().openTaskId !== taskId) return;
        // A task opened while it waits for the user opens at what it waits for (a prompt first, else a call in the
        // queue), unless a search hit asked for another place in it.
        const waiting = opening
          ? (detail.toolCalls.find((call) => call.state === 'pending' && call.gate === 'prompt') ??
            detail.toolCalls.find((call) => call.state === 'pending'))
          : undefined;
        set((state) => ({
          ...(waiting && !state.focusTarget
            ? { focusTarget: { taskId, kind: 'toolCall' as const, id: waiting.id } }
            : {}),
          openTaskSummary: detail.task,
          messages: mergeMessages(state.messages, detail.messages),
          toolCalls: detail.toolCalls,
          tasks: upsertTask(state.tasks, detail.task),
          taskLoading: false,
          tasksError: null,
        }));
      } catch (error) {
        if (get().openTaskId !== taskId) return;
        const appError = toAppError(error);
        if (appError.code === 'TASK_NOT_FOUND') {
          deps.storage.set(OPEN_TASK_KEY, null);
          set({ ...initialChatData, tasksError: appError });
        } else {
          set({ taskLoading: false, tasksError: appError });
        }
      }
    };

    return {
      ...initialChatData,

      async openTask(taskId) {
        const summary = get().tasks.find((t) => t.id === taskId) ?? null;
        deps.storage.set(OPEN_TASK_KEY, taskId);
        set({
          ...initialChatData,
          openTaskId: taskId,
          openTaskSummary: summary,
          taskLoading: true,
          onboardingRequested: false,
          page: 'chat',
        });
        await fetchDetail(taskId, { opening: true });
      },

      newTask() {
        deps.storage.set(OPEN_TASK_KEY, null);
        set({ ...initialChatData, onboardingRequested: false, page: 'chat' });
      },

      async send(text, options = {}) {
        const length = text.trim().length;
        if (length > MAX_MESSAGE_CHARS) {
          // Said here, before any request, in the words the Host uses for a message its model cannot take.
          const detail = `it has ${length.toLocaleString('en-US')} characters, and at most ${MAX_MESSAGE_CHARS.toLocaleString('en-US')} can be sent`;
          set({ chatError: { code: 'CONTEXT_OVERFLOW', message: messageTooLong(detail) } });
          return false;
        }
        const taskId = get().openTaskId;
        set({ sending: true, chatError: null, remoteConsent: null, awaitingNewTask: taskId === null });
        try {
          const result = await deps.api['chat.send']({
            taskId,
            text,
            ...(options.allowRemote ? { allowRemote: true } : {}),
          });
          const current = get().openTaskId;
          if (current === result.taskId) {
            set({ sending: false, awaitingNewTask: false });
          } else if (current === taskId) {
            // The call answered before the task's first event: open the new task and fetch what we missed.
            deps.storage.set(OPEN_TASK_KEY, result.taskId);
            set({
              openTaskId: result.taskId,
              openTaskSummary: null,
              messages: [],
              toolCalls: [],
              sending: false,
              awaitingNewTask: false,
            });
            await fetchDetail(result.taskId);
          } else {
            set({ sending: false, awaitingNewTask: false });
          }
          return true;
        } catch (error) {
          const appError = toAppError(error);
          // Not an error to show but a question to ask: nothing was sent or saved, and the text is still in the box.
          // Asked only while the same task is open: the agreement is for this task, and the answer resends here.
          if (appError.code === 'REMOTE_CONSENT_REQUIRED' && !options.allowRemote && get().openTaskId === taskId) {
            set({ sending: false, awaitingNewTask: false, remoteConsent: { taskId, text, message: appError.message } });
          } else {
            set({ sending: false, awaitingNewTask: false, chatError: appError });
          }
          return false;
        }
      },

      dismissRemoteConsent() {
        set({ remoteConsent: null });
      },

      async stop() {
        const taskId = get().openTaskId;
        if (taskId === null) return;
        try {
          await deps.api['chat.stop']({ taskId });
        } catch (error) {
          set({ chatError: toAppError(error) });
        }
      },

      async reloadOpenTask() {
        const taskId = get().openTaskId;
        if (taskId !== null) await fetchDetail(taskId);
      },

      async answerToolCall(id, answer, reason) {
        try {
          const trimmed = reason?.trim();
          const call = await deps.api['toolcalls.answer'](
            answer === 'deny' && trimmed ? { id, answer, reason: trimmed } : { id, answer },
          );
          set((state) => applyCall(state, call));
          return null;
        } catch (error) {
          return toAppError(error);
        }
      },

      async undoToolCall(id) {
        try {
          const call = await deps.api['toolcalls.undo']({ id });
          set((state) => applyCall(state, call));
          return null;
        } catch (error) {
          return toAppError(error);
        }
      },

      dismissChatError() {
        set({ chatError: null });
      },
    };
  };

/** A call the Host answered with: update the open task's timeline and the approval queue. */
function applyCall(state: AppState, call: ToolCall): Partial<AppState> {
  const changes: Partial<AppState> = { queue: updateQueue(state.queue, call) };
  if (call.taskId !== null && call.taskId === state.openTaskId)
    changes.toolCalls = upsertToolCall(state.toolCalls, call);
  return changes;
}
