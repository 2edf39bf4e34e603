import type { StateCreator } from 'zustand/vanilla';
import type { HistoryFilter } from '../../src-shared/contract/index.js';
import { toAppError } from '../bridge/apiError.js';
import { historyDeletion } from './eventReducer.js';
import {
  EMPTY_FILTER,
  HISTORY_PAGE_SIZE,
  mergeHistoryPage,
  pageLimitFor,
  selectRange,
  toHistoryFilter,
  toggleSelection,
} from './historyView.js';
import type { AppState, HistoryActions, HistoryData, Outcome, StoreDeps } from './types.js';

export const initialHistoryData: HistoryData = {
  historyFilter: EMPTY_FILTER,
  historyEntries: [],
  historyTotal: null,
  historyNext: null,
  historyLoading: false,
  historyLoaded: false,
  historyStale: false,
  historyError: null,
  historyTools: [],
  historySelection: new Set(),
  historySelectionAnchor: null,
  historyScrollTop: 0,
  historyRetention: undefined,
  timelineTaskId: null,
  timelineDetail: null,
  timelineError: null,
};

const fail = <T>(error: unknown): Outcome<T> => ({ ok: false, error: toAppError(error) });

/**
 * The History page: a filtered list paged with the Host's cursor, a selection, export, import, deletion,
 * retention, and the timeline of one task. Every list request carries a generation: an answer for a filter the
 * user has since changed (or a list since reloaded) is dropped.
 */
export const createHistorySlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], HistoryData & HistoryActions> =>
  (set, get) => {
    let generation = 0;
    let timelineRequest = 0;

    /** The request filter, or null (and the problem shown in place) when the controls hold an impossible one. */
    const currentFilter = (): HistoryFilter | null => {
      const mapped = toHistoryFilter(get().historyFilter, Date.now());
      if (mapped.ok) return mapped.filter;
      set({
        historyEntries: [],
        historyTotal: 0,
        historyNext: null,
        historyLoading: false,
        historyLoaded: true,
        historyError: { code: 'INVALID_REQUEST', message: mapped.problem },
      });
      return null;
    };

    const loadTools = async () => {
      try {
        const { tools } = await deps.api['history.tools']({});
        set({ historyTools: tools });
      } catch {
        // The tool filter just offers fewer choices; the list reports its own errors.
      }
    };

    return {
      ...initialHistoryData,

      async loadHistory() {
        const mine = ++generation;
        void loadTools();
        const filter = currentFilter();
        if (filter === null) return;
        set({ historyLoading: true, historyError: null });
        try {
          const page = await deps.api['history.list']({ ...filter, limit: HISTORY_PAGE_SIZE });
          if (mine !== generation) return;
          set((state) => {
            const ids = new Set(page.entries.map((e) => e.id));
            const selection = [...state.historySelection].filter((id) => ids.has(id));
            return {
              historyEntries: page.entries,
              historyTotal: page.total,
              historyNext: page.next,
              historyLoading: false,
              historyLoaded: true,
              historyStale: false,
              historySelection:
                selection.length === state.historySelection.size ? state.historySelection : new Set(selection),
            };
          });
        } catch (error) {
          if (mine !== generation) return;
          set({ historyLoading: false, historyLoaded: true, historyError: toAppError(error) });
        }
      },

      async loadMoreHistory(needed) {
        const mine = generation;
        while (mine === generation) {
          const { historyNext: after, historyEntries, historyLoading } = get();
          if (after === null || historyLoading || historyEntries.length >= needed) return;
          const filter = currentFilter();
          if (filter === null) return;
          set({ historyLoading: true, historyError: null });
          try {
            const page = await deps.api['history.list']({
              ...filter,
              after,
              limit: pageLimitFor(needed, historyEntries.length),
            });
            if (mine !== generation) return;
            set((state) => ({
              historyEntries: mergeHistoryPage(state.historyEntries, page.entries),
              historyTotal: page.total,
              historyNext: page.next,
              historyLoading: false,
            }));
          } catch (error) {
            if (mine === generation) set({ historyLoading: false, historyError: toAppError(error) });
            return;
          }
        }
      },

      setHistoryFilter(filter) {
        generation++;
        set({
          historyFilter: filter,
          historyEntries: [],
          historyTotal: null,
          historyNext: null,
          historyLoading: false,
          historyLoaded: false,
          historySelection: new Set(),
          historySelectionAnchor: null,
          historyScrollTop: 0,
        });
        void get().loadHistory();
      },

      selectHistory(id, on, range) {
        set((state) => ({
          historySelection: range
            ? selectRange(state.historySelection, state.historyEntries, state.historySelectionAnchor, id, on)
            : toggleSelection(state.historySelection, id, on),
          historySelectionAnchor: range && state.historySelectionAnchor !== null ? state.historySelectionAnchor : id,
        }));
      },

      setHistorySelection(ids) {
        set({ historySelection: new Set(ids), historySelectionAnchor: null });
      },

      clearHistorySelection() {
        set({ historySelection: new Set(), historySelectionAnchor: null });
      },

      setHistoryScrollTop(scrollTop) {
        set({ historyScrollTop: scrollTop });
      },

      async exportHistory(taskIds, format) {
        try {
          const file = await deps.api['history.export'](
            taskIds === null ? { format } : { taskIds: [...taskIds], format },
          );
          return { ok: true, value: file };
        } catch (error) {
          return fail(error);
        }
      },

      async importHistory(content) {
        try {
          const report = await deps.api['history.import']({ content });
          // tasks.imported reloads the list too, but only when something was added; a report of skips changes
          // nothing, and a reload here keeps the list right even if that event was missed.
          await get().loadHistory();
          return { ok: true, value: report };
        } catch (error) {
          return fail(error);
        }
      },

      async deleteHistory(taskIds) {
        try {
          const { deleted } = await deps.api['history.delete']({ taskIds: [...taskIds] });
          // The tasks.deleted event does the same; applying it here too keeps the page right without it.
          set((state) => historyDeletion(state, taskIds, false));
          void loadTools();
          return { ok: true, value: deleted };
        } catch (error) {
          return fail(error);
        }
      },

      async deleteAllHistory() {
        try {
          const { deleted } = await deps.api['history.deleteAll']({ confirm: 'delete all history' });
          set((state) => historyDeletion(state, [], true));
          void loadTools();
          return { ok: true, value: deleted };
        } catch (error) {
          return fail(error);
        }
      },

      async loadRetention() {
        try {
          const { days } = await deps.api['history.retention']({});
          set({ historyRetention: days });
        } catch (error) {
          set({ historyError: toAppError(error) });
        }
      },

      async countHistoryBefore(cutoff) {
        try {
          const { total } = await deps.api['history.list']({ to: Math.max(0, cutoff), limit: 1 });
          return { ok: true, value: total };
        } catch (error) {
          return fail(error);
        }
      },

      async setRetention(days) {
        try {
          const result = await deps.api['history.setRetention']({ days });
          set({ historyRetention: result.days });
          if (result.deleted > 0) await get().loadHistory();
          return { ok: true, value: result };
        } catch (error) {
          return fail(error);
        }
      },

      async openTimeline(taskId) {
        const mine = ++timelineRequest;
        set({ timelineTaskId: taskId, timelineDetail: null, timelineError: null });
        try {
          const detail = await deps.api['tasks.get']({ taskId });
          if (mine === timelineRequest) set({ timelineDetail: detail });
        } catch (error) {
          if (mine === timelineRequest) set({ timelineError: toAppError(error) });
        }
      },

      closeTimeline() {
        timelineRequest++;
        set({ timelineTaskId: null, timelineDetail: null, timelineError: null });
      },
    };
  };
