import type { Db } from '../db.js';

/** Per-task "allow for this task" grants and the untrusted content a task has read (taint). */
export function createTaskSafetyRepo(db: Db) {
  const grant = db.prepare<[string, string, number]>(
    'INSERT OR IGNORE INTO task_grants (task_id, tool, granted_at) VALUES (?, ?, ?)',
  );
  const granted = db.prepare<[string, string], { n: number }>(
    'SELECT count(*) AS n FROM task_grants WHERE task_id = ? AND tool = ?',
  );
  const taint = db.prepare<[string, string, string | null, number]>(
    'INSERT OR IGNORE INTO task_taint (task_id, source, call_id, at) VALUES (?, ?, ?, ?)',
  );
  const taints = db.prepare<[string], { source: string }>(
    'SELECT source FROM task_taint WHERE task_id = ? ORDER BY at',
  );
  const taintsWithTool = db.prepare<[string], { source: string; tool: string | null }>(
    `SELECT t.source, c.tool FROM task_taint t LEFT JOIN tool_calls c ON c.id = t.call_id
     WHERE t.task_id = ? ORDER BY t.at`,
  );
  return {
    grant(taskId: string, tool: string, now: number): void {
      grant.run(taskId, tool, now);
    },
    isGranted(taskId: string, tool: string): boolean {
      return (granted.get(taskId, tool)?.n ?? 0) > 0;
    },
    addTaint(taskId: string, source: string, callId: string | null, now: number): void {
      taint.run(taskId, source, callId, now);
    },
    taintSources(taskId: string): string[] {
      return taints.all(taskId).map((r) => r.source);
    },
    /** Each untrusted source with the tool whose call read it (null when no call is on record). */
    taintRecords(taskId: string): Array<{ source: string; tool: string | null }> {
      return taintsWithTool.all(taskId).map((r) => ({ source: r.source, tool: r.tool }));
    },
  };
}
export type TaskSafetyRepo = ReturnType<typeof createTaskSafetyRepo>;
