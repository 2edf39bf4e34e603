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
/** Set while a bulk deletion's words may remain in the search index's pages. */
export const PURGE_PENDING_KEY = 'searchIndexPurgePending';
/** From this many tasks, a deletion defers the index purge to one rewrite (see `delete`). */
export const BULK_DELETE_FROM = 20;
const BULK_DELETE_CHUNK = 500;
const LARGE_IMPORT_ROWS = 10_000;
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
    // A big import is many small index segments: one rewrite makes later deletions ~3x faster. The WAL,
    // as large as the import, is folded into the database and truncated rather than left on disk.
    if (report.messages + report.toolCalls >= LARGE_IMPORT_ROWS) store.transaction(() => store.history.purgeIndex());
    store.checkpoint();
    if (report.imported > 0) this.deps.emit({ type: 'tasks.imported', count: report.imported });
    return report;
  }

  /**
   * Deletes tasks for real. A task whose reply is running is stopped first. Unknown ids are ignored.
   *
   * A few tasks go in one transaction with FTS5's secure-delete (each word removed from the index at once).
   * Many (a retention sweep, "delete everything") would take ~40 ms a task that way, so they go in chunks
   * that leave tombstones, yielding between chunks so the app stays responsive, and the index is then
   * rewritten without them. A crash in between leaves a pending-purge mark that the next start honours.
   */
  async delete(taskIds: readonly string[], by: 'user' | 'cli' | 'system' = 'user'): Promise<number> {
    const ids = [...new Set(taskIds)];
    for (const id of ids) if (this.deps.isRunning?.(id)) await this.deps.stopTask?.(id);
    const { store } = this.deps;
    let deleted = 0;
    if (ids.length < BULK_DELETE_FROM) {
      deleted = store.transaction(() => {
        const n = store.history.deleteTasks(ids);
        // The audit log keeps that a deletion happened, never what was deleted (titles are content too).
        if (n > 0) this.auditDeletion(n, by);
        return n;
      });
    } else {
      for (let i = 0; i < ids.length; i += BULK_DELETE_CHUNK) {
        const chunk = ids.slice(i, i + BULK_DELETE_CHUNK);
        deleted += store.transaction(() => {
          store.settings.set(PURGE_PENDING_KEY, true);
          return store.history.deleteTasksDeferringPurge(chunk);
        });
        await new Promise((resolve) => setImmediate(resolve));
      }
      store.transaction(() => {
        if (deleted > 0) this.auditDeletion(deleted, by);
        this.purgeIndexNow();
      });
    }
    store.checkpoint();
    if (deleted > 0) this.deps.emit({ type: 'tasks.deleted', taskIds: ids, all: false });
    return deleted;
  }

  async deleteAll(by: 'user' | 'cli' = 'user'): Promise<number> {
    const ids = this.deps.store.history.allIds();
    const deleted = await this.delete(ids, by);
    this.deps.emit({ type: 'tasks.deleted', taskIds: [], all: true });
    return deleted;
  }

  /** Finishes a bulk deletion a crash interrupted: its words may still sit in the index's pages. */
  resumePendingPurge(): boolean {
    const { store } = this.deps;
    if (store.settings.get(PURGE_PENDING_KEY) !== true) return false;
    store.transaction(() => this.purgeIndexNow());
    store.checkpoint();
    return true;
  }

  private purgeIndexNow(): void {
    this.deps.store.history.purgeIndex();
    this.deps.store.settings.delete(PURGE_PENDING_KEY);
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
