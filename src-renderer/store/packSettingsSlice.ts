import type { StateCreator } from 'zustand/vanilla';
import { toAppError } from '../bridge/apiError.js';
import type { AppState, PackSettingsActions, PackSettingsData, StoreDeps } from './types.js';

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

    async checkMailCertificate(account) {
      try {
        return await deps.api['packs.checkCertificate']({ account });
      } catch (error) {
        return toAppError(error);
      }
    },

    async trustMailCertificate(account, sha256) {
      try {
        set({ packSettings: await deps.api['packs.trustCertificate']({ account, sha256 }) });
        return null;
      } catch (error) {
        return toAppError(error);
      }
    },
  });
