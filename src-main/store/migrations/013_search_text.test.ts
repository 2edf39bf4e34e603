import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db.js';
import { MIGRATIONS } from './index.js';

describe('migration 013 (search text)', () => {
  it('indexes the calls recorded before in the new words, and the old words are gone from the index', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 13),
      0,
    );
    db.prepare(`INSERT INTO tasks (id, title, status, created_at, updated_at) VALUES ('t', 'T', 'idle', 1, 1)`).run();
    db.prepare(
      `INSERT INTO tool_calls (id, task_id, tool, args_json, description_json, risk, gate, state, result_json, created_at)
       VALUES ('old', 't', 'write_text', '{"path":"/tmp/docs/hello.txt","overwrite":false}',
               '{"title":"Write a text file","summary":"Write /tmp/docs/hello.txt","details":[]}', 'write', 'none',
               'done', '{"created":true,"bytes":20}', 1)`,
    ).run();
    const body = () => (db.prepare(`SELECT body FROM search_docs WHERE ref_id = 'old'`).get() as { body: string }).body;
    const matches = (word: string) =>
      (db.prepare(`SELECT count(*) AS n FROM search_fts WHERE search_fts MATCH ?`).get(word) as { n: number }).n;
    expect(body()).toContain('overwrite');
    expect(matches('overwrite')).toBe(1);

    migrate(db, MIGRATIONS, 12);
    expect(body().split('\n').slice(0, 2)).toEqual(['Write a text file', 'Write /tmp/docs/hello.txt']);
    expect(body()).not.toMatch(/overwrite|bytes|\b20\b/);
    expect(matches('overwrite')).toBe(0);
    expect(matches('hello')).toBe(1);
  });
});
