import type { AuditEvent } from '../../../src-shared/contract/index.js';
import type { Db } from '../db.js';

interface AuditRow {
  id: number;
  at: number;
  task_id: string | null;
  call_id: string | null;
  kind: string;
  actor: AuditEvent['actor'];
  summary: string;
  detail_json: string | null;
}

export type NewAuditEvent = Omit<AuditEvent, 'id'>;

/** The append-only audit log (a trigger refuses updates): every proposal, decision and execution. */
export function createAuditRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO audit_events (at, task_id, call_id, kind, actor, summary, detail_json)
     VALUES (@at, @taskId, @callId, @kind, @actor, @summary, @detail)`,
  );
  const page = db.prepare<[number, number], AuditRow>(
    'SELECT * FROM audit_events WHERE id < ? ORDER BY id DESC LIMIT ?',
  );
  const forTask = db.prepare<[string], AuditRow>('SELECT * FROM audit_events WHERE task_id = ? ORDER BY id');
  const toEvent = (row: AuditRow): AuditEvent => ({
    id: row.id,
    at: row.at,
    taskId: row.task_id,
    callId: row.call_id,
    kind: row.kind,
    actor: row.actor,
    summary: row.summary,
    detail: row.detail_json === null ? null : (JSON.parse(row.detail_json) as unknown),
  });
  return {
    append(event: NewAuditEvent): void {
      insert.run({ ...event, detail: event.detail === null ? null : JSON.stringify(event.detail) });
    },
    /** Newest first, `limit` events older than `beforeId`. */
    page(beforeId: number, limit: number): AuditEvent[] {
      return page.all(beforeId, limit).map(toEvent);
    },
    forTask(taskId: string): AuditEvent[] {
      return forTask.all(taskId).map(toEvent);
    },
  };
}
export type AuditRepo = ReturnType<typeof createAuditRepo>;
