import { join } from 'node:path';
import { openDatabase, type Db, type OpenDatabaseOptions } from './db.js';
import { createAuditRepo, type AuditRepo } from './repos/auditRepo.js';
import { createMessagesRepo, type MessagesRepo } from './repos/messagesRepo.js';
import { createSettingsRepo, type SettingsRepo } from './repos/settingsRepo.js';
import { createTaskSafetyRepo, type TaskSafetyRepo } from './repos/taskSafetyRepo.js';
import { createTasksRepo, type TasksRepo } from './repos/tasksRepo.js';
import { createToolCallsRepo, type ToolCallsRepo } from './repos/toolCallsRepo.js';

export const DATABASE_FILE = 'homebody.db';

export interface Store {
  readonly path: string;
  readonly tasks: TasksRepo;
  readonly messages: MessagesRepo;
  readonly settings: SettingsRepo;
  readonly toolCalls: ToolCallsRepo;
  readonly audit: AuditRepo;
  readonly taskSafety: TaskSafetyRepo;
  /** Runs `fn` in one transaction. */
  transaction<T>(fn: () => T): T;
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
    transaction: (fn) => db.transaction(fn)(),
    close: () => {
      if (db.open) db.close();
    },
  };
}
