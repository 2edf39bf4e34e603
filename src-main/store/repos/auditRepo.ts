import type { AuditEvent, CallPath, DecisionBasis, DecisionBasisKind } from '../../../src-shared/contract/index.js';
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
  basis_json: string | null;
}

interface PathRow {
  event_id: number;
  arg: string;
  role: CallPath['role'];
  given: string;
  path: string;
  root: string | null;
  untrusted: 0 | 1;
}

/** An event to append; its basis and paths are optional (events that decide nothing have neither). */
export type NewAuditEvent = Omit<AuditEvent, 'id' | 'basis' | 'paths'> & {
  readonly basis?: DecisionBasis | null;
  readonly paths?: readonly CallPath[];
};

/** Which events a page shows; every field narrows it. */
export interface AuditFilter {
  readonly taskId?: string;
  readonly callId?: string;
  /** Events about this exact absolute path. */
  readonly path?: string;
  readonly basis?: DecisionBasisKind;
  readonly kind?: string;
}

/**
 * The append-only audit log (a trigger refuses updates): every proposal, decision and execution, with the basis
 * of each decision as data and the files it concerned, so "who allowed this deletion, and why" is a query.
 */
export function createAuditRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO audit_events (at, task_id, call_id, kind, actor, summary, detail_json, basis_kind, basis_json)
     VALUES (@at, @taskId, @callId, @kind, @actor, @summary, @detail, @basisKind, @basis)`,
  );
  const insertPath = db.prepare(
    `INSERT OR IGNORE INTO audit_paths (event_id, arg, role, given, path, root, untrusted)
     VALUES (@eventId, @arg, @role, @given, @path, @root, @untrusted)`,
  );
  const forTask = db.prepare<[string], AuditRow>('SELECT * FROM audit_events WHERE task_id = ? ORDER BY id');
  const pathsOf = db.prepare<[string], PathRow>(
    'SELECT * FROM audit_paths WHERE event_id IN (SELECT value FROM json_each(?)) ORDER BY event_id, rowid',
  );

  const toEvents = (rows: AuditRow[]): AuditEvent[] => {
    const paths = new Map<number, CallPath[]>();
    if (rows.length > 0) {
      for (const p of pathsOf.all(JSON.stringify(rows.map((r) => r.id)))) {
        const list = paths.get(p.event_id) ?? [];
        list.push({
          arg: p.arg,
          role: p.role,
          given: p.given,
          path: p.path,
          root: p.root,
          untrusted: p.untrusted === 1,
        });
        paths.set(p.event_id, list);
      }
    }
    return rows.map((row) => ({
      id: row.id,
      at: row.at,
      taskId: row.task_id,
      callId: row.call_id,
      kind: row.kind,
      actor: row.actor,
      summary: row.summary,
      detail: row.detail_json === null ? null : (JSON.parse(row.detail_json) as unknown),
      basis: row.basis_json === null ? null : (JSON.parse(row.basis_json) as DecisionBasis),
      paths: paths.get(row.id) ?? [],
    }));
  };

  const append = db.transaction((event: NewAuditEvent) => {
    const { lastInsertRowid } = insert.run({
      at: event.at,
      taskId: event.taskId,
      callId: event.callId,
      kind: event.kind,
      actor: event.actor,
      summary: event.summary,
      detail: event.detail === null ? null : JSON.stringify(event.detail),
      basisKind: event.basis?.kind ?? null,
      basis: event.basis ? JSON.stringify(event.basis) : null,
    });
    for (const p of event.paths ?? []) {
      insertPath.run({ eventId: Number(lastInsertRowid), ...p, untrusted: p.untrusted ? 1 : 0 });
    }
  });

  return {
    append(event: NewAuditEvent): void {
      append(event);
    },
    /** Newest first, `limit` events older than `beforeId` that match the filter. */
    page(beforeId: number, limit: number, filter: AuditFilter = {}): AuditEvent[] {
      const where = ['e.id < @beforeId'];
      if (filter.taskId !== undefined) where.push('e.task_id = @taskId');
      if (filter.callId !== undefined) where.push('e.call_id = @callId');
      if (filter.basis !== undefined) where.push('e.basis_kind = @basis');
      if (filter.kind !== undefined) where.push('e.kind = @kind');
      if (filter.path !== undefined)
        where.push('EXISTS (SELECT 1 FROM audit_paths p WHERE p.event_id = e.id AND p.path = @path)');
      // The clauses are fixed text; every value is bound.
      const rows = db
        .prepare<Record<string, unknown>, AuditRow>(
          `SELECT e.* FROM audit_events e WHERE ${where.join(' AND ')} ORDER BY e.id DESC LIMIT @limit`,
        )
        .all({ beforeId, limit, ...filter });
      return toEvents(rows);
    },
    forTask(taskId: string): AuditEvent[] {
      return toEvents(forTask.all(taskId));
    },
  };
}
export type AuditRepo = ReturnType<typeof createAuditRepo>;
