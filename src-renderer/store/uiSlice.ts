import type { StateCreator } from 'zustand/vanilla';
import type { AppState, UiActions, UiData } from './types.js';

export const initialUiData: UiData = {
  page: 'chat',
  onboardingRequested: false,
  banner: null,
  notices: [],
  connection: 'connecting',
  initialized: false,
};

export const createUiSlice: StateCreator<AppState, [], [], UiData & UiActions> = (set) => ({
  ...initialUiData,
  requestOnboarding: () => set({ onboardingRequested: true, modelError: null }),
  closeOnboarding: () => set({ onboardingRequested: false }),
  showBanner: (error) => set({ banner: error }),
  dismissBanner: () => set({ banner: null }),
  dismissNotice: (index) => set((state) => ({ notices: state.notices.filter((_, i) => i !== index) })),
  setConnection: (connection) => set({ connection }),
  setPage: (page) => set({ page }),
});
