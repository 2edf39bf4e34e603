import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db.js';
import { createEvalRepo } from '../repos/evalRepo.js';
import { MIGRATIONS } from './index.js';

function upgraded() {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(
    db,
    MIGRATIONS.filter((m) => m.version < 8),
    0,
  );
  db.prepare(`INSERT INTO tasks VALUES ('t', 'kept', 'completed', 1, 1)`).run();
  migrate(
    db,
    MIGRATIONS.filter((m) => m.version <= 8),
    7,
  );
  return db;
}

const run = { id: 'r1', startedAt: 1000, suites: ['Homebody workflows'], models: ['/m/a.gguf', '/m/b.gguf'], total: 3 };

describe('migration 008 (evaluation)', () => {
  it('upgrades a version 7 database in place, keeping its tasks', () => {
    const db = upgraded();
    expect(db.pragma('user_version', { simple: true })).toBe(8);
    expect(db.prepare('SELECT title FROM tasks').pluck().get()).toBe('kept');
    expect(createEvalRepo(db).runs()).toEqual([]);
  });

  it('keeps a run from start to finish, with the results saved as models finish', () => {
    const repo = createEvalRepo(upgraded());
    repo.startRun(run);
    expect(repo.run('r1')).toMatchObject({ status: 'running', finishedAt: null, results: [], total: 3 });
    repo.saveResults('r1', [{ model: '/m/a.gguf', label: 'a', summary: {} as never, perTool: {}, cases: [] }]);
    repo.finishRun('r1', 2000, 'done');
    expect(repo.run('r1')).toMatchObject({ status: 'done', finishedAt: 2000, models: run.models });
    expect(repo.run('r1')?.results).toHaveLength(1);
    expect(repo.runs()[0]).not.toHaveProperty('results');
    expect(repo.finishedRuns().map((r) => r.id)).toEqual(['r1']);
    expect(repo.deleteRun('r1')).toBe(true);
    expect(repo.run('r1')).toBeUndefined();
  });

  it('marks a run a crash cut short as interrupted, with the reason', () => {
    const repo = createEvalRepo(upgraded());
    repo.startRun(run);
    expect(repo.markInterrupted(5000)).toBe(1);
    expect(repo.run('r1')).toMatchObject({ status: 'interrupted', finishedAt: 5000 });
    expect(repo.run('r1')?.error).toMatch(/stopped while this run was going/);
  });

  it('keeps recorded cases in order and gates by tool, refusing a threshold outside 0..1', () => {
    const db = upgraded();
    const repo = createEvalRepo(db);
    repo.addCase('c2', 2, 't', { id: 'c2' });
    repo.addCase('c1', 3, null, { id: 'c1' });
    expect(repo.cases().map((c) => [c.id, c.taskId, c.body])).toEqual([
      ['c2', 't', { id: 'c2' }],
      ['c1', null, { id: 'c1' }],
    ]);
    repo.setGate('read_text', 0.9);
    repo.setGate('read_text', 0.8);
    repo.setGate('note_write', 1);
    expect(repo.gates()).toEqual([
      { tool: 'note_write', threshold: 1 },
      { tool: 'read_text', threshold: 0.8 },
    ]);
    repo.setGate('note_write', null);
    expect(repo.gates()).toHaveLength(1);
    expect(() => repo.setGate('x', 1.5)).toThrow(/CHECK/);
  });
});
