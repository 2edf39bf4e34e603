import type { Migration } from './migration.js';

/** Tasks (conversations), their messages, and a small key-value table for app settings. */
export const migration001: Migration = {
  version: 1,
  name: 'initial',
  up: `
    CREATE TABLE tasks (
      id TEXT PRIMARY KEY,
      title TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('idle', 'running', 'completed', 'stopped', 'failed')),
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX tasks_by_updated ON tasks (updated_at DESC, id);

    CREATE TABLE messages (
      id TEXT PRIMARY KEY,
      task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
      text TEXT NOT NULL,
      reasoning TEXT NOT NULL DEFAULT '',
      state TEXT NOT NULL CHECK (state IN ('streaming', 'complete', 'stopped', 'truncated', 'interrupted', 'failed')),
      created_at INTEGER NOT NULL,
      prompt_tokens INTEGER,
      completion_tokens INTEGER,
      ttft_ms REAL,
      tokens_per_second REAL,
      error TEXT,
      UNIQUE (task_id, seq)
    ) STRICT;

    CREATE TABLE settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) STRICT;
  `,
};
