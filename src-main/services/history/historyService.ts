import { HistoryService } from '../../history/historyService.js';
import type { Store } from '../../store/store.js';
import type { Emit, HandlersOf } from '../handlers.js';

type HistoryMethod =
  | 'history.list'
  | 'history.search'
  | 'history.tools'
  | 'history.export'
  | 'history.import'
  | 'history.delete'
  | 'history.deleteAll'
  | 'history.retention'
  | 'history.setRetention';

/** The retention period is applied at start and then hourly, so old tasks go even in an app left open. */
const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

export interface HistoryAreaDeps {
  readonly store: Store;
  readonly emit: Emit;
  /** Written into exports. */
  readonly appVersion: string;
  /** The chat's replies: a task whose reply runs is stopped before it is deleted. */
  readonly chat: { readonly runner: { isRunning(taskId: string): boolean; stop(taskId: string): Promise<unknown> } };
}

/** The history as the user sees it (history/historyService.ts) behind the contract, and its retention timer. */
export function createHistoryService(deps: HistoryAreaDeps) {
  const service = new HistoryService({
    store: deps.store,
    emit: deps.emit,
    appVersion: deps.appVersion,
    isRunning: (taskId) => deps.chat.runner.isRunning(taskId),
    stopTask: async (taskId) => {
      await deps.chat.runner.stop(taskId);
    },
  });
  const handlers: HandlersOf<HistoryMethod> = {
    'history.list': async ({ after, limit, ...filter }) => service.list(filter, after, limit),
    'history.search': async ({ query, filter, limit }) => ({ hits: service.search(query, filter, limit) }),
    'history.tools': async () => ({ tools: service.toolNames() }),
    'history.export': async ({ taskIds, format }) => service.export(taskIds, format),
    'history.import': async ({ content }) => service.import(content),
    'history.delete': async ({ taskIds }) => ({ deleted: await service.delete(taskIds) }),
    'history.deleteAll': async () => ({ deleted: await service.deleteAll() }),
    'history.retention': async () => service.retention(),
    'history.setRetention': async ({ days }) => service.setRetention(days),
  };
  let retentionTimer: ReturnType<typeof setInterval> | undefined;
  const applyRetention = () =>
    service.applyRetention().catch((error: unknown) => console.error('[host] retention failed:', error));
  return {
    service,
    handlers,
    /** Applies the retention period now and then every hour. */
    startUp(): void {
      void applyRetention();
      retentionTimer = setInterval(() => void applyRetention(), RETENTION_INTERVAL_MS);
      retentionTimer.unref();
    },
    dispose(): void {
      clearInterval(retentionTimer);
    },
  };
}
export type HistoryArea = ReturnType<typeof createHistoryService>;
