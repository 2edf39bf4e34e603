import type { StateCreator } from 'zustand/vanilla';
import { toAppError } from '../bridge/apiError.js';
import type { AppState, SearchActions, SearchData, StoreDeps } from './types.js';

export const SEARCH_LIMIT = 20;

export const initialSearchData: SearchData = {
  searchOpen: false,
  searchQuery: '',
  searchHits: [],
  searchState: 'idle',
  searchError: null,
  focusTarget: null,
};

/** The search palette (Ctrl+K): full-text search over the whole history, and the jump to a hit. */
export const createSearchSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], SearchData & SearchActions> =>
  (set, get) => {
    /** Bumped by every search and by closing: only the answer to the latest search is shown. */
    let latest = 0;

    return {
      ...initialSearchData,

      openSearch() {
        set({ searchOpen: true });
      },

      closeSearch() {
        latest++;
        // A search in flight is dropped; the palette searches again for its query when it opens.
        set({ searchOpen: false, searchState: get().searchState === 'searching' ? 'idle' : get().searchState });
      },

      setSearchQuery(query) {
        set({ searchQuery: query });
      },

      async runSearch(query) {
        const mine = ++latest;
        if (!query.trim()) {
          set({ searchHits: [], searchState: 'idle', searchError: null });
          return;
        }
        set({ searchState: 'searching', searchError: null });
        try {
          const { hits } = await deps.api['history.search']({ query, limit: SEARCH_LIMIT });
          if (mine === latest) set({ searchHits: hits, searchState: 'done' });
        } catch (error) {
          if (mine === latest) set({ searchHits: [], searchState: 'done', searchError: toAppError(error) });
        }
      },

      async openSearchHit(hit) {
        latest++;
        set({ searchOpen: false });
        // openTask clears the chat at once, before it fetches: the target is set after that, so the list never
        // acts on it with the previous task's messages still shown.
        const opening = get().openTask(hit.taskId);
        set({ focusTarget: { taskId: hit.taskId, ...hit.target } });
        await opening;
      },

      clearFocusTarget() {
        set({ focusTarget: null });
      },
    };
  };
