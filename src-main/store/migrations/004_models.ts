import type { Migration } from './migration.js';

/**
 * The model manager: the model files Homebody knows (downloaded into its models folder, or added by the user from
 * elsewhere) and the downloads, kept so a paused or interrupted download resumes after a restart.
 */
export const migration004: Migration = {
  version: 4,
  name: 'models',
  up: `
    CREATE TABLE models (
      id TEXT PRIMARY KEY,
      path TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      size_bytes INTEGER NOT NULL CHECK (size_bytes >= 0),
      source TEXT NOT NULL CHECK (source IN ('downloaded', 'added')),
      catalog_id TEXT,
      sha256 TEXT CHECK (sha256 IS NULL OR length(sha256) = 64),
      integrity TEXT NOT NULL CHECK (integrity IN ('sha256-matched', 'size-matched', 'unchecked', 'mismatch')),
      added_at INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE model_downloads (
      id TEXT PRIMARY KEY,
      catalog_id TEXT,
      uri TEXT NOT NULL,
      file_name TEXT NOT NULL,
      path TEXT NOT NULL,
      staging_dir TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN
        ('queued', 'downloading', 'paused', 'verifying', 'done', 'failed', 'cancelled')),
      bytes INTEGER NOT NULL DEFAULT 0 CHECK (bytes >= 0),
      total_bytes INTEGER,
      expected_size INTEGER,
      expected_sha256 TEXT CHECK (expected_sha256 IS NULL OR length(expected_sha256) = 64),
      error_code TEXT,
      error_message TEXT,
      model_id TEXT REFERENCES models (id) ON DELETE SET NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX model_downloads_by_created ON model_downloads (created_at DESC, id);
  `,
};
