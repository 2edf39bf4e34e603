import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db.js';
import { migration001 } from './001_initial.js';
import { migration002 } from './002_tools.js';
import { migration003 } from './003_search.js';
import { migration004 } from './004_models.js';

const UP_TO_3 = [migration001, migration002, migration003];

function migrated() {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db, [...UP_TO_3, migration004], 0);
  return db;
}

const insertModel = (db: Database.Database, id: string, integrity = 'sha256-matched') =>
  db
    .prepare(
      `INSERT INTO models (id, path, name, size_bytes, source, catalog_id, sha256, integrity, added_at)
       VALUES (?, ?, 'm', 1, 'downloaded', 'c', ?, ?, 1)`,
    )
    .run(id, `/models/${id}.gguf`, 'a'.repeat(64), integrity);

const insertDownload = (db: Database.Database, id: string, state: string, modelId: string | null = null) =>
  db
    .prepare(
      `INSERT INTO model_downloads (id, catalog_id, uri, file_name, path, staging_dir, state, model_id, created_at, updated_at)
       VALUES (?, 'c', 'hf:o/r/f.gguf', 'f.gguf', '/models/f.gguf', '/models/.downloads/x', ?, ?, 1, 1)`,
    )
    .run(id, state, modelId);

describe('migration 004 (models)', () => {
  it('upgrades a version 3 database in place, keeping its tasks', () => {
    const db = new Database(':memory:');
    migrate(db, UP_TO_3, 0);
    db.prepare(`INSERT INTO tasks VALUES ('old', 'kept', 'completed', 1, 1)`).run();
    migrate(db, [...UP_TO_3, migration004], 3);
    expect(db.pragma('user_version', { simple: true })).toBe(4);
    expect(db.prepare('SELECT title FROM tasks').get()).toEqual({ title: 'kept' });
    expect(db.prepare('SELECT count(*) AS n FROM models').get()).toEqual({ n: 0 });
  });

  it('keeps download states, integrity values and paths to their sets', () => {
    const db = migrated();
    insertModel(db, 'm1');
    expect(() => insertModel(db, 'm2', 'trusted')).toThrow(/CHECK/);
    expect(() => insertModel(db, 'm1')).toThrow(/UNIQUE/);
    for (const state of ['queued', 'downloading', 'paused', 'verifying', 'done', 'failed', 'cancelled']) {
      insertDownload(db, `d-${state}`, state);
    }
    expect(() => insertDownload(db, 'bad', 'stalled')).toThrow(/CHECK/);
  });

  it('forgets the model of a download when the model is removed', () => {
    const db = migrated();
    insertModel(db, 'm1');
    insertDownload(db, 'd1', 'done', 'm1');
    db.prepare(`DELETE FROM models WHERE id = 'm1'`).run();
    expect(db.prepare(`SELECT state, model_id FROM model_downloads WHERE id = 'd1'`).get()).toEqual({
      state: 'done',
      model_id: null,
    });
  });
});
