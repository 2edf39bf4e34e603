import type { StateCreator } from 'zustand/vanilla';
import { toAppError } from '../bridge/apiError.js';
import type { AppState, AuditActions, AuditData, StoreDeps } from './types.js';

export const AUDIT_PAGE_SIZE = 50;

export const initialAuditData: AuditData = {
  auditEvents: [],
  auditHasMore: false,
  auditLoading: false,
  auditError: null,
};

/** The audit log, newest first, a page at a time. */
export const createAuditSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], AuditData & AuditActions> =>
  (set, get) => ({
    ...initialAuditData,

    async loadAudit() {
      set({ auditLoading: true, auditError: null });
      try {
        const { events } = await deps.api['audit.list']({ limit: AUDIT_PAGE_SIZE });
        set({
          auditEvents: events.slice().sort((a, b) => b.id - a.id),
          auditHasMore: events.length === AUDIT_PAGE_SIZE,
          auditLoading: false,
        });
      } catch (error) {
        set({ auditLoading: false, auditError: toAppError(error) });
      }
    },

    async loadOlderAudit() {
      const oldest = get().auditEvents.at(-1);
      if (!oldest || get().auditLoading) return;
      set({ auditLoading: true, auditError: null });
      try {
        const { events } = await deps.api['audit.list']({ beforeId: oldest.id, limit: AUDIT_PAGE_SIZE });
        set((state) => {
          const known = new Set(state.auditEvents.map((e) => e.id));
          const older = events.filter((e) => !known.has(e.id)).sort((a, b) => b.id - a.id);
          return {
            auditEvents: [...state.auditEvents, ...older],
            auditHasMore: events.length === AUDIT_PAGE_SIZE,
            auditLoading: false,
          };
        });
      } catch (error) {
        set({ auditLoading: false, auditError: toAppError(error) });
      }
    },
  });
