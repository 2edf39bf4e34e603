import type { Migration } from './migration.js';

/**
 * Tool calls with their decisions (the approval queue is the calls waiting at
 * the queue gate), the append-only audit log, per-task grants and taint.
 */
export const migration002: Migration = {
  version: 2,
  name: 'tools',
  up: `
    CREATE TABLE tool_calls (
      id TEXT PRIMARY KEY,
      task_id TEXT REFERENCES tasks (id) ON DELETE CASCADE,
      tool TEXT NOT NULL,
      args_json TEXT NOT NULL,
      description_json TEXT NOT NULL,
      risk TEXT NOT NULL CHECK (risk IN ('read', 'write', 'irreversible')),
      gate TEXT NOT NULL CHECK (gate IN ('none', 'prompt', 'queue')),
      state TEXT NOT NULL CHECK (state IN
        ('pending', 'approved', 'executing', 'done', 'failed', 'denied', 'expired', 'interrupted', 'rejected')),
      decision TEXT CHECK (decision IN ('auto', 'allow-once', 'allow-task', 'always', 'approve', 'deny')),
      decided_by TEXT CHECK (decided_by IN ('policy', 'user', 'cli')),
      reason TEXT,
      taint_json TEXT,
      result_json TEXT,
      error TEXT,
      undo_json TEXT,
      undo_state TEXT CHECK (undo_state IN ('available', 'undone', 'failed')),
      created_at INTEGER NOT NULL,
      decided_at INTEGER,
      started_at INTEGER,
      finished_at INTEGER
    ) STRICT;
    CREATE INDEX tool_calls_by_task ON tool_calls (task_id, created_at);
    CREATE INDEX tool_calls_by_state ON tool_calls (state, gate);

    CREATE TABLE audit_events (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      at INTEGER NOT NULL,
      task_id TEXT REFERENCES tasks (id) ON DELETE CASCADE,
      call_id TEXT,
      kind TEXT NOT NULL,
      actor TEXT NOT NULL CHECK (actor IN ('model', 'user', 'policy', 'cli', 'system')),
      summary TEXT NOT NULL,
      detail_json TEXT
    ) STRICT;
    CREATE INDEX audit_events_by_task ON audit_events (task_id, id);
    CREATE TRIGGER audit_events_append_only BEFORE UPDATE ON audit_events
      BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END;

    CREATE TABLE task_grants (
      task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
      tool TEXT NOT NULL,
      granted_at INTEGER NOT NULL,
      PRIMARY KEY (task_id, tool)
    ) STRICT;

    CREATE TABLE task_taint (
      task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
      source TEXT NOT NULL,
      call_id TEXT,
      at INTEGER NOT NULL,
      PRIMARY KEY (task_id, source)
    ) STRICT;
  `,
};
