import { createStore, type StoreApi } from 'zustand/vanilla';
import { toAppError } from '../bridge/apiError.js';
import { createApprovalsSlice } from './approvalsSlice.js';
import { createAuditSlice } from './auditSlice.js';
import { createChatSlice } from './chatSlice.js';
import { browserPageDevice, createDeviceSlice, type PageDevice } from './deviceSlice.js';
import { createDoctorSlice } from './doctorSlice.js';
import { createEvalSlice } from './evalSlice.js';
import { createHistorySlice } from './historySlice.js';
import { createMcpSlice } from './mcpSlice.js';
import { applyDeltas, reduceEvent, sortTasks } from './eventReducer.js';
import { createModelSlice } from './modelSlice.js';
import { createModelsSlice } from './modelsSlice.js';
import { createNodesSlice } from './nodesSlice.js';
import { createPackSettingsSlice } from './packSettingsSlice.js';
import { createPrivacySlice } from './privacySlice.js';
import { createSearchSlice } from './searchSlice.js';
import { createSettingsSlice } from './settingsSlice.js';
import { createTasksSlice, TASK_LIST_LIMIT } from './tasksSlice.js';
import { OPEN_TASK_KEY, type AppState, type StoreDeps } from './types.js';
import { createUiSlice } from './uiSlice.js';

export type AppStore = StoreApi<AppState>;

/** One store of typed slices; the Host is reached only through deps.api. */
export function createAppStore(deps: StoreDeps, page: PageDevice = browserPageDevice()): AppStore {
  return createStore<AppState>()((set, get, store) => ({
    ...createModelSlice(deps)(set, get, store),
    ...createTasksSlice(deps)(set, get, store),
    ...createChatSlice(deps)(set, get, store),
    ...createUiSlice(set, get, store),
    ...createApprovalsSlice(deps)(set, get, store),
    ...createSettingsSlice(deps)(set, get, store),
    ...createAuditSlice(deps)(set, get, store),
    ...createHistorySlice(deps)(set, get, store),
    ...createSearchSlice(deps)(set, get, store),
    ...createDoctorSlice(deps)(set, get, store),
    ...createDeviceSlice(deps, page)(set, get, store),
    ...createModelsSlice(deps)(set, get, store),
    ...createNodesSlice(deps)(set, get, store),
    ...createPackSettingsSlice(deps)(set, get, store),
    ...createMcpSlice(deps)(set, get, store),
    ...createPrivacySlice(deps)(set, get, store),
    ...createEvalSlice(deps)(set, get, store),

    async init() {
      const { api } = deps;
      const approvals = get().loadApprovals();
      // The tools, for what each call card's badge says a call touches; Settings loads them again with the policy.
      void api['tools.list']({})
        .then((tools) => set({ tools }))
        .catch(() => undefined);
      const [info, modelState, catalog, taskList] = await Promise.allSettled([
        api['app.info']({}),
        api['model.state']({}),
        api['model.catalog']({}),
        api['tasks.list']({ limit: TASK_LIST_LIMIT }),
      ]);
      await approvals;
      if (info.status === 'fulfilled') set({ appInfo: info.value, notices: info.value.notices });
      if (modelState.status === 'fulfilled') set({ modelState: modelState.value });
      else set({ modelState: { status: 'none' }, banner: toAppError(modelState.reason) });
      if (catalog.status === 'fulfilled') set({ catalog: catalog.value, catalogError: null });
      else set({ catalogError: toAppError(catalog.reason) });
      if (taskList.status === 'fulfilled') set({ tasks: sortTasks(taskList.value.tasks.slice()), tasksError: null });
      else set({ tasksError: toAppError(taskList.reason) });
      if (info.status === 'rejected' && modelState.status === 'fulfilled') set({ banner: toAppError(info.reason) });
      set({ initialized: true });

      const remembered = deps.storage.get(OPEN_TASK_KEY);
      if (remembered && get().openTaskId === null) await get().openTask(remembered);
    },

    async refresh() {
      const modelState = deps.api['model.state']({}).then(
        (state) => set({ modelState: state }),
        (error: unknown) => set({ banner: toAppError(error) }),
      );
      // The History page's list may have missed deletions and new tasks too.
      const history = get().historyLoaded ? get().loadHistory() : undefined;
      const models = get().modelsListing !== null ? get().loadModels() : undefined;
      const nodes = get().nodes !== null ? get().loadNodes() : undefined;
      // An evaluation may have ended unseen: its line, its results and the gates' scores.
      const evalRuns = get().evalRuns !== null ? get().loadEvalRuns() : undefined;
      const evalRun = get().evalSelectedRunId;
      const evalResults = evalRun !== null ? get().reloadEvalRun(evalRun) : undefined;
      const evalGates = get().evalGates !== null ? get().loadEvalGates() : undefined;
      await Promise.all([
        modelState,
        get().loadTasks(),
        get().reloadOpenTask(),
        get().loadApprovals(),
        history,
        models,
        nodes,
        evalRuns,
        evalResults,
        evalGates,
      ]);
    },

    applyEvent(event) {
      const before = get().openTaskId;
      set((state) => reduceEvent(state, event));
      const after = get().openTaskId;
      if (after !== before) deps.storage.set(OPEN_TASK_KEY, after);
    },

    applyDeltas(batch) {
      set((state) => applyDeltas(state, batch));
    },
  }));
}

/** sessionStorage behind the KeyValueStore interface; a page without storage just forgets. */
export function sessionKeyValueStore(): StoreDeps['storage'] {
  const storage = (() => {
    try {
      return globalThis.sessionStorage ?? null;
    } catch {
      return null;
    }
  })();
  return {
    get: (key) => storage?.getItem(key) ?? null,
    set: (key, value) => {
      try {
        if (value === null) storage?.removeItem(key);
        else storage?.setItem(key, value);
      } catch {
        // Quota or privacy settings: losing the remembered task is harmless.
      }
    },
  };
}
