import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db.js';
import { migration001 } from './001_initial.js';
import { migration002 } from './002_tools.js';

function migrated() {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db, [migration001, migration002], 0);
  db.prepare(`INSERT INTO tasks VALUES ('t', 'task', 'idle', 1, 1)`).run();
  return db;
}

describe('migration 002 (tools)', () => {
  it('upgrades a version 1 database in place, keeping its tasks', () => {
    const db = new Database(':memory:');
    migrate(db, [migration001], 0);
    db.prepare(`INSERT INTO tasks VALUES ('old', 'kept', 'completed', 1, 1)`).run();
    migrate(db, [migration001, migration002], 1);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(db.prepare('SELECT title FROM tasks').get()).toEqual({ title: 'kept' });
  });

  it('keeps call states and risks to their sets', () => {
    const db = migrated();
    const insert = db.prepare(
      `INSERT INTO tool_calls (id, task_id, tool, args_json, description_json, risk, gate, state, created_at) VALUES (?, 't', 'x', '{}', '{}', ?, 'none', ?, 1)`,
    );
    insert.run('a', 'read', 'pending');
    expect(() => insert.run('b', 'dangerous', 'pending')).toThrow(/CHECK/);
    expect(() => insert.run('c', 'read', 'half-done')).toThrow(/CHECK/);
  });

  it('makes the audit log append-only, and removes a task with everything it owns', () => {
    const db = migrated();
    db.prepare(
      `INSERT INTO audit_events (at, task_id, kind, actor, summary) VALUES (1, 't', 'proposed', 'model', 's')`,
    ).run();
    expect(() => db.prepare(`UPDATE audit_events SET summary = 'rewritten'`).run()).toThrow(/append-only/);
    db.prepare(`INSERT INTO task_grants VALUES ('t', 'list_folder', 1)`).run();
    db.prepare(`INSERT INTO task_taint VALUES ('t', 'Downloads/x.txt', NULL, 1)`).run();
    db.prepare(`DELETE FROM tasks WHERE id = 't'`).run();
    for (const table of ['audit_events', 'task_grants', 'task_taint']) {
      expect(db.prepare(`SELECT count(*) AS n FROM ${table}`).get()).toEqual({ n: 0 });
    }
  });
});
