import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { HomebodyError } from '../../src-shared/contract/index.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './migrations/index.js';
import type { Migration } from './migrations/migration.js';
import { createPrivateFile, makePrivate, makePrivateFolder } from './privateModes.js';

export type Db = Database.Database;

export interface OpenDatabaseOptions {
  /** better-sqlite3's addon built for another ABI (Electron's); Node's own build when absent. */
  readonly nativeBinding?: string;
  readonly migrations?: readonly Migration[];
}

const SQLITE_HEADER = 'SQLite format 3\0';

/** The file is not a usable SQLite database; it was left exactly as it was found. */
export class DamagedDatabaseError extends HomebodyError {
  constructor(
    readonly path: string,
    readonly detail: string,
    cause?: unknown,
  ) {
    super(
      'STORE_ERROR',
      `The history database ${path} is damaged (${detail}). Homebody left it untouched: move it aside or restore a backup, then start again.`,
      { cause },
    );
  }
}

function damaged(path: string, detail: string, cause?: unknown): HomebodyError {
  return new DamagedDatabaseError(path, detail, cause);
}

const SQLITE_DAMAGE = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB']);

/**
 * What a failed database write means for the user. A full disk (or the database's own size cap) fails
 * the one statement or transaction that hit it: everything committed before is kept.
 */
export function storageFailure(error: unknown): HomebodyError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return undefined;
  if (code === 'SQLITE_FULL') {
    return new HomebodyError(
      'STORAGE_FULL',
      'The disk is full, so Homebody could not save this. Everything saved before is kept: free some space and try again.',
      { cause: error },
    );
  }
  const detail = error instanceof Error ? error.message : code;
  return new HomebodyError('STORE_ERROR', `The history database could not be written (${detail}).`, { cause: error });
}

/** Refuses a file that is not SQLite before the driver touches it, so a damaged file is never rewritten. */
function checkHeader(path: string): void {
  if (!existsSync(path) || statSync(path).size === 0) return;
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(16);
    const read = readSync(fd, buf, 0, 16, 0);
    if (read < 16 || buf.toString('latin1') !== SQLITE_HEADER) throw damaged(path, 'not a SQLite file');
  } finally {
    closeSync(fd);
  }
}

function readOnlyChecks(db: Db, path: string, latest: number): number {
  let version: number;
  try {
    const result = db.pragma('quick_check', { simple: true });
    if (result !== 'ok') throw damaged(path, `integrity check: ${String(result)}`);
    version = Number(db.pragma('user_version', { simple: true }));
  } catch (error) {
    if (error instanceof HomebodyError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && !SQLITE_DAMAGE.has(code)) {
      throw new HomebodyError('STORE_ERROR', `Cannot read the history database ${path}: ${message}`, { cause: error });
    }
    throw damaged(path, message, error);
  }
  if (version > latest) {
    throw new HomebodyError(
      'STORE_ERROR',
      `The history database ${path} was written by a newer version of Homebody (schema ${version}; this version knows up to ${latest}). It was left untouched: update Homebody to open it.`,
    );
  }
  return version;
}

export function migrate(db: Db, migrations: readonly Migration[], from: number): void {
  const pending = migrations.filter((m) => m.version > from);
  if (pending.length === 0) return;
  db.transaction(() => {
    for (const m of pending) {
      db.exec(m.up);
      db.pragma(`user_version = ${m.version}`);
    }
  })();
}

/**
 * The database and its -wal and -shm are 0600 on POSIX. A new database is created 0600 before SQLite opens it, and
 * SQLite gives the -wal and -shm it creates the database file's mode; one made by an older version (0644) is
 * tightened here, at every open.
 */
function makeDatabaseFilesPrivate(path: string): void {
  createPrivateFile(path);
  for (const file of [path, `${path}-wal`, `${path}-shm`]) makePrivate(file, 'file');
}

/**
 * Opens (creating if needed) the SQLite store: checks before any write, then
 * WAL with synchronous=FULL (a reply saved is a reply kept across a power cut),
 * foreign keys on, and the schema migrated in one transaction.
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Db {
  const migrations = options.migrations ?? MIGRATIONS;
  const latest = migrations.at(-1)?.version ?? LATEST_SCHEMA_VERSION;
  if (path !== ':memory:') {
    makePrivateFolder(dirname(path));
    checkHeader(path);
    makeDatabaseFilesPrivate(path);
  }
  let db: Db;
  try {
    db = new Database(path, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  } catch (error) {
    throw new HomebodyError(
      'STORE_ERROR',
      `Cannot open the history database ${path}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  try {
    const version = readOnlyChecks(db, path, latest);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // Deleted rows are overwritten with zeros, so a deleted message does not linger in free pages.
    db.pragma('secure_delete = ON');
    migrate(db, migrations, version);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
