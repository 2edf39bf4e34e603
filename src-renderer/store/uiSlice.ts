import type { StateCreator } from 'zustand/vanilla';
import type { AppState, UiActions, UiData } from './types.js';

export const initialUiData: UiData = {
  page: 'chat',
  onboardingRequested: false,
  banner: null,
  connection: 'connecting',
  initialized: false,
};

export const createUiSlice: StateCreator<AppState, [], [], UiData & UiActions> = (set) => ({
  ...initialUiData,
  requestOnboarding: () => set({ onboardingRequested: true, modelError: null }),
  closeOnboarding: () => set({ onboardingRequested: false }),
  showBanner: (error) => set({ banner: error }),
  dismissBanner: () => set({ banner: null }),
  setConnection: (connection) => set({ connection }),
  setPage: (page) => set({ page }),
});
