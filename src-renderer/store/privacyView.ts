import type { EgressEvent } from '../../src-shared/contract/index.js';
import type { AppData } from './types.js';

/** The ledger as the Privacy page holds it: the loaded page(s), newest first, and the filter's totals. */
export type LedgerState = Pick<AppData, 'ledgerEvents' | 'ledgerTotal' | 'ledgerAllowedCount' | 'ledgerAllowedOnly'>;

/**
 * What one `egress.recorded` event changes: a new connection goes on top (and into the totals) when it matches the
 * filter; a known one (its bytes grew) is replaced where it is. Nothing before the first page is loaded.
 */
export function applyEgressEvent(state: LedgerState, event: EgressEvent): Partial<AppData> {
  if (state.ledgerTotal === null) return {};
  const index = state.ledgerEvents.findIndex((e) => e.id === event.id);
  if (index !== -1) {
    const events = state.ledgerEvents.slice();
    events[index] = event;
    return { ledgerEvents: events };
  }
  if (state.ledgerAllowedOnly && !event.allowed) return {};
  // Older than the newest shown: a page boundary raced the event; the next reload shows it in its place.
  const newest = state.ledgerEvents[0];
  if (newest && event.id < newest.id) return {};
  return {
    ledgerEvents: [event, ...state.ledgerEvents],
    ledgerTotal: state.ledgerTotal + 1,
    ledgerAllowedCount: state.ledgerAllowedCount + (event.allowed ? 1 : 0),
  };
}

/** Appends an older page below what is shown, dropping any event already there. */
export function appendOlderLedger(shown: readonly EgressEvent[], older: readonly EgressEvent[]): EgressEvent[] {
  const known = new Set(shown.map((e) => e.id));
  return [...shown, ...older.filter((e) => !known.has(e.id)).sort((a, b) => b.id - a.id)];
}

/** "3 connections attempted, 1 allowed" (or, filtered, "1 allowed connection"). */
export function ledgerCountLine(total: number, allowed: number, allowedOnly: boolean): string {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  if (allowedOnly) return plural(total, 'allowed connection', 'allowed connections');
  return `${plural(total, 'connection', 'connections')} attempted, ${allowed} allowed`;
}

/**
 * Everything the renderer held of the user's data, gone after "delete all my data": tasks, the open chat, the
 * queue, the history's totals, the audit log and the ledger (the history list and search go as for "delete all
 * tasks", see the reducer). The lists are then fetched again (connectHost).
 */
export function dataDeletedState(state: AppData): Partial<AppData> {
  return {
    historyTotal: state.historyTotal === null ? null : 0,
    historyTools: [],
    tasks: [],
    openTaskId: null,
    openTaskSummary: null,
    messages: [],
    toolCalls: [],
    awaitingNewTask: false,
    chatError: null,
    queue: [],
    auditEvents: [],
    auditHasMore: false,
    ledgerEvents: [],
    ledgerTotal: state.ledgerTotal === null ? null : 0,
    ledgerAllowedCount: 0,
    ledgerAllowErrors: {},
  };
}
