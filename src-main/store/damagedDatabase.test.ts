import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase, storageFailure } from './db.js';
import { LATEST_SCHEMA_VERSION } from './migrations/index.js';
import { DATABASE_FILE, openStore, openStoreMovingDamagedAside } from './store.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'hb-damaged-'));

/** A real history whose middle pages are then overwritten with noise (the 100-byte header stays intact). */
function damagedHistory(dir: string): Buffer {
  const store = openStore(dir);
  store.tasks.create({ id: 't', title: 'before the damage', now: 1 });
  for (let i = 0; i < 400; i++) {
    store.messages.insert({
      id: `m${i}`,
      taskId: 't',
      role: 'user',
      text: `${i} ${'words '.repeat(40)}`,
      state: 'complete',
      now: i,
    });
  }
  store.checkpoint();
  store.close();
  const path = join(dir, DATABASE_FILE);
  const bytes = readFileSync(path);
  for (let i = 8192; i < bytes.length - 4096; i++) bytes[i] = (i * 31) & 0xff;
  writeFileSync(path, bytes);
  return bytes;
}

describe('a damaged history database', () => {
  it('is moved aside byte for byte, and a new empty history starts with a notice saying where it went', () => {
    const dir = dataDir();
    const bytes = damagedHistory(dir);
    const { store, notices } = openStoreMovingDamagedAside(dir);
    const aside = readdirSync(dir).filter((f) => f.startsWith(`${DATABASE_FILE}.damaged-`) && !/-(wal|shm)$/.test(f));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!)).equals(bytes)).toBe(true);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.message).toContain(join(dir, aside[0]!));
    expect(notices[0]!.message).toMatch(/damaged .*new, empty history/);
    expect(store.tasks.list(10)).toEqual([]);
    expect(store.integrityCheck()).toBe('ok');
    store.close();
    // The next start finds a healthy database and says nothing.
    const again = openStoreMovingDamagedAside(dir);
    expect(again.notices).toEqual([]);
    again.store.close();
  });

  it('never moves a database written by a newer version: that is refused and left in place', () => {
    const dir = dataDir();
    const db = openDatabase(join(dir, DATABASE_FILE));
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openStoreMovingDamagedAside(dir)).toThrow(/newer version/);
    expect(readdirSync(dir).filter((f) => f.includes('damaged'))).toEqual([]);
    expect(existsSync(join(dir, DATABASE_FILE))).toBe(true);
  });
});

describe('storageFailure', () => {
  it('turns a full disk into an error that says nothing saved was lost', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (x TEXT)');
    db.prepare('INSERT INTO t VALUES (?)').run('saved before');
    // The database's own size cap fails writes exactly as a full disk does (SQLITE_FULL).
    db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true }))}`);
    let caught: unknown;
    try {
      db.transaction(() => {
        for (let i = 0; i < 1000; i++) db.prepare('INSERT INTO t VALUES (?)').run('y'.repeat(1000));
      })();
    } catch (error) {
      caught = error;
    }
    const failure = storageFailure(caught);
    expect(failure?.code).toBe('STORAGE_FULL');
    expect(failure?.message).toMatch(/disk is full.*Everything saved before is kept/);
    expect(db.prepare('SELECT x FROM t').all()).toEqual([{ x: 'saved before' }]);
    expect(storageFailure(new Error('not sqlite'))).toBeUndefined();
    expect(storageFailure(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' }))?.code).toBe(
      'STORE_ERROR',
    );
  });
});
