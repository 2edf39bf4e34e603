import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db.js';
import { createToolCallsRepo } from '../repos/toolCallsRepo.js';
import { MIGRATIONS } from './index.js';

describe('migration 012 (result summary)', () => {
  it('keeps a call recorded before with no line for people, and a call that finishes now keeps its own', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 12),
      0,
    );
    db.prepare(`INSERT INTO tasks (id, title, status, created_at, updated_at) VALUES ('t', 'T', 'idle', 1, 1)`).run();
    db.prepare(
      `INSERT INTO tool_calls (id, task_id, tool, args_json, description_json, risk, gate, state, result_json, created_at)
       VALUES ('old', 't', 'write_text', '{}', '{"title":"Write","summary":"","details":[]}', 'write', 'none', 'done',
               '{"path":"/tmp/a.txt","created":true,"bytes":3}', 1)`,
    ).run();
    migrate(db, MIGRATIONS, 11);
    const calls = createToolCallsRepo(db);
    expect(calls.get('old')).toMatchObject({ state: 'done', resultSummary: null, result: { bytes: 3 } });

    calls.insert({
      id: 'new',
      taskId: 't',
      tool: 'write_text',
      args: {},
      description: { title: 'Write', summary: '', details: [] },
      risk: 'write',
      gate: 'none',
      state: 'approved',
      taint: [],
      now: 2,
    });
    expect(calls.start('new', 3)).toBe(true);
    calls.finish('new', { state: 'done', result: { bytes: 20 }, summary: 'Created /tmp/b.txt (20 bytes).', now: 4 });
    expect(calls.get('new')).toMatchObject({ resultSummary: 'Created /tmp/b.txt (20 bytes).', result: { bytes: 20 } });
  });
});
