import type { AppState } from './types.js';

/** Narrow selectors: components subscribe to what they show and nothing else. */
export const selectModelState = (s: AppState) => s.modelState;
export const selectModelStatus = (s: AppState) => s.modelState?.status ?? null;
export const selectReadyModel = (s: AppState) => (s.modelState?.status === 'ready' ? s.modelState.info : null);
export const selectShell = (s: AppState) => s.appInfo?.shell ?? null;
export const selectCatalog = (s: AppState) => s.catalog;
export const selectTasks = (s: AppState) => s.tasks;
export const selectOpenTaskId = (s: AppState) => s.openTaskId;
export const selectMessages = (s: AppState) => s.messages;
export const selectBanner = (s: AppState) => s.banner;
export const selectConnection = (s: AppState) => s.connection;

/** A reply is being produced in the open task (or the send that starts one is in flight). */
export const selectIsStreaming = (s: AppState) => s.sending || s.messages.some((m) => m.state === 'streaming');

/** The error onboarding shows: the failed call first, otherwise an `error` model state. */
export const selectModelProblem = (s: AppState) =>
  s.modelError ?? (s.modelState?.status === 'error' ? s.modelState.error : null);

export type MainView = 'starting' | 'onboarding' | 'chat' | 'readonly';

/** Which screen the main area shows. */
export function selectMainView(s: AppState): MainView {
  if (!s.initialized && s.modelState === null) return 'starting';
  if (s.onboardingRequested) return 'onboarding';
  const ready = s.modelState?.status === 'ready';
  if (ready) return 'chat';
  // A model loading (a switch from the Models page) keeps the open task writable: the composer waits for it.
  if (s.modelState?.status === 'loading' && s.openTaskId !== null) return 'chat';
  if (s.openTaskId !== null) return 'readonly';
  return 'onboarding';
}

export const selectToolCalls = (s: AppState) => s.toolCalls;
export const selectPage = (s: AppState) => s.page;
export const selectQueue = (s: AppState) => s.queue;
/** How many calls wait in the approval queue (the sidebar badge). */
export const selectApprovalCount = (s: AppState) => s.queue.length;

export const selectNotices = (s: AppState) => s.notices;
export const selectHistoryFilter = (s: AppState) => s.historyFilter;
export const selectHistoryEntries = (s: AppState) => s.historyEntries;
export const selectHistoryTotal = (s: AppState) => s.historyTotal;
export const selectHistorySelection = (s: AppState) => s.historySelection;
export const selectHistoryTools = (s: AppState) => s.historyTools;
export const selectTimelineTaskId = (s: AppState) => s.timelineTaskId;
export const selectSearchOpen = (s: AppState) => s.searchOpen;
export const selectFocusTarget = (s: AppState) => s.focusTarget;
/** How many tasks are selected on the History page (selection only ever holds loaded tasks). */
export const selectHistorySelectionCount = (s: AppState) => s.historySelection.size;
