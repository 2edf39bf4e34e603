import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db.js';
import { createMcpRepo } from '../repos/mcpRepo.js';
import { MIGRATIONS } from './index.js';

const config = { name: 'files', transport: { kind: 'stdio', command: 'x', args: [], env: { TOKEN: 's' } } };

/** A version 9 database with an MCP server the user had enabled, upgraded to the latest version. */
function upgraded() {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(
    db,
    MIGRATIONS.filter((m) => m.version < 10),
    0,
  );
  db.prepare(`INSERT INTO mcp_servers (name, config, enabled, trusted_at, added_at) VALUES (?, ?, 1, 2, 1)`).run(
    'files',
    JSON.stringify(config),
  );
  migrate(
    db,
    MIGRATIONS.filter((m) => m.version <= 10),
    9,
  );
  return db;
}

describe('migration 010 (MCP trust)', () => {
  it('upgrades a version 9 database in place: a server keeps its state, trusts no annotations, has no confirmed command', () => {
    const db = upgraded();
    expect(db.pragma('user_version', { simple: true })).toBe(10);
    expect(createMcpRepo(db).list()).toEqual([
      { name: 'files', config, enabled: true, trusted: true, trustAnnotations: false, confirmedCommand: null },
    ]);
  });

  it('keeps the trust switch and the confirmed command per server, and refuses what is not one', () => {
    const db = upgraded();
    const repo = createMcpRepo(db);
    repo.setTrustAnnotations('files', true);
    repo.confirmCommand('files', 'c'.repeat(64));
    expect(repo.list()[0]).toMatchObject({ trustAnnotations: true, confirmedCommand: 'c'.repeat(64) });
    // Re-sealing a configuration (a new key) keeps what the user decided.
    repo.setConfig('files', { ...config, sealed: true });
    expect(repo.list()[0]).toMatchObject({ trustAnnotations: true, confirmedCommand: 'c'.repeat(64) });
    repo.setTrustAnnotations('files', false);
    expect(repo.list()[0]?.trustAnnotations).toBe(false);

    expect(() => repo.confirmCommand('files', 'short')).toThrow(/CHECK/);
    expect(() => db.prepare('UPDATE mcp_servers SET trust_annotations = 2').run()).toThrow(/CHECK/);
    // A server added after the upgrade starts with neither.
    repo.add([{ ...config, name: 'new' }], 3);
    expect(repo.list()[1]).toMatchObject({ name: 'new', trustAnnotations: false, confirmedCommand: null });
  });
});
