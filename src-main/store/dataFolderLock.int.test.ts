import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { DataFolderInUseError, lockDataFolder, OWNER_FILE, readOwner, type DataFolderLock } from './dataFolderLock.js';
import { compiled } from '../testing/compiledApp.js';

// The lock between real processes: another process holding the folder keeps this one out (and the other way
// round), and the operating system lets go of it when the holder dies, a SIGKILL included, or exits.

const root = resolve(import.meta.dirname, '..', '..');
const children = new Set<ChildProcess>();
const locks: DataFolderLock[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  for (const lock of locks.splice(0)) lock.release();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hb-lock-int-'));
  dirs.push(dir);
  return dir;
}

interface Holder {
  readonly child: ChildProcess;
  /** The first line it printed: {"held": pid} or {"refused": message}. */
  readonly first: Promise<{ held?: number; refused?: string }>;
  readonly exited: Promise<NodeJS.Signals | number | null>;
}

function startHolder(dir: string, command: string): Holder {
  const child = spawn(process.execPath, [compiled('testing/lockHolderChild'), dir, command], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.add(child);
  const exited = new Promise<NodeJS.Signals | number | null>((done) =>
    child.once('exit', (code, signal) => done(signal ?? code)),
  );
  const first = new Promise<{ held?: number; refused?: string }>((done, fail) => {
    createInterface({ input: child.stdout! }).once('line', (line) => done(JSON.parse(line) as { held?: number }));
    void exited.then((how) => fail(new Error(`the lock holder ended (${String(how)}) before saying anything`)));
  });
  return { child, first, exited };
}

async function take(dir: string): Promise<DataFolderLock> {
  const lock = await lockDataFolder(
    dir,
    { pid: process.pid, command: 'homebody approvals list', startedAt: Date.now(), brief: true },
    { waitMs: 0 },
  );
  locks.push(lock);
  return lock;
}

async function refusedBy(dir: string): Promise<DataFolderInUseError> {
  const error = await take(dir).then(
    () => new Error('took a folder another process holds'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataFolderInUseError);
  return error as DataFolderInUseError;
}

describe('the data folder lock between processes', () => {
  it('keeps this process out while another holds the folder, naming it, and the other way round', async () => {
    const dir = folder();
    const holder = startHolder(dir, 'homebody serve');
    const { held } = await holder.first;
    expect(held).toBe(holder.child.pid);
    const error = await refusedBy(dir);
    expect(error.holder).toMatchObject({ pid: holder.child.pid, command: 'homebody serve' });
    expect(error.message).toContain(`pid ${holder.child.pid}, "homebody serve"`);

    holder.child.stdin!.write('release\n');
    expect(await holder.exited).toBe(0);
    await take(dir);
    const second = startHolder(dir, 'the Homebody desktop app');
    expect((await second.first).refused).toContain(`pid ${process.pid}, "homebody approvals list"`);
    expect(await second.exited).toBe(1);
  });

  it('is let go when the holder is killed with SIGKILL: the next process takes the folder', async () => {
    const dir = folder();
    const holder = startHolder(dir, 'homebody serve');
    await holder.first;
    await refusedBy(dir);
    holder.child.kill('SIGKILL');
    expect(await holder.exited).toBe('SIGKILL');
    // The dead holder's record is still there, and names a process that is gone: it is not believed.
    expect(existsSync(join(dir, OWNER_FILE))).toBe(true);
    expect(readOwner(dir)).toBeNull();
    const lock = await take(dir);
    expect(readOwner(dir)).toEqual(lock.owner);
  });

  it('is let go on a clean exit, whether or not the holder released it itself', async () => {
    const dir = folder();
    const released = startHolder(dir, 'homebody tools call');
    await released.first;
    released.child.stdin!.write('release\n');
    expect(await released.exited).toBe(0);
    expect(existsSync(join(dir, OWNER_FILE))).toBe(false);
    (await take(dir)).release();

    const exited = startHolder(dir, 'homebody tools call');
    expect((await exited.first).held).toBe(exited.child.pid);
    exited.child.stdin!.write('exit\n');
    expect(await exited.exited).toBe(0);
    await take(dir);
  });
});
