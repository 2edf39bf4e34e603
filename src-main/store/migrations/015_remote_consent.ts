import type { Migration } from './migration.js';

/**
 * A model on another computer: which nodes each task was allowed to send its conversation to (the user consents
 * once per task and node; deleting the task deletes the consent), and on each reply, the node that wrote it
 * (JSON: url, model, label; null for a reply written on this computer).
 */
export const migration015: Migration = {
  version: 15,
  name: 'remote-consent',
  up: `
    CREATE TABLE task_remote_consents (
      task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
      url TEXT NOT NULL,
      granted_at INTEGER NOT NULL,
      PRIMARY KEY (task_id, url)
    ) STRICT;
    ALTER TABLE messages ADD COLUMN remote_json TEXT;
  `,
};
