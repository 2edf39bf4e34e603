/**
 * One owner per data folder. Two processes on one folder rewrite each other: a second one's crash recovery marks
 * the first one's running call interrupted and expires its open prompt. So whoever opens the folder first takes a
 * lock that the operating system holds for it: an exclusive lock on a tiny SQLite file of its own (`homebody.lock`,
 * locking_mode=EXCLUSIVE with a write transaction held open). Node has no flock; SQLite's lock works everywhere
 * SQLite does (fcntl locks on POSIX, LockFileEx on Windows), excludes other connections in the same process too, and
 * dies with the process: a crash, even a SIGKILL, never leaves the folder locked. The lock file itself is never
 * written (it stays 0 bytes, its journal kept in memory), so there is nothing in it a crash could damage.
 *
 * Beside it, the owner record (`homebody.owner.json`: pid, command, start time) is what a refusal names. It is only
 * ever read by someone who could not take the lock, so a record left by a crash misleads no one: the next owner
 * writes its own at once, and a record whose process is gone is not believed.
 */
import Database from 'better-sqlite3';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { HomebodyError } from '../../src-shared/contract/index.js';
import { createPrivateFile, makePrivate, PRIVATE_FILE_MODE } from './privateModes.js';

export const LOCK_FILE = 'homebody.lock';
export const OWNER_FILE = 'homebody.owner.json';

/** How long a start waits for a brief holder (another command-line command) to finish before it refuses. */
export const DEFAULT_LOCK_WAIT_MS = 10_000;

const OwnerSchema = z.object({
  pid: z.number().int().positive(),
  command: z.string().max(200),
  startedAt: z.number().int().nonnegative(),
  brief: z.boolean(),
});

/** Who holds a data folder, as a refusal tells the user. */
export interface DataFolderOwner {
  readonly pid: number;
  /** What holds it, as the user would recognise it: "homebody serve", "the Homebody desktop app". */
  readonly command: string;
  readonly startedAt: number;
  /**
   * A command that lets go by itself when it ends (the command line's): a second process waits a moment for it.
   * The app and `serve` hold the folder for their lifetime, so a second process is refused at once.
   */
  readonly brief: boolean;
}

export interface DataFolderLock {
  readonly dir: string;
  readonly owner: DataFolderOwner;
  /** Removes the owner record and lets the lock go; safe to call twice. */
  release(): void;
}

export interface LockOptions {
  /** better-sqlite3's addon built for Electron's ABI, inside Electron. */
  readonly nativeBinding?: string;
  /** How long to wait for a brief holder; default DEFAULT_LOCK_WAIT_MS. A lasting holder is refused at once. */
  readonly waitMs?: number;
}

/** The folder is held by another process; the message names it and what to do. */
export class DataFolderInUseError extends HomebodyError {
  constructor(
    readonly dir: string,
    readonly holder: DataFolderOwner | null,
  ) {
    super('STORE_ERROR', inUseMessage(dir, holder));
  }
}

function clock(at: Date): string {
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
}

function day(at: Date): string {
  return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
}

/** "since 14:02" today, "since 2026-03-01 14:02" before; local time, as the user's clock shows it. */
function since(startedAt: number, now: Date): string {
  const at = new Date(startedAt);
  return day(at) === day(now) ? clock(at) : `${day(at)} ${clock(at)}`;
}

export function inUseMessage(dir: string, holder: DataFolderOwner | null, now: Date = new Date()): string {
  const who = holder
    ? `Homebody (pid ${holder.pid}, "${holder.command}", since ${since(holder.startedAt, now)})`
    : 'another Homebody process';
  const what = holder?.brief ? 'Wait for it to finish' : 'Stop it first';
  return `The data folder ${dir} is in use by ${who}. ${what}, or use --data-dir for another folder.`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The owner record, if there is one that names a live process; null otherwise (none yet, left by a crash, damaged). */
export function readOwner(dir: string): DataFolderOwner | null {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8'));
  } catch {
    return null;
  }
  const parsed = OwnerSchema.safeParse(raw);
  if (!parsed.success || !isAlive(parsed.data.pid)) return null;
  return parsed.data;
}

/** Written through a private temp file and a rename, so a reader never sees half a record. */
function writeOwner(dir: string, owner: DataFolderOwner): void {
  const path = join(dir, OWNER_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  rmSync(temp, { force: true });
  writeFileSync(temp, `${JSON.stringify(owner)}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  renameSync(temp, path);
}

const BUSY = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);

/** The lock's connection if it could be taken now, null if another connection holds it. */
function tryLock(path: string, nativeBinding: string | undefined): Database.Database | null {
  let db: Database.Database;
  try {
    db = new Database(path, { timeout: 0, ...(nativeBinding ? { nativeBinding } : {}) });
  } catch (error) {
    throw unusable(path, error);
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // No journal file beside the lock: nothing is ever written, and a rollback needs none.
    db.pragma('journal_mode = MEMORY');
    db.exec('BEGIN EXCLUSIVE');
    return db;
  } catch (error) {
    db.close();
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && BUSY.has(code)) return null;
    throw unusable(path, error);
  }
}

function unusable(path: string, error: unknown): HomebodyError {
  const detail = error instanceof Error ? error.message : String(error);
  return new HomebodyError(
    'STORE_ERROR',
    `Homebody cannot lock its data folder: the lock file ${path} cannot be used (${detail}). If no Homebody is running, delete that file and start again.`,
    { cause: error },
  );
}

/**
 * Takes the data folder for `owner`, before anything in it is read or written. A folder held by a brief holder (a
 * command-line command) is waited for, up to `waitMs`; one held by the app or `serve` is refused at once with a
 * DataFolderInUseError that names the holder. The folder must exist.
 */
export async function lockDataFolder(
  dir: string,
  owner: DataFolderOwner,
  options: LockOptions = {},
): Promise<DataFolderLock> {
  const path = join(dir, LOCK_FILE);
  createPrivateFile(path);
  makePrivate(path, 'file');
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_LOCK_WAIT_MS);
  for (let attempt = 0; ; attempt++) {
    const db = tryLock(path, options.nativeBinding);
    if (db) return held(dir, owner, db);
    const holder = readOwner(dir);
    // No record yet is a holder that is just starting (or just leaving): worth the same short wait.
    if ((holder && !holder.brief) || Date.now() >= deadline) throw new DataFolderInUseError(dir, holder);
    await sleep(Math.min(25 * 2 ** attempt, 250));
  }
}

function held(dir: string, owner: DataFolderOwner, db: Database.Database): DataFolderLock {
  try {
    writeOwner(dir, owner);
  } catch (error) {
    db.close();
    throw new HomebodyError(
      'STORE_ERROR',
      `Homebody cannot write in its data folder ${dir}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  let released = false;
  return {
    dir,
    owner,
    release() {
      if (released) return;
      released = true;
      // The record first: once the lock is gone, the next owner's record may already be there.
      rmSync(join(dir, OWNER_FILE), { force: true });
      db.close();
    },
  };
}
