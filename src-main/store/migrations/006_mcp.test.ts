import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db.js';
import { createMcpRepo } from '../repos/mcpRepo.js';
import { MIGRATIONS } from './index.js';

function upgraded() {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(
    db,
    MIGRATIONS.filter((m) => m.version < 6),
    0,
  );
  db.prepare(`INSERT INTO tasks VALUES ('t', 'kept', 'completed', 1, 1)`).run();
  migrate(db, MIGRATIONS, 5);
  return db;
}

const definition = { description: 'Echoes', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } };

describe('migration 006 (MCP servers)', () => {
  it('upgrades a version 5 database in place, keeping its tasks', () => {
    const db = upgraded();
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(6);
    expect(db.prepare('SELECT title FROM tasks').get()).toEqual({ title: 'kept' });
    expect(createMcpRepo(db).list()).toEqual([]);
  });

  it('keeps servers disabled until enabled, trust and overrides per tool, and drops them with their server', () => {
    const db = upgraded();
    const repo = createMcpRepo(db);
    const config = { name: 'files', transport: { kind: 'stdio', command: 'x', args: [], env: { TOKEN: 's' } } };
    repo.add([config], 1);
    expect(repo.list()).toMatchObject([{ name: 'files', config, enabled: false, trusted: false }]);
    expect(() => repo.add([{ ...config, name: 'other' }, config], 2)).toThrow(/"files" already exists/);
    expect(repo.list()).toHaveLength(1);

    repo.setEnabled('files', true);
    repo.trust('files', new Map([['echo', { hash: 'a'.repeat(64), definition }]]), 3);
    repo.setOverride('files', 'echo', 'irreversible');
    expect(repo.list()[0]).toMatchObject({ enabled: true, trusted: true });
    expect(repo.trustedTools('files')).toEqual(new Map([['echo', { hash: 'a'.repeat(64), definition }]]));
    expect(repo.overrides('files')).toEqual(new Map([['echo', 'irreversible']]));
    expect(() => repo.setOverride('files', 'echo', 'risky' as 'read')).toThrow(/CHECK/);
    expect(() => repo.trust('files', new Map([['bad', { hash: 'short', definition }]]), 4)).toThrow(/CHECK/);
    repo.setOverride('files', 'echo', null);
    expect(repo.overrides('files').size).toBe(0);

    repo.remove('files');
    expect(repo.list()).toEqual([]);
    expect(db.prepare('SELECT count(*) AS n FROM mcp_trusted_tools').get()).toEqual({ n: 0 });
  });
});
