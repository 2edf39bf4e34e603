import type { Migration } from './migration.js';

/**
 * The broker's decisions as data, and labels that follow untrusted content.
 * - tool_calls: the call's path arguments as the user was shown them (absolute, with their granted folders), and the
 *   basis of its latest decision.
 * - audit_events: the basis of each decision (its kind in a column of its own, so "who allowed this" is a query),
 *   and audit_paths: the files each event concerns, indexed by path.
 * - provenance_labels: content that others wrote, by what now holds it (`file:` + path, or a pack item such as
 *   `note:` + file name): what a tainted task wrote, and what was copied or moved from such content. Reading a
 *   labelled item taints the reader. A label outlives the task that made it (the content is still there), but not
 *   its link to that task.
 */
export const migration009: Migration = {
  version: 9,
  name: 'decisions',
  up: `
    ALTER TABLE tool_calls ADD COLUMN paths_json TEXT;
    ALTER TABLE tool_calls ADD COLUMN basis_json TEXT;

    ALTER TABLE audit_events ADD COLUMN basis_kind TEXT;
    ALTER TABLE audit_events ADD COLUMN basis_json TEXT;
    CREATE INDEX audit_events_by_basis ON audit_events (basis_kind, id);
    CREATE INDEX audit_events_by_call ON audit_events (call_id, id);

    CREATE TABLE audit_paths (
      event_id INTEGER NOT NULL REFERENCES audit_events (id) ON DELETE CASCADE,
      arg TEXT NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('existing', 'entry', 'create', 'destination', 'target')),
      given TEXT NOT NULL,
      path TEXT NOT NULL,
      root TEXT,
      untrusted INTEGER NOT NULL CHECK (untrusted IN (0, 1)),
      PRIMARY KEY (event_id, arg)
    ) STRICT;
    CREATE INDEX audit_paths_by_path ON audit_paths (path, event_id);

    CREATE TABLE provenance_labels (
      key TEXT NOT NULL,
      source TEXT NOT NULL,
      task_id TEXT REFERENCES tasks (id) ON DELETE SET NULL,
      call_id TEXT,
      at INTEGER NOT NULL,
      PRIMARY KEY (key, source)
    ) STRICT;
  `,
};
