import type { StateCreator } from 'zustand/vanilla';
import { DELETE_ALL_CONFIRMATION, type NetworkSettingsView } from '../../src-shared/contract/index.js';
import { toAppError } from '../bridge/apiError.js';
import { appendOlderLedger } from './privacyView.js';
import type { ActionResult, AppState, PrivacyActions, PrivacyData, StoreDeps } from './types.js';

export const LEDGER_PAGE_SIZE = 50;

export const initialPrivacyData: PrivacyData = {
  privacyNetwork: null,
  privacyNetworkBusy: false,
  privacyNetworkError: null,
  ledgerEvents: [],
  ledgerTotal: null,
  ledgerAllowedCount: 0,
  ledgerAllowedOnly: false,
  ledgerLoading: false,
  ledgerError: null,
  ledgerAllowErrors: {},
  storageReport: null,
  storageLoading: false,
  storageError: null,
  dataDeleting: false,
};

/** The Privacy page: what may leave the machine, what tried to, and what is kept on it. */
export const createPrivacySlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], PrivacyData & PrivacyActions> =>
  (set, get) => {
    /** `inPlace`: the caller shows the error where the action was (a form field, a ledger row). */
    const changeNetwork = async (call: () => Promise<NetworkSettingsView>, inPlace = false): Promise<ActionResult> => {
      set({ privacyNetworkBusy: true, privacyNetworkError: null });
      try {
        set({ privacyNetwork: await call(), privacyNetworkBusy: false });
        return null;
      } catch (error) {
        const appError = toAppError(error);
        set({ privacyNetworkBusy: false, ...(inPlace ? {} : { privacyNetworkError: appError }) });
        return appError;
      }
    };
    // A newer page request (a filter change) makes an older answer stale.
    let ledgerRequest = 0;
    return {
      ...initialPrivacyData,

      async loadPrivacy() {
        await Promise.all([get().loadNetwork(), get().loadLedger(), get().loadStorage()]);
      },

      async loadNetwork() {
        try {
          set({ privacyNetwork: await deps.api['privacy.network']({}), privacyNetworkError: null });
        } catch (error) {
          set({ privacyNetworkError: toAppError(error) });
        }
      },

      setOfflineMode: (offline) => changeNetwork(() => deps.api['privacy.setNetwork']({ offline })),

      removeNetworkRule(rule) {
        const rules = (get().privacyNetwork?.rules ?? []).filter(
          (r) => !(r.feature === rule.feature && r.host === rule.host),
        );
        return changeNetwork(() => deps.api['privacy.setNetwork']({ rules }));
      },

      allowHost: (rule) => changeNetwork(() => deps.api['privacy.allow'](rule), true),

      async allowFromLedger(eventId, rule) {
        const { [eventId]: _dropped, ...rest } = get().ledgerAllowErrors;
        set({ ledgerAllowErrors: rest });
        const error = await get().allowHost(rule);
        if (error) set({ ledgerAllowErrors: { ...get().ledgerAllowErrors, [eventId]: error } });
        return error;
      },

      async loadLedger() {
        const request = ++ledgerRequest;
        set({ ledgerLoading: true, ledgerError: null });
        try {
          const page = await deps.api['privacy.ledger']({
            limit: LEDGER_PAGE_SIZE,
            ...(get().ledgerAllowedOnly ? { allowedOnly: true } : {}),
          });
          if (request !== ledgerRequest) return;
          set({
            ledgerEvents: page.events.slice().sort((a, b) => b.id - a.id),
            ledgerTotal: page.total,
            ledgerAllowedCount: page.allowedCount,
            ledgerLoading: false,
          });
        } catch (error) {
          if (request === ledgerRequest) set({ ledgerLoading: false, ledgerError: toAppError(error) });
        }
      },

      async loadOlderLedger() {
        const oldest = get().ledgerEvents.at(-1);
        if (!oldest || get().ledgerLoading) return;
        const request = ++ledgerRequest;
        set({ ledgerLoading: true, ledgerError: null });
        try {
          const page = await deps.api['privacy.ledger']({
            limit: LEDGER_PAGE_SIZE,
            beforeId: oldest.id,
            ...(get().ledgerAllowedOnly ? { allowedOnly: true } : {}),
          });
          if (request !== ledgerRequest) return;
          set((state) => ({ ledgerEvents: appendOlderLedger(state.ledgerEvents, page.events), ledgerLoading: false }));
        } catch (error) {
          if (request === ledgerRequest) set({ ledgerLoading: false, ledgerError: toAppError(error) });
        }
      },

      async setLedgerAllowedOnly(allowedOnly) {
        set({ ledgerAllowedOnly: allowedOnly });
        await get().loadLedger();
      },

      async loadStorage() {
        set({ storageLoading: true, storageError: null });
        try {
          set({ storageReport: await deps.api['privacy.storage']({}), storageLoading: false });
        } catch (error) {
          set({ storageLoading: false, storageError: toAppError(error) });
        }
      },

      async deleteAllData(typed, includeModels) {
        if (typed.trim() !== DELETE_ALL_CONFIRMATION) {
          return {
            ok: false,
            error: { code: 'INVALID_REQUEST', message: `Type "${DELETE_ALL_CONFIRMATION}" to confirm.` },
          };
        }
        set({ dataDeleting: true });
        try {
          const value = await deps.api['privacy.deleteAllData']({ confirm: DELETE_ALL_CONFIRMATION, includeModels });
          set({ dataDeleting: false });
          await get().loadStorage();
          return { ok: true, value };
        } catch (error) {
          set({ dataDeleting: false });
          return { ok: false, error: toAppError(error) };
        }
      },

      async reloadAfterDataDeleted() {
        const state = get();
        // Evaluation runs, recorded cases and gates went with the rest: forget the run on screen.
        if (state.evalRuns !== null) set({ evalSelectedRunId: null, evalRun: null });
        await Promise.all([
          state.loadTasks(),
          state.loadApprovals(),
          state.historyLoaded ? state.loadHistory() : undefined,
          state.historyRetention !== undefined ? state.loadRetention() : undefined,
          state.policy !== null ? state.loadSettings() : undefined,
          state.packSettings !== null ? state.loadPackSettings() : undefined,
          state.mcpServers !== null ? state.loadMcp() : undefined,
          state.evalRuns !== null ? state.loadEval() : undefined,
          state.modelsListing !== null ? state.loadModels() : undefined,
          state.nodes !== null ? state.loadNodes() : undefined,
          state.loadAudit(),
          state.loadPrivacy(),
        ]);
      },
    };
  };
