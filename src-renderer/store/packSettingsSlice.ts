import type { StateCreator } from 'zustand/vanilla';
import type { ApiRequest, AppError, PackSettingsView } from '../../src-shared/contract/index.js';
import { toAppError } from '../bridge/apiError.js';
import type { ActionResult, AppState, StoreDeps } from './types.js';

export interface PackSettingsData {
  /** The tool packs' settings as the Host holds them (passwords only as set / not set); null until loaded. */
  packSettings: PackSettingsView | null;
  packSettingsBusy: boolean;
  /** The last failed load or save, in the Host's words. */
  packSettingsError: AppError | null;
}
export interface PackSettingsActions {
  loadPackSettings(): Promise<void>;
  /** Sends the whole form; on an error nothing is saved and the view stays as it was. */
  savePackSettings(patch: ApiRequest<'packs.setSettings'>): Promise<ActionResult>;
  dismissPackSettingsError(): void;
}

export const initialPackSettingsData: PackSettingsData = {
  packSettings: null,
  packSettingsBusy: false,
  packSettingsError: null,
};

/** Settings of the built-in tool packs (folders, time zone, search endpoint, mail servers). */
export const createPackSettingsSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], PackSettingsData & PackSettingsActions> =>
  (set) => ({
    ...initialPackSettingsData,

    async loadPackSettings() {
      try {
        set({ packSettings: await deps.api['packs.settings']({}), packSettingsError: null });
      } catch (error) {
        set({ packSettingsError: toAppError(error) });
      }
    },

    async savePackSettings(patch) {
      set({ packSettingsBusy: true, packSettingsError: null });
      try {
        const view = await deps.api['packs.setSettings'](patch);
        set({ packSettings: view, packSettingsBusy: false });
        return null;
      } catch (error) {
        const appError = toAppError(error);
        set({ packSettingsBusy: false, packSettingsError: appError });
        return appError;
      }
    },

    dismissPackSettingsError: () => set({ packSettingsError: null }),
  });
