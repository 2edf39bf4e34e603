import type { StateCreator } from 'zustand/vanilla';
import { toAppError } from '../bridge/apiError.js';
import type { AppState, ModelActions, ModelData, StoreDeps } from './types.js';

export const initialModelData: ModelData = {
  appInfo: null,
  modelState: null,
  catalog: [],
  catalogError: null,
  modelBusy: false,
  modelError: null,
};

export const createModelSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], ModelData & ModelActions> =>
  (set, get) => ({
    ...initialModelData,

    async openModel(path) {
      const trimmed = path.trim();
      if (!trimmed) {
        set({ modelError: { code: 'INVALID_REQUEST', message: 'Enter the path of a .gguf file.' } });
        return;
      }
      set({ modelBusy: true, modelError: null });
      try {
        const state = await deps.api['model.open']({ path: trimmed });
        set({ modelState: state, modelBusy: false });
        if (state.status === 'ready') get().closeOnboarding();
      } catch (error) {
        set({ modelBusy: false, modelError: toAppError(error) });
      }
    },

    async chooseAndOpenModel() {
      set({ modelBusy: true, modelError: null });
      let path: string | null;
      try {
        ({ path } = await deps.api['model.chooseFile']({}));
      } catch (error) {
        set({ modelBusy: false, modelError: toAppError(error) });
        return;
      }
      set({ modelBusy: false });
      if (path !== null) await get().openModel(path);
    },
  });
