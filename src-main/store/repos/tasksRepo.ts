import type { TaskStatus, TaskSummary } from '../../../src-shared/contract/index.js';
import type { Db } from '../db.js';

export interface TaskRow {
  id: string;
  title: string;
  status: TaskStatus;
  created_at: number;
  updated_at: number;
  message_count: number;
  waiting_calls: number;
}

export const toTask = (row: TaskRow): TaskSummary => ({
  id: row.id,
  title: row.title,
  status: row.status,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  messageCount: row.message_count,
  waitingCalls: row.waiting_calls,
});

const SELECT = `SELECT t.id, t.title, t.status, t.created_at, t.updated_at,
  (SELECT count(*) FROM messages m WHERE m.task_id = t.id) AS message_count,
  (SELECT count(*) FROM tool_calls c WHERE c.task_id = t.id AND c.state = 'pending') AS waiting_calls FROM tasks t`;

export function createTasksRepo(db: Db) {
  const insert = db.prepare<[string, string, TaskStatus, number, number]>(
    'INSERT INTO tasks (id, title, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
  );
  const setStatus = db.prepare<[TaskStatus, number, string]>(
    'UPDATE tasks SET status = ?, updated_at = ? WHERE id = ?',
  );
  const byId = db.prepare<[string], TaskRow>(`${SELECT} WHERE t.id = ?`);
  const newest = db.prepare<[number], TaskRow>(`${SELECT} ORDER BY t.updated_at DESC, t.id LIMIT ?`);
  const running = db.prepare<[], { id: string }>(`SELECT id FROM tasks WHERE status = 'running'`);
  // A range on the primary key, not LIKE: an id holds no wildcard, and the index answers it.
  const consent = db.prepare<[string, string, number]>(
    'INSERT OR IGNORE INTO task_remote_consents (task_id, url, granted_at) VALUES (?, ?, ?)',
  );
  const consented = db.prepare<[string, string], { url: string }>(
    'SELECT url FROM task_remote_consents WHERE task_id = ? AND url = ?',
  );
  const startingWith = db.prepare<[string, string], { id: string }>(
    `SELECT id FROM tasks WHERE id >= ? AND id < ? ORDER BY id LIMIT 2`,
  );

  return {
    create(task: { id: string; title: string; now: number }): void {
      insert.run(task.id, task.title, 'idle', task.now, task.now);
    },
    setStatus(id: string, status: TaskStatus, now: number): void {
      setStatus.run(status, now, id);
    },
    get(id: string): TaskSummary | undefined {
      const row = byId.get(id);
      return row ? toTask(row) : undefined;
    },
    /** The ids that begin with `prefix`, at most two (enough to tell a unique prefix from an ambiguous one). */
    idsStartingWith(prefix: string): string[] {
      return startingWith.all(prefix, `${prefix}\uffff`).map((row) => row.id);
    },
    /** Newest first: the order of the sidebar. */
    list(limit: number): TaskSummary[] {
      return newest.all(limit).map(toTask);
    },
    /** The user let this task send its conversation to the model at `url` (a model on another computer). */
    allowRemote(id: string, url: string, now: number): void {
      consent.run(id, url, now);
    },
    remoteAllowed(id: string, url: string): boolean {
      return consented.get(id, url) !== undefined;
    },
    runningIds(): string[] {
      return running.all().map((r) => r.id);
    },
  };
}
export type TasksRepo = ReturnType<typeof createTasksRepo>;
