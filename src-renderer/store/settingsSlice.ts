import type { StateCreator } from 'zustand/vanilla';
import type { Policy } from '../../src-shared/contract/index.js';
import { toAppError } from '../bridge/apiError.js';
import type { ActionResult, AppState, SettingsActions, SettingsData, StoreDeps } from './types.js';

export const initialSettingsData: SettingsData = {
  policy: null,
  folderStates: [],
  tools: [],
  settingsError: null,
  settingsBusy: false,
};

/** The policy (granted folders, per-tool modes) and the tools it applies to. */
export const createSettingsSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], SettingsData & SettingsActions> =>
  (set) => {
    /** Runs one policy change; the Host answers with the whole new policy. Errors land in settingsError. */
    const change = async (call: () => Promise<Policy>): Promise<ActionResult> => {
      set({ settingsBusy: true, settingsError: null });
      try {
        const policy = await call();
        set({ policy, settingsBusy: false });
        void loadFolderStates();
        return null;
      } catch (error) {
        const appError = toAppError(error);
        // A broad grant's warning is a question for the page to ask, not an error to show.
        set({ settingsBusy: false, settingsError: appError.code === 'CONFIRMATION_REQUIRED' ? null : appError });
        return appError;
      }
    };
    const loadFolderStates = async () => {
      try {
        set({ folderStates: (await deps.api['policy.folders']({})).folders });
      } catch {
        // The folders still show; only the "changed since granted" marks are missing until the next load.
      }
    };

    return {
      ...initialSettingsData,

      async loadSettings() {
        const [policy, tools] = await Promise.allSettled([deps.api['policy.get']({}), deps.api['tools.list']({})]);
        if (policy.status === 'fulfilled') set({ policy: policy.value });
        void loadFolderStates();
        if (tools.status === 'fulfilled') set({ tools: tools.value });
        const failed = policy.status === 'rejected' ? policy.reason : tools.status === 'rejected' ? tools.reason : null;
        set({ settingsError: failed === null ? null : toAppError(failed) });
      },

      setToolMode: (tool, mode) => change(() => deps.api['policy.setMode']({ tool, mode })),

      grantFolder(path, untrusted, confirmBroad = false) {
        const trimmed = path.trim();
        if (!trimmed) {
          const error = { code: 'INVALID_REQUEST', message: 'Enter the path of a folder.' } as const;
          set({ settingsError: error });
          return Promise.resolve(error);
        }
        return change(() =>
          deps.api['policy.grantFolder']({ path: trimmed, untrusted, ...(confirmBroad ? { confirmBroad: true } : {}) }),
        );
      },

      revokeFolder: (path) => change(() => deps.api['policy.revokeFolder']({ path })),

      importPolicy: (policy, confirmBroad = false) =>
        change(() => deps.api['policy.set']({ policy, ...(confirmBroad ? { confirmBroad: true } : {}) })),

      showSettingsError: (error) => set({ settingsError: error }),
    };
  };
