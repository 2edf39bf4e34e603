import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DataFolderInUseError,
  inUseMessage,
  lockDataFolder,
  LOCK_FILE,
  OWNER_FILE,
  readOwner,
  type DataFolderLock,
  type DataFolderOwner,
} from './dataFolderLock.js';

// The OS lock as SQLite takes it excludes a second connection in the same process as it does another process
// (dataFolderLock.int.test.ts), so the rules are tested here on real files in milliseconds.

const held: DataFolderLock[] = [];
afterEach(() => {
  for (const lock of held.splice(0)) lock.release();
});

const folder = () => mkdtempSync(join(tmpdir(), 'hb-lock-'));
const owner = (over: Partial<DataFolderOwner> = {}): DataFolderOwner => ({
  pid: process.pid,
  command: 'homebody serve',
  startedAt: Date.now(),
  brief: false,
  ...over,
});

async function take(dir: string, who: DataFolderOwner, waitMs?: number): Promise<DataFolderLock> {
  const lock = await lockDataFolder(dir, who, waitMs === undefined ? {} : { waitMs });
  held.push(lock);
  return lock;
}

async function refusal(promise: Promise<unknown>): Promise<DataFolderInUseError> {
  const error = await promise.then(
    () => new Error('the lock was taken twice'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataFolderInUseError);
  return error as DataFolderInUseError;
}

describe('the data folder lock', () => {
  it('takes a folder and writes who holds it beside a lock file that stays empty and private', async () => {
    const dir = folder();
    const who = owner();
    await take(dir, who);
    expect(readOwner(dir)).toEqual(who);
    expect(statSync(join(dir, LOCK_FILE)).size).toBe(0);
    if (process.platform !== 'win32') {
      expect(statSync(join(dir, LOCK_FILE)).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, OWNER_FILE)).mode & 0o777).toBe(0o600);
    }
  });

  it('refuses a second owner at once while the app or serve holds the folder, naming the holder', async () => {
    const dir = folder();
    const first = owner({ command: 'homebody serve' });
    await take(dir, first);
    // A lasting holder is not waited for: were it waited for, this would hang for the minute.
    const error = await refusal(take(dir, owner({ command: 'homebody approvals list', brief: true }), 60_000));
    expect(error.holder).toEqual(first);
    expect(error.code).toBe('STORE_ERROR');
    expect(error.message).toContain(`pid ${process.pid}, "homebody serve"`);
    expect(error.message).toContain('Stop it first, or use --data-dir for another folder.');
    expect(readOwner(dir)).toEqual(first);
  });

  it('lets the next owner in once the first lets go, and removes the first one’s record', async () => {
    const dir = folder();
    const first = await take(dir, owner());
    first.release();
    first.release();
    expect(readOwner(dir)).toBeNull();
    const second = owner({ command: 'homebody approvals list', brief: true });
    await take(dir, second, 0);
    expect(readOwner(dir)).toEqual(second);
  });

  it('waits for a brief holder (another command) to finish, then takes the folder', async () => {
    const dir = folder();
    const first = await take(dir, owner({ command: 'homebody tools call', brief: true }));
    const waiting = take(dir, owner({ command: 'homebody approvals list', brief: true }), 60_000);
    // Its first try has failed already; the folder is let go while it waits.
    first.release();
    const second = await waiting;
    expect(readOwner(dir)?.command).toBe('homebody approvals list');
    expect(second.owner.command).toBe('homebody approvals list');
  });

  it('refuses after the wait when the brief holder is still there', async () => {
    const dir = folder();
    await take(dir, owner({ command: 'homebody run', brief: true }));
    const error = await refusal(take(dir, owner({ brief: true }), 0));
    expect(error.message).toContain('"homebody run"');
    expect(error.message).toContain('Wait for it to finish, or use --data-dir for another folder.');
  });

  it('does not believe an owner record whose process is gone', async () => {
    const dir = folder();
    await take(dir, owner());
    // As a crash leaves it: the record of a process that no longer runs (pids this large are not handed out).
    writeFileSync(join(dir, OWNER_FILE), JSON.stringify(owner({ pid: 2 ** 30 })));
    expect(readOwner(dir)).toBeNull();
    const error = await refusal(take(dir, owner({ brief: true }), 0));
    expect(error.holder).toBeNull();
    expect(error.message).toBe(
      `The data folder ${dir} is in use by another Homebody process. Stop it first, or use --data-dir for another folder.`,
    );
  });

  it('explains a lock file that is not one', async () => {
    const dir = folder();
    writeFileSync(join(dir, LOCK_FILE), 'not a database, and not Homebody’s to delete by itself\n'.repeat(20));
    await expect(take(dir, owner())).rejects.toThrow(
      /cannot lock its data folder: the lock file .*homebody\.lock cannot be used .*If no Homebody is running, delete that file/,
    );
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toMatch(/^not a database/);
  });

  it('says since when, in local time, with the day when it was not today', () => {
    const now = new Date(2026, 2, 14, 18, 30);
    const today = owner({ pid: 1234, startedAt: new Date(2026, 2, 14, 14, 2).getTime() });
    expect(inUseMessage('/x', today, now)).toBe(
      'The data folder /x is in use by Homebody (pid 1234, "homebody serve", since 14:02). Stop it first, or use --data-dir for another folder.',
    );
    const before = owner({ pid: 1234, startedAt: new Date(2026, 2, 1, 9, 5).getTime() });
    expect(inUseMessage('/x', before, now)).toContain('since 2026-03-01 09:05)');
  });
});
