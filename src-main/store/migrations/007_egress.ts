import type { Migration } from './migration.js';

/**
 * The egress ledger: every connection Homebody attempted, asked through the egress guard (allowed or blocked) or
 * seen by a watcher. URLs are kept without query or fragment. The repository keeps the newest 10,000 rows.
 */
export const migration007: Migration = {
  version: 7,
  name: 'egress',
  up: `
    CREATE TABLE egress_events (
      id INTEGER PRIMARY KEY,
      at INTEGER NOT NULL,
      source TEXT NOT NULL,
      feature TEXT CHECK (feature IS NULL OR feature IN ('model-download', 'web', 'mail', 'mcp')),
      url TEXT NOT NULL,
      host TEXT NOT NULL,
      port INTEGER NOT NULL CHECK (port >= 0),
      allowed INTEGER NOT NULL CHECK (allowed IN (0, 1)),
      reason TEXT,
      bytes INTEGER CHECK (bytes IS NULL OR bytes >= 0),
      via TEXT NOT NULL CHECK (via IN ('guard', 'watcher', 'renderer'))
    ) STRICT;

    CREATE INDEX egress_events_allowed ON egress_events (allowed, id);
  `,
};
