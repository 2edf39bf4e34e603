import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db.js';
import { migration001 } from './001_initial.js';

describe('migration 001 (initial)', () => {
  it('creates STRICT tasks, messages and settings tables with their constraints', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, [migration001], 0);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    const tables = db
      .prepare<[], { name: string; strict: number }>(`SELECT name, strict FROM pragma_table_list WHERE schema = 'main'`)
      .all()
      .filter((t) => !t.name.startsWith('sqlite_'));
    expect(tables.map((t) => t.name).sort()).toEqual(['messages', 'settings', 'tasks']);
    expect(tables.every((t) => t.strict === 1)).toBe(true);

    db.prepare(`INSERT INTO tasks VALUES ('t1', 'title', 'idle', 1, 1)`).run();
    expect(() => db.prepare(`INSERT INTO tasks VALUES ('t2', 'title', 'bogus', 1, 1)`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`INSERT INTO tasks VALUES ('t3', 'title', 'idle', 'soon', 1)`).run()).toThrow();
    expect(() =>
      db
        .prepare(
          `INSERT INTO messages (id, task_id, seq, role, text, state, created_at) VALUES ('m', 'nope', 0, 'user', '', 'complete', 1)`,
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    db.prepare(
      `INSERT INTO messages (id, task_id, seq, role, text, state, created_at) VALUES ('m', 't1', 0, 'user', 'hi', 'complete', 1)`,
    ).run();
    db.prepare(`DELETE FROM tasks WHERE id = 't1'`).run();
    expect(db.prepare('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 0 });
  });

  it('rolls back as a whole when a later step fails', () => {
    const db = new Database(':memory:');
    const broken = { version: 2, name: 'broken', up: 'CREATE TABLE x (a INTEGER) STRICT; THIS IS NOT SQL;' };
    expect(() => migrate(db, [migration001, broken], 0)).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'tasks'`).get()).toEqual({ n: 0 });
  });
});
