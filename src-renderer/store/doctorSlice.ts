import type { StateCreator } from 'zustand/vanilla';
import { toAppError } from '../bridge/apiError.js';
import type { AppState, DoctorActions, DoctorData, StoreDeps } from './types.js';

export const initialDoctorData: DoctorData = {
  doctorReport: null,
  doctorLoading: false,
  doctorError: null,
  benchRunning: false,
  benchError: null,
  modelSettings: null,
  modelSettingsBusy: false,
  modelSettingsError: null,
};

/** The Doctor page: the machine report, the benchmark on request, and the active model's settings. */
export const createDoctorSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], DoctorData & DoctorActions> =>
  (set, get) => ({
    ...initialDoctorData,

    async loadDoctor() {
      set({ doctorLoading: true });
      try {
        const report = await deps.api['doctor.report']({});
        set({ doctorReport: report, modelSettings: report.settings, doctorLoading: false, doctorError: null });
      } catch (error) {
        set({ doctorLoading: false, doctorError: toAppError(error) });
      }
    },

    async runBench(catalogId) {
      if (get().benchRunning) return null;
      set({ benchRunning: true, benchError: null });
      try {
        const result = await deps.api['doctor.bench'](catalogId ? { catalogId } : {});
        set({ benchRunning: false });
        await get().loadDoctor();
        return result;
      } catch (error) {
        set({ benchRunning: false, benchError: toAppError(error) });
        return null;
      }
    },

    async loadModelSettings() {
      try {
        set({ modelSettings: await deps.api['model.settings']({}), modelSettingsError: null });
      } catch (error) {
        set({ modelSettingsError: toAppError(error) });
      }
    },

    async saveModelSettings(settings) {
      set({ modelSettingsBusy: true, modelSettingsError: null });
      try {
        const view = await deps.api['model.setSettings']({ settings });
        set({ modelSettings: view, modelSettingsBusy: false });
        return null;
      } catch (error) {
        const appError = toAppError(error);
        set({ modelSettingsBusy: false, modelSettingsError: appError });
        return appError;
      }
    },
  });
