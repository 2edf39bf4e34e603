import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db.js';
import { createAuditRepo } from '../repos/auditRepo.js';
import { createProvenanceRepo } from '../repos/provenanceRepo.js';
import { createToolCallsRepo } from '../repos/toolCallsRepo.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './index.js';

function upgraded() {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(
    db,
    MIGRATIONS.filter((m) => m.version < 9),
    0,
  );
  db.prepare(`INSERT INTO tasks VALUES ('t', 'kept', 'completed', 1, 1)`).run();
  db.prepare(
    `INSERT INTO tool_calls (id, task_id, tool, args_json, description_json, risk, gate, state, created_at)
     VALUES ('old', 't', 'read_text', '{}', '{"title":"Read","summary":"","details":[]}', 'read', 'none', 'done', 1)`,
  ).run();
  db.prepare(
    `INSERT INTO audit_events (at, task_id, call_id, kind, actor, summary) VALUES (1, 't', 'old', 'decided', 'policy', 'Allowed by the policy')`,
  ).run();
  // Then on to the latest schema, as the app upgrades a database: the repositories are written for that one.
  migrate(db, MIGRATIONS, 8);
  return db;
}

const path = {
  arg: 'path',
  role: 'entry' as const,
  given: 'old.txt',
  path: '/home/u/Docs/old.txt',
  root: '/home/u/Docs',
  untrusted: false,
};

describe('migration 009 (decisions)', () => {
  it('upgrades a version 8 database in place: old calls and events read back with no basis and no paths', () => {
    const db = upgraded();
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    expect(createToolCallsRepo(db).get('old')).toMatchObject({ tool: 'read_text', paths: [], basis: null });
    expect(createAuditRepo(db).forTask('t')).toEqual([
      expect.objectContaining({ summary: 'Allowed by the policy', basis: null, paths: [] }),
    ]);
  });

  it('keeps a decision’s basis and paths, finds events by path and by basis, and stays append-only', () => {
    const db = upgraded();
    const audit = createAuditRepo(db);
    audit.append({
      at: 2,
      taskId: 't',
      callId: 'c',
      kind: 'decided',
      actor: 'user',
      summary: 'Approved',
      detail: null,
      basis: { kind: 'user', answer: 'approve' },
      paths: [path],
    });
    const found = audit.page(Number.MAX_SAFE_INTEGER, 10, { path: '/home/u/Docs/old.txt', basis: 'user' });
    expect(found).toEqual([
      expect.objectContaining({ callId: 'c', basis: { kind: 'user', answer: 'approve' }, paths: [path] }),
    ]);
    expect(audit.page(Number.MAX_SAFE_INTEGER, 10, { basis: 'policy' })).toEqual([]);
    expect(() => db.prepare(`UPDATE audit_events SET basis_kind = 'policy'`).run()).toThrow(/append-only/);
    // Deleting the task deletes its events and their paths for real.
    db.prepare(`DELETE FROM tasks WHERE id = 't'`).run();
    expect(db.prepare('SELECT count(*) FROM audit_paths').pluck().get()).toBe(0);
  });

  it('keeps a label after its task is deleted, without the task', () => {
    const db = upgraded();
    const labels = createProvenanceRepo(db);
    labels.label(
      'file:/home/u/Docs/offer.txt',
      ['mail from eve@example.com', 'mail from eve@example.com'],
      't',
      'c',
      3,
    );
    db.prepare(`DELETE FROM tasks WHERE id = 't'`).run();
    expect(labels.sourcesOf(['file:/home/u/Docs/offer.txt', 'file:/home/u/Docs'])).toEqual([
      'mail from eve@example.com',
    ]);
    expect(db.prepare('SELECT task_id FROM provenance_labels').pluck().get()).toBeNull();
  });

  it('refuses a state change the transition table does not allow', () => {
    const calls = createToolCallsRepo(upgraded());
    expect(() => calls.decide('old', 'done', 'approved', { decision: 'approve', by: 'user', now: 4 })).toThrow(
      /cannot go from done to approved/,
    );
    expect(() => calls.decide('old', 'interrupted', 'approved', { decision: 'approve', by: 'user', now: 4 })).toThrow(
      /cannot go from interrupted to approved/,
    );
  });
});
