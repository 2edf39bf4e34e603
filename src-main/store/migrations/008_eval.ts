import type { Migration } from './migration.js';

/**
 * Evaluation: runs (their results kept as JSON: they are written once a model's cases are done and read whole),
 * cases recorded from history (Homebody case JSON), and the gates that let a tool run without asking while the
 * active model scores high enough on that tool's cases.
 */
export const migration008: Migration = {
  version: 8,
  name: 'eval',
  up: `
    CREATE TABLE eval_runs (
      id TEXT PRIMARY KEY,
      started_at INTEGER NOT NULL,
      finished_at INTEGER,
      status TEXT NOT NULL CHECK (status IN ('running', 'done', 'cancelled', 'failed', 'interrupted')),
      suites TEXT NOT NULL,
      models TEXT NOT NULL,
      total INTEGER NOT NULL CHECK (total >= 0),
      results TEXT NOT NULL,
      error TEXT
    ) STRICT;

    CREATE TABLE eval_cases (
      id TEXT PRIMARY KEY,
      created_at INTEGER NOT NULL,
      task_id TEXT,
      body TEXT NOT NULL
    ) STRICT;

    CREATE TABLE eval_gates (
      tool TEXT PRIMARY KEY,
      threshold REAL NOT NULL CHECK (threshold >= 0 AND threshold <= 1)
    ) STRICT;
  `,
};
