import type { Migration } from './migration.js';

/**
 * A model on another computer: a feature of its own in the egress ledger, each request to it counted both ways (the
 * bytes it sent beside those that came back) with what it carried (the conversation, tool results), so the user sees
 * what left the machine. SQLite cannot widen a CHECK in place: the table is made again and its rows copied, ids kept.
 */
export const migration014: Migration = {
  version: 14,
  name: 'remote_models',
  up: `
    CREATE TABLE egress_events_14 (
      id INTEGER PRIMARY KEY,
      at INTEGER NOT NULL,
      source TEXT NOT NULL,
      feature TEXT CHECK (feature IS NULL OR feature IN ('model-download', 'web', 'mail', 'mcp', 'remote-model')),
      url TEXT NOT NULL,
      host TEXT NOT NULL,
      port INTEGER NOT NULL CHECK (port >= 0),
      allowed INTEGER NOT NULL CHECK (allowed IN (0, 1)),
      reason TEXT,
      bytes INTEGER CHECK (bytes IS NULL OR bytes >= 0),
      via TEXT NOT NULL CHECK (via IN ('guard', 'watcher', 'renderer')),
      sent INTEGER CHECK (sent IS NULL OR sent >= 0),
      carried TEXT
    ) STRICT;
    INSERT INTO egress_events_14 (id, at, source, feature, url, host, port, allowed, reason, bytes, via)
      SELECT id, at, source, feature, url, host, port, allowed, reason, bytes, via FROM egress_events;
    DROP TABLE egress_events;
    ALTER TABLE egress_events_14 RENAME TO egress_events;
    CREATE INDEX egress_events_allowed ON egress_events (allowed, id);
  `,
};
