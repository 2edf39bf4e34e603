import { join } from 'node:path';
import type { AppError } from '../../src-shared/contract/index.js';
import { DamagedDatabaseError, openDatabase, type Db, type OpenDatabaseOptions } from './db.js';
import { moveDamagedAside } from './moveAside.js';
import { createHistoryRepo, type HistoryRepo } from './repos/historyRepo.js';
import { createAuditRepo, type AuditRepo } from './repos/auditRepo.js';
import { createEgressRepo, type EgressRepo } from './repos/egressRepo.js';
import { createEvalRepo, type EvalRepo } from './repos/evalRepo.js';
import { createMcpRepo, type McpRepo } from './repos/mcpRepo.js';
import { createMessagesRepo, type MessagesRepo } from './repos/messagesRepo.js';
import { createModelsRepo, type ModelsRepo } from './repos/modelsRepo.js';
import { createProvenanceRepo, type ProvenanceRepo } from './repos/provenanceRepo.js';
import { createSettingsRepo, type SettingsRepo } from './repos/settingsRepo.js';
import { createTaskSafetyRepo, type TaskSafetyRepo } from './repos/taskSafetyRepo.js';
import { createTasksRepo, type TasksRepo } from './repos/tasksRepo.js';
import { createToolCallsRepo, type ToolCallsRepo } from './repos/toolCallsRepo.js';
import { rowCounts, wipeDatabase, type WipeResult } from './wipe.js';

export const DATABASE_FILE = 'homebody.db';

export interface Store {
  readonly path: string;
  readonly tasks: TasksRepo;
  readonly messages: MessagesRepo;
  readonly settings: SettingsRepo;
  readonly toolCalls: ToolCallsRepo;
  readonly audit: AuditRepo;
  readonly taskSafety: TaskSafetyRepo;
  /** Untrusted labels that follow content from task to task. */
  readonly provenance: ProvenanceRepo;
  readonly history: HistoryRepo;
  /** Model files on disk and downloads. */
  readonly models: ModelsRepo;
  /** MCP servers, their trusted tool definitions and risk overrides. */
  readonly mcp: McpRepo;
  /** The egress ledger: every connection attempted or seen. */
  readonly egress: EgressRepo;
  /** Evaluation runs, cases recorded from history, and evaluation gates. */
  readonly eval: EvalRepo;
  /** Runs `fn` in one transaction. */
  transaction<T>(fn: () => T): T;
  /**
   * Copies the WAL into the database and truncates it to zero bytes: after a deletion, the deleted rows'
   * old pages are then gone from the WAL file too (secure_delete has zeroed them in the database).
   */
  checkpoint(): void;
  /**
   * "Delete all my data": every row of every table but those in `keep`, in one transaction with secure-delete,
   * then VACUUM and the WAL truncated, so the deleted rows are in neither file.
   */
  wipe(keep?: readonly string[]): WipeResult;
  /** Rows in each table, by name: what a wipe leaves, for its checks. */
  rowCounts(): Record<string, number>;
  /** SQLite's full integrity check plus the search index's own; 'ok' or the problems found. */
  integrityCheck(): string;
  /**
   * Tests only: makes this connection's writes fail as on a full disk (SQLITE_FULL) once they need one more
   * page, or lifts that again. A test cannot fill a real disk safely, and the cap (max_page_count) is
   * per connection, so it must be set on the store's own.
   */
  simulateFullDiskForTests(full: boolean): void;
  close(): void;
}

export function openStore(dataDir: string | ':memory:', options: OpenDatabaseOptions = {}): Store {
  const path = dataDir === ':memory:' ? ':memory:' : join(dataDir, DATABASE_FILE);
  const db: Db = openDatabase(path, options);
  return {
    path,
    tasks: createTasksRepo(db),
    messages: createMessagesRepo(db),
    settings: createSettingsRepo(db),
    toolCalls: createToolCallsRepo(db),
    audit: createAuditRepo(db),
    taskSafety: createTaskSafetyRepo(db),
    provenance: createProvenanceRepo(db),
    history: createHistoryRepo(db),
    models: createModelsRepo(db),
    mcp: createMcpRepo(db),
    egress: createEgressRepo(db),
    eval: createEvalRepo(db),
    transaction: (fn) => db.transaction(fn)(),
    checkpoint: () => {
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    wipe: (keep = []) => wipeDatabase(db, new Set(keep)),
    rowCounts: () => rowCounts(db),
    integrityCheck: () => {
      const problems = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map(
        (r) => r.integrity_check,
      );
      if (problems.join() !== 'ok') return problems.join('\n');
      try {
        db.exec(`INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)`);
      } catch (error) {
        return `search index: ${(error as Error).message}`;
      }
      return 'ok';
    },
    simulateFullDiskForTests: (full) => {
      if (!full) {
        db.pragma('max_page_count = 4294967294');
        return;
      }
      // Free pages would still take writes: VACUUM drops them, then the cap is the size that is left.
      db.exec('VACUUM');
      db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true }))}`);
    },
    close: () => {
      if (db.open) db.close();
    },
  };
}

/**
 * Opens the store for the app: a damaged database is moved aside (never overwritten) and a new, empty one
 * is started, with a notice that tells the user where the old file went. Any other failure (a newer schema,
 * a file that cannot be read) is refused as openStore refuses it.
 */
export function openStoreMovingDamagedAside(
  dataDir: string,
  options: OpenDatabaseOptions = {},
): { store: Store; notices: AppError[] } {
  try {
    return { store: openStore(dataDir, options), notices: [] };
  } catch (error) {
    if (!(error instanceof DamagedDatabaseError) || dataDir === ':memory:') throw error;
    const movedTo = moveDamagedAside(error.path);
    return {
      store: openStore(dataDir, options),
      notices: [
        {
          code: 'STORE_ERROR',
          message: `The history database was damaged (${error.detail}), so Homebody moved it to ${movedTo} and started a new, empty history. The old file was not changed: keep it to recover from, or delete it.`,
        },
      ],
    };
  }
}
