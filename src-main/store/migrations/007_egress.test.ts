import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db.js';
import { createEgressRepo } from '../repos/egressRepo.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './index.js';

function upgraded() {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(
    db,
    MIGRATIONS.filter((m) => m.version < 7),
    0,
  );
  db.prepare(`INSERT INTO tasks VALUES ('t', 'kept', 'completed', 1, 1)`).run();
  // Up to the latest schema, as the app opens it: the repository is today's.
  migrate(db, MIGRATIONS, 6);
  return db;
}

const event = (n: number, allowed = n % 2 === 0) => ({
  at: 1000 + n,
  source: `tool web_fetch ${n}`,
  feature: 'web' as const,
  url: `https://example.org/${n}`,
  host: 'example.org',
  port: 443,
  allowed,
  reason: allowed ? 'online' : 'Offline mode is on',
  bytes: allowed ? 0 : null,
  via: 'guard' as const,
});

describe('migration 007 (egress ledger)', () => {
  it('upgrades a version 6 database in place, keeping its tasks, with an empty ledger', () => {
    const db = upgraded();
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    expect(db.prepare('SELECT title FROM tasks').get()).toEqual({ title: 'kept' });
    expect(createEgressRepo(db).page({ limit: 10 })).toEqual({ events: [], total: 0, allowedCount: 0 });
  });

  it('refuses rows outside the contract: an unknown feature or via, a negative port or byte count', () => {
    const db = upgraded();
    const row = {
      at: 1,
      source: 's',
      feature: 'web',
      url: 'u',
      host: 'h',
      port: 1,
      allowed: 1,
      reason: null,
      bytes: null,
    };
    const insert = (column: string, value: unknown) =>
      db
        .prepare(
          `INSERT INTO egress_events (at, source, feature, url, host, port, allowed, reason, bytes, via)
           VALUES (@at, @source, @feature, @url, @host, @port, @allowed, @reason, @bytes, @via)`,
        )
        .run({ ...row, via: 'guard', [column]: value });
    expect(() => insert('feature', 'ftp')).toThrow(/CHECK/);
    expect(() => insert('via', 'proxy')).toThrow(/CHECK/);
    expect(() => insert('port', -1)).toThrow(/CHECK/);
    expect(() => insert('bytes', -5)).toThrow(/CHECK/);
    expect(() => insert('allowed', 2)).toThrow(/CHECK/);
    expect(() => insert('at', 'soon')).toThrow(/cannot store TEXT value in INTEGER/);
    insert('feature', null);
    expect(db.prepare('SELECT count(*) AS n FROM egress_events').get()).toEqual({ n: 1 });
  });
});

describe('egress repository', () => {
  it('pages newest first with beforeId, filters allowed ones, and counts over the whole filter', () => {
    const repo = createEgressRepo(upgraded());
    const ids = Array.from({ length: 7 }, (_, n) => repo.append(event(n)).id);
    const first = repo.page({ limit: 3 });
    expect(first.events.map((e) => e.id)).toEqual([ids[6], ids[5], ids[4]]);
    expect(first).toMatchObject({ total: 7, allowedCount: 4 });
    expect(first.events[0]).toEqual({ ...event(6), id: ids[6] });
    const next = repo.page({ limit: 3, beforeId: first.events.at(-1)?.id ?? 0 });
    expect(next.events.map((e) => e.id)).toEqual([ids[3], ids[2], ids[1]]);
    const allowed = repo.page({ limit: 10, allowedOnly: true });
    expect(allowed.events.map((e) => e.source)).toEqual([6, 4, 2, 0].map((n) => `tool web_fetch ${n}`));
    expect(allowed).toMatchObject({ total: 4, allowedCount: 4 });
    expect(allowed.events.every((e) => e.allowed)).toBe(true);
  });

  it('updates the bytes of a kept event, and keeps only the newest events past its cap', () => {
    const repo = createEgressRepo(upgraded(), 5);
    const first = repo.append(event(0));
    expect(repo.setBytes(first.id, 4096)).toMatchObject({ id: first.id, bytes: 4096 });
    for (let n = 1; n < 12; n++) repo.append(event(n));
    const page = repo.page({ limit: 100 });
    expect(page.total).toBe(5);
    expect(page.events.map((e) => e.source)).toEqual([11, 10, 9, 8, 7].map((n) => `tool web_fetch ${n}`));
    expect(repo.setBytes(first.id, 1)).toBeUndefined();
    repo.clear();
    expect(repo.page({ limit: 10 }).total).toBe(0);
  });
});
