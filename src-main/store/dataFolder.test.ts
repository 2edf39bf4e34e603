import { chmodSync, mkdirSync, mkdtempSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { takeDataFolder, type DataFolder } from './dataFolder.js';
import { LOCK_FILE, OWNER_FILE } from './dataFolderLock.js';
import { openStore, DATABASE_FILE } from './store.js';

const POSIX = process.platform !== 'win32';
const mode = (path: string) => statSync(path).mode & 0o777;
const owner = { pid: process.pid, command: 'homebody', startedAt: 0, brief: true };
const work = () => realpathSync(mkdtempSync(join(tmpdir(), 'hb-modes-')));

const taken: DataFolder[] = [];
afterEach(() => {
  for (const folder of taken.splice(0)) folder.release();
  vi.unstubAllEnvs();
});

async function take(dir: string): Promise<DataFolder> {
  const folder = await takeDataFolder(dir, owner, { waitMs: 0 });
  taken.push(folder);
  return folder;
}

/**
 * Opens the store as the Host does, writes one row (so the WAL has content) and answers the modes of the database,
 * its -wal and -shm while it is open: SQLite removes the two when the last connection closes.
 */
function databaseModesWhileOpen(dir: string): Record<string, number> {
  const store = openStore(dir);
  try {
    store.settings.set('touched', true);
    const db = join(dir, DATABASE_FILE);
    return Object.fromEntries(['', '-wal', '-shm'].map((suffix) => [`${DATABASE_FILE}${suffix}`, mode(db + suffix)]));
  } finally {
    store.close();
  }
}

const PRIVATE_DATABASE = { 'homebody.db': 0o600, 'homebody.db-wal': 0o600, 'homebody.db-shm': 0o600 };

describe.runIf(POSIX)('private modes on POSIX (Windows keeps access in ACLs, which Homebody does not change)', () => {
  it('makes a new data folder 0700 and the database, its -wal and -shm, the lock and its record 0600', async () => {
    const dir = join(work(), 'new', 'data');
    await take(dir);
    expect(databaseModesWhileOpen(dir)).toEqual(PRIVATE_DATABASE);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, LOCK_FILE))).toBe(0o600);
    expect(mode(join(dir, OWNER_FILE))).toBe(0o600);
    // Reopened, as the next start opens it.
    expect(databaseModesWhileOpen(dir)).toEqual(PRIVATE_DATABASE);
  });

  it('tightens the files of an older version at the next open', () => {
    const dir = work();
    // As an older version left them, the -wal and -shm included (a crash leaves both behind).
    const store = openStore(dir);
    store.settings.set('open', true);
    for (const suffix of ['', '-wal', '-shm']) chmodSync(join(dir, DATABASE_FILE + suffix), 0o644);
    const other = openStore(dir);
    expect(mode(join(dir, `${DATABASE_FILE}-wal`))).toBe(0o600);
    expect(mode(join(dir, `${DATABASE_FILE}-shm`))).toBe(0o600);
    expect(mode(join(dir, DATABASE_FILE))).toBe(0o600);
    other.close();
    store.close();
    expect(databaseModesWhileOpen(dir)).toEqual(PRIVATE_DATABASE);
  });

  it('tightens the folder Homebody names for itself, as an older version left it, and the folders it made there', async () => {
    const config = work();
    vi.stubEnv('XDG_CONFIG_HOME', config);
    vi.stubEnv('HOMEBODY_DATA_DIR', '');
    const dir = join(config, 'Homebody');
    mkdirSync(join(dir, 'notes'), { recursive: true });
    mkdirSync(join(dir, 'trash'));
    for (const path of [dir, join(dir, 'notes'), join(dir, 'trash')]) chmodSync(path, 0o755);
    // A link in its place is not followed: what it points at is not Homebody's to change.
    const elsewhere = join(config, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o755 });
    chmodSync(elsewhere, 0o755);
    symlinkSync(elsewhere, join(dir, 'mail'));

    const folder = await take(dir);
    expect(folder.ownFolder).toBe(true);
    expect(mode(dir)).toBe(0o700);
    folder.makeOwnFoldersPrivate(['notes', 'trash', 'mail', 'models']);
    expect(mode(join(dir, 'notes'))).toBe(0o700);
    expect(mode(join(dir, 'trash'))).toBe(0o700);
    expect(mode(elsewhere)).toBe(0o755);
  });

  it('never changes the mode of a folder the user chose that was already there, nor of what is in it', async () => {
    const home = work();
    chmodSync(home, 0o755);
    mkdirSync(join(home, 'notes'));
    chmodSync(join(home, 'notes'), 0o755);
    writeFileSync(join(home, 'shopping.txt'), 'milk\n');
    chmodSync(join(home, 'shopping.txt'), 0o644);

    const folder = await take(home);
    expect(folder.ownFolder).toBe(false);
    folder.makeOwnFoldersPrivate(['notes']);
    const database = databaseModesWhileOpen(home);
    expect(mode(home)).toBe(0o755);
    expect(mode(join(home, 'notes'))).toBe(0o755);
    expect(mode(join(home, 'shopping.txt'))).toBe(0o644);
    // Homebody's own files in it are private all the same.
    expect(database).toEqual(PRIVATE_DATABASE);
    expect(mode(join(home, LOCK_FILE))).toBe(0o600);
  });

  it('leaves a --data-dir folder it made at an earlier start as the user set it since', async () => {
    const dir = join(work(), 'data');
    const first = await take(dir);
    expect(first.ownFolder).toBe(true);
    first.release();
    taken.splice(0);
    chmodSync(dir, 0o755);
    // Made 0700 by an earlier start, then opened up by the user: a later start cannot tell it from a folder of the
    // user's own, so it keeps the user's choice.
    const second = await take(dir);
    expect(second.ownFolder).toBe(false);
    expect(mode(dir)).toBe(0o755);
  });
});
