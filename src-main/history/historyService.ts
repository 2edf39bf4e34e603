import {
  HomebodyError,
  RetentionSchema,
  type ApiResponse,
  type ExportFormat,
  type ExportedTask,
  type HistoryCursor,
  type HistoryFilter,
  type HostEvent,
  type ImportReport,
  type SearchHit,
} from '../../src-shared/contract/index.js';
import type { Store } from '../store/store.js';
import { toFtsQuery } from '../store/searchQuery.js';
import { parseExport, prepareForImport, toJsonExport } from './historyExport.js';
import { toMarkdown } from './markdownExport.js';

export const RETENTION_KEY = 'historyRetentionDays';
const DAY_MS = 86_400_000;
export const DEFAULT_SEARCH_LIMIT = 50;
export const DEFAULT_PAGE_SIZE = 200;

export interface HistoryServiceDeps {
  readonly store: Store;
  readonly emit: (event: HostEvent) => void;
  readonly appVersion: string;
  readonly now?: () => number;
  /** Stops a task's running reply before the task is deleted under it. */
  readonly stopTask?: (taskId: string) => Promise<void>;
  readonly isRunning?: (taskId: string) => boolean;
}

/**
 * The history as the user sees it: browse, search, export, import, delete, retention. Deletion is for real:
 * rows go with their index entries (FTS5 secure-delete), freed pages are zeroed (secure_delete), and the WAL
 * is checkpointed and truncated so no old copy of a page stays in it.
 */
export class HistoryService {
  private readonly now: () => number;

  constructor(private readonly deps: HistoryServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  list(filter: HistoryFilter, after?: HistoryCursor, limit = DEFAULT_PAGE_SIZE): ApiResponse<'history.list'> {
    return this.deps.store.history.list(filter, after, limit);
  }

  search(query: string, filter: HistoryFilter = {}, limit = DEFAULT_SEARCH_LIMIT): SearchHit[] {
    const fts = toFtsQuery(query);
    if (fts === null) return [];
    return this.deps.store.history.search(fts, filter, limit, this.now());
  }

  toolNames(): string[] {
    return this.deps.store.history.toolNames();
  }

  /** The tasks as exported, oldest first; all of them when `taskIds` is undefined. Unknown ids are an error. */
  exportedTasks(taskIds?: readonly string[]): ExportedTask[] {
    const { store } = this.deps;
    const ids = taskIds ?? store.history.allIds();
    const missing = ids.filter((id) => !store.history.hasTask(id));
    if (missing.length) {
      throw new HomebodyError(
        'TASK_NOT_FOUND',
        `There is no task ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ` (and ${missing.length - 3} more)` : ''}; it may have been deleted.`,
      );
    }
    // One read transaction: a task cannot change half-way through its export.
    return store.transaction(() =>
      ids.map((id) => {
        const task = store.tasks.get(id)!;
        return {
          task: {
            id: task.id,
            title: task.title,
            status: task.status,
            createdAt: task.createdAt,
            updatedAt: task.updatedAt,
          },
          messages: store.messages.listForTask(id),
          toolCalls: store.toolCalls.listForTask(id),
          audit: store.audit.forTask(id).map(({ id: _id, ...event }) => event),
        };
      }),
    );
  }

  export(taskIds: readonly string[] | undefined, format: ExportFormat): ApiResponse<'history.export'> {
    const tasks = this.exportedTasks(taskIds);
    const exportedAt = this.now();
    const stamp = new Date(exportedAt).toISOString().slice(0, 10);
    const name = tasks.length === 1 ? 'homebody-task' : 'homebody-history';
    switch (format) {
      case 'json':
        return {
          fileName: `${name}-${stamp}.json`,
          mimeType: 'application/json',
          content: `${JSON.stringify(toJsonExport(tasks, exportedAt, this.deps.appVersion), null, 2)}\n`,
          tasks: tasks.length,
        };
      case 'md':
        return {
          fileName: `${name}-${stamp}.md`,
          mimeType: 'text/markdown',
          content: toMarkdown(tasks, exportedAt),
          tasks: tasks.length,
        };
      default:
        return format satisfies never;
    }
  }

  /** Imports a JSON export in one transaction: all of it or, on any error, none of it. */
  import(content: string): ImportReport {
    const parsed = parseExport(content);
    const { store } = this.deps;
    const report: ImportReport = { imported: 0, skipped: 0, messages: 0, toolCalls: 0 };
    store.transaction(() => {
      for (const exported of parsed.tasks) {
        if (store.history.hasTask(exported.task.id)) {
          report.skipped++;
          continue;
        }
        const safe = prepareForImport(exported);
        store.history.insertTask(safe.task);
        for (const m of safe.messages) store.history.insertMessage(m);
        for (const c of safe.toolCalls) store.history.insertToolCall(c);
        for (const e of safe.audit) store.history.insertAudit(e);
        report.imported++;
        report.messages += safe.messages.length;
        report.toolCalls += safe.toolCalls.length;
      }
      store.audit.append({
        at: this.now(),
        taskId: null,
        callId: null,
        kind: 'history-imported',
        actor: 'user',
        summary: `Imported ${report.imported} task(s) from a history export; ${report.skipped} already here were kept`,
        detail: report,
      });
    });
    if (report.imported > 0) this.deps.emit({ type: 'tasks.imported', count: report.imported });
    return report;
  }

  /** Deletes tasks for real. A task whose reply is running is stopped first. Unknown ids are ignored. */
  async delete(taskIds: readonly string[], by: 'user' | 'cli' | 'system' = 'user'): Promise<number> {
    const ids = [...new Set(taskIds)];
    for (const id of ids) if (this.deps.isRunning?.(id)) await this.deps.stopTask?.(id);
    const { store } = this.deps;
    const deleted = store.transaction(() => {
      const n = store.history.deleteTasks(ids);
      // The audit log keeps that a deletion happened, never what was deleted (titles are content too).
      if (n > 0) this.auditDeletion(n, by);
      return n;
    });
    store.checkpoint();
    if (deleted > 0) this.deps.emit({ type: 'tasks.deleted', taskIds: ids, all: false });
    return deleted;
  }

  async deleteAll(by: 'user' | 'cli' = 'user'): Promise<number> {
    const { store } = this.deps;
    for (const id of store.tasks.runningIds()) await this.deps.stopTask?.(id);
    const deleted = store.transaction(() => {
      const n = store.history.deleteAll();
      this.auditDeletion(n, by, true);
      return n;
    });
    store.checkpoint();
    this.deps.emit({ type: 'tasks.deleted', taskIds: [], all: true });
    return deleted;
  }

  retention(): { days: number | null } {
    const parsed = RetentionSchema.safeParse({ days: this.deps.store.settings.get(RETENTION_KEY) ?? null });
    return parsed.success ? parsed.data : { days: null };
  }

  async setRetention(days: number | null): Promise<{ days: number | null; deleted: number }> {
    this.deps.store.settings.set(RETENTION_KEY, days);
    return { days, deleted: await this.applyRetention() };
  }

  /** Deletes tasks whose last activity is older than the retention period; none when there is no period. */
  async applyRetention(): Promise<number> {
    const { days } = this.retention();
    if (days === null) return 0;
    const ids = this.deps.store.history.idsOlderThan(this.now() - days * DAY_MS);
    return ids.length ? this.delete(ids, 'system') : 0;
  }

  private auditDeletion(count: number, by: 'user' | 'cli' | 'system', all = false): void {
    this.deps.store.audit.append({
      at: this.now(),
      taskId: null,
      callId: null,
      kind: 'history-deleted',
      actor: by,
      summary: all
        ? `Deleted the whole history (${count} task(s))`
        : `Deleted ${count} task(s)${by === 'system' ? ' past the retention period' : ''}`,
      detail: { count },
    });
  }
}
