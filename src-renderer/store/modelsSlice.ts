import type { StateCreator } from 'zustand/vanilla';
import type { AppError } from '../../src-shared/contract/index.js';
import { toAppError } from '../bridge/apiError.js';
import type { ActionResult, AppState, ModelsActions, ModelsData, Outcome, StoreDeps } from './types.js';
import { keyedActions } from './keyedActions.js';

export const initialModelsData: ModelsData = {
  modelsListing: null,
  modelsLoading: false,
  modelsError: null,
  modelsPending: new Set(),
  modelsActionErrors: {},
};

/**
 * The Models page: the catalog with its downloads, the models on disk, adding and removing them, and which one is
 * active. Every change the Host makes arrives as `models.changed` (the whole listing) or `download.progress`
 * (eventReducer.ts), so the actions only show their own errors and never patch the listing from their answers:
 * an answer can arrive after a newer event.
 */
export const createModelsSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], ModelsData & ModelsActions> =>
  (set, get) => {
    let listRequest = 0;

    const { setPending, setActionError, act } = keyedActions(set, 'modelsPending', 'modelsActionErrors');
    const result = (outcome: Outcome<unknown>): ActionResult => (outcome.ok ? null : outcome.error);

    return {
      ...initialModelsData,

      async loadModels() {
        const mine = ++listRequest;
        const before = get().modelsListing;
        set({ modelsLoading: true });
        try {
          const listing = await deps.api['models.list']({});
          if (mine !== listRequest) return;
          // An event that replaced the listing meanwhile is newer than this answer: keep it.
          const replaced = get().modelsListing !== before;
          set({ ...(replaced ? {} : { modelsListing: listing }), modelsLoading: false, modelsError: null });
        } catch (error) {
          if (mine === listRequest) set({ modelsLoading: false, modelsError: toAppError(error) });
        }
      },

      async downloadModel(catalogId) {
        return result(await act(`download:${catalogId}`, catalogId, () => deps.api['models.download']({ catalogId })));
      },

      async pauseDownload(downloadId, errorKey) {
        return result(await act(`pause:${downloadId}`, errorKey, () => deps.api['models.pause']({ id: downloadId })));
      },

      async resumeDownload(downloadId, errorKey) {
        return result(await act(`resume:${downloadId}`, errorKey, () => deps.api['models.resume']({ id: downloadId })));
      },

      async cancelDownload(downloadId, errorKey) {
        return result(await act(`cancel:${downloadId}`, errorKey, () => deps.api['models.cancel']({ id: downloadId })));
      },

      async addModel(path) {
        const trimmed = path.trim();
        if (!trimmed) {
          const error: AppError = { code: 'INVALID_REQUEST', message: 'Enter the path of a .gguf file.' };
          setActionError('add', error);
          return { ok: false, error };
        }
        return act('add', 'add', () => deps.api['models.add']({ path: trimmed }));
      },

      async chooseAndAddModel() {
        const chosen = await act('add', 'add', () => deps.api['model.chooseFile']({}));
        if (!chosen.ok) return chosen;
        if (chosen.value.path === null) return null;
        return get().addModel(chosen.value.path);
      },

      async removeModel(modelId) {
        // The confirmation dialog shows this error itself.
        setPending(`remove:${modelId}`, true);
        try {
          return { ok: true, value: await deps.api['models.remove']({ id: modelId }) };
        } catch (error) {
          return { ok: false, error: toAppError(error) };
        } finally {
          setPending(`remove:${modelId}`, false);
        }
      },

      async activateModel(modelId) {
        const outcome = await act(`activate:${modelId}`, modelId, () => deps.api['models.activate']({ id: modelId }));
        if (!outcome.ok) return outcome.error;
        // The load itself failed: say so beside the model, as onboarding does for model.open.
        if (outcome.value.status === 'error') {
          setActionError(modelId, outcome.value.error);
          return outcome.value.error;
        }
        return null;
      },

      async verifyModel(modelId) {
        return result(await act(`verify:${modelId}`, modelId, () => deps.api['models.verify']({ id: modelId })));
      },

      async setModelThinking(modelId, thinking) {
        return result(
          await act(`thinking:${modelId}`, modelId, () => deps.api['models.setThinking']({ id: modelId, thinking })),
        );
      },

      dismissModelsError(key) {
        setActionError(key, null);
      },
    };
  };
