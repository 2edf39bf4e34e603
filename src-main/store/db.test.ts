import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './db.js';
import { LATEST_SCHEMA_VERSION } from './migrations/index.js';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'hb-db-')), 'homebody.db');

describe('openDatabase', () => {
  it('creates a WAL database with synchronous=FULL, foreign keys and the latest schema', () => {
    const db = openDatabase(tempFile());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    db.close();
  });

  it('reopens an existing database without migrating twice', () => {
    const path = tempFile();
    openDatabase(path).close();
    const db = openDatabase(path);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    db.close();
  });

  it('refuses a file that is not SQLite and leaves it byte for byte as it was', () => {
    const path = tempFile();
    const garbage = Buffer.from('this is not a database, but the user may need it back\n'.repeat(100));
    writeFileSync(path, garbage);
    expect(() => openDatabase(path)).toThrowError(/damaged \(not a SQLite file\).*left it untouched/);
    expect(readFileSync(path).equals(garbage)).toBe(true);
  });

  it('refuses a SQLite file whose pages are damaged, without writing to it', () => {
    const path = tempFile();
    const db = openDatabase(path);
    db.exec('CREATE TABLE filler (x TEXT) STRICT');
    const insert = db.prepare('INSERT INTO filler VALUES (?)');
    for (let i = 0; i < 2000; i++) insert.run(`row ${i} ${'x'.repeat(100)}`);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const bytes = readFileSync(path);
    // Overwrite the middle pages with noise, keeping the 100-byte header intact.
    for (let i = 8192; i < bytes.length - 4096; i++) bytes[i] = (i * 31) & 0xff;
    writeFileSync(path, bytes);
    expect(() => openDatabase(path)).toThrowError(/is damaged/);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('refuses a database written by a newer version', () => {
    const path = tempFile();
    const db = openDatabase(path);
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 5}`);
    db.close();
    expect(() => openDatabase(path)).toThrowError(/newer version of Homebody.*left untouched/);
  });
});
