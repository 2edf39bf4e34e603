import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db.js';
import { migration001 } from './001_initial.js';
import { migration002 } from './002_tools.js';
import { migration003 } from './003_search.js';

const ALL = [migration001, migration002, migration003];

function v2WithData() {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db, [migration001, migration002], 0);
  db.prepare(`INSERT INTO tasks VALUES ('t', 'Trip', 'completed', 1, 1)`).run();
  db.prepare(
    `INSERT INTO messages (id, task_id, seq, role, text, state, created_at) VALUES ('m1', 't', 0, 'user', 'Plan the Lisbon trip', 'complete', 1)`,
  ).run();
  db.prepare(
    `INSERT INTO messages (id, task_id, seq, role, text, state, created_at) VALUES ('m2', 't', 1, 'assistant', 'half a repl', 'streaming', 2)`,
  ).run();
  db.prepare(
    `INSERT INTO tool_calls (id, task_id, tool, args_json, description_json, risk, gate, state, result_json, created_at)
     VALUES ('c1', 't', 'read_text', '{"path":"notes/ferry.txt"}', '{}', 'read', 'none', 'done', '{"text":"line one\\nboarding pass"}', 3)`,
  ).run();
  return db;
}

const hits = (db: Database.Database, query: string) =>
  db
    .prepare<[string], { ref_id: string }>(
      `SELECT d.ref_id FROM search_fts JOIN search_docs d ON d.id = search_fts.rowid WHERE search_fts MATCH ? ORDER BY d.ref_id`,
    )
    .all(query)
    .map((r) => r.ref_id);

describe('migration 003 (search)', () => {
  it('indexes what a version 2 database already holds, except replies still streaming', () => {
    const db = v2WithData();
    migrate(db, ALL, 2);
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    expect(hits(db, 'lisbon')).toEqual(['m1']);
    expect(hits(db, 'repl')).toEqual([]);
    // JSON is flattened: the escaped newline does not glue "one" and "boarding" together.
    expect(hits(db, 'boarding')).toEqual(['c1']);
    expect(hits(db, 'ferry')).toEqual(['c1']);
    expect(hits(db, 'read_text')).toEqual(['c1']);
  });

  it('indexes a reply when it stops streaming, not on each append', () => {
    const db = v2WithData();
    migrate(db, ALL, 2);
    db.prepare(`UPDATE messages SET text = text || 'y about Porto' WHERE id = 'm2'`).run();
    expect(hits(db, 'porto')).toEqual([]);
    db.prepare(`UPDATE messages SET state = 'interrupted' WHERE id = 'm2'`).run();
    expect(hits(db, 'porto')).toEqual(['m2']);
    db.prepare(`UPDATE messages SET text = 'rewritten' WHERE id = 'm2'`).run();
    expect(hits(db, 'porto')).toEqual([]);
    expect(hits(db, 'rewritten')).toEqual(['m2']);
  });

  it('re-indexes a call when its result arrives, and never indexes calls outside a task', () => {
    const db = v2WithData();
    migrate(db, ALL, 2);
    db.prepare(
      `INSERT INTO tool_calls (id, task_id, tool, args_json, description_json, risk, gate, state, created_at)
       VALUES ('c2', 't', 'list_folder', '{"path":"Photos"}', '{}', 'read', 'none', 'executing', 4)`,
    ).run();
    db.prepare(`UPDATE tool_calls SET result_json = '["beach.jpg"]', state = 'done' WHERE id = 'c2'`).run();
    expect(hits(db, 'beach')).toEqual(['c2']);
    db.prepare(
      `INSERT INTO tool_calls (id, task_id, tool, args_json, description_json, risk, gate, state, created_at)
       VALUES ('c3', NULL, 'list_folder', '{"path":"Secret"}', '{}', 'read', 'none', 'done', 5)`,
    ).run();
    expect(hits(db, 'secret')).toEqual([]);
  });

  it('removes a deleted task from the index with everything it owns', () => {
    const db = v2WithData();
    migrate(db, ALL, 2);
    db.prepare(`DELETE FROM tasks WHERE id = 't'`).run();
    expect(db.prepare('SELECT count(*) AS n FROM search_docs').get()).toEqual({ n: 0 });
    expect(hits(db, 'lisbon')).toEqual([]);
    expect(hits(db, 'boarding')).toEqual([]);
    expect(() => db.exec(`INSERT INTO search_fts (search_fts) VALUES ('integrity-check')`)).not.toThrow();
  });
});
