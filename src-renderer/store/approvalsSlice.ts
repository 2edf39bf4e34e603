import type { StateCreator } from 'zustand/vanilla';
import { toAppError } from '../bridge/apiError.js';
import { isQueued, upsertToolCall, updateQueueMany } from './eventReducer.js';
import type { ApprovalsActions, ApprovalsData, AppState, StoreDeps } from './types.js';

export const initialApprovalsData: ApprovalsData = { queue: [], approvalsLoaded: false, approvalsError: null };

/** The approval queue: loaded on start and on reconnect, kept current by toolcall.updated events. */
export const createApprovalsSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], ApprovalsData & ApprovalsActions> =>
  (set) => ({
    ...initialApprovalsData,

    async loadApprovals() {
      try {
        const { calls } = await deps.api['approvals.list']({});
        const queue = calls.filter(isQueued).sort((a, b) => a.createdAt - b.createdAt);
        set({ queue, approvalsLoaded: true, approvalsError: null });
      } catch (error) {
        set({ approvalsError: toAppError(error), approvalsLoaded: true });
      }
    },

    async approveCalls(ids, args, options) {
      try {
        const { calls } = await deps.api['approvals.approve']({
          ids,
          ...(args === undefined ? {} : { args }),
          ...(options?.continueTask === false ? { continue: false } : {}),
        });
        set((state) => applyAnswered(state, calls));
        return null;
      } catch (error) {
        return toAppError(error);
      }
    },

    async denyCalls(ids, reason) {
      try {
        const trimmed = reason?.trim();
        const { calls } = await deps.api['approvals.deny'](trimmed ? { ids, reason: trimmed } : { ids });
        set((state) => applyAnswered(state, calls));
        return null;
      } catch (error) {
        return toAppError(error);
      }
    },
  });

function applyAnswered(state: AppState, calls: Parameters<typeof updateQueueMany>[1]): Partial<AppState> {
  let toolCalls = state.toolCalls;
  for (const call of calls) {
    if (call.taskId !== null && call.taskId === state.openTaskId) toolCalls = upsertToolCall(toolCalls, call);
  }
  return { queue: updateQueueMany(state.queue, calls), toolCalls };
}
