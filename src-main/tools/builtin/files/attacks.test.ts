/**
 * Every file tool against paths that try to leave the granted folders. Each attempt must be
 * refused with a clear error, and nothing outside the roots may be read or changed.
 */
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GrantedRoot, ToolContext, ToolOutcome, UndoRecord } from '../../toolTypes.js';
import { copy } from './copy.js';
import { deletePermanently } from './deletePermanently.js';
import { listFolder } from './listFolder.js';
import { move } from './move.js';
import { moveToTrash } from './moveToTrash.js';
import { readText } from './readText.js';
import { searchFiles } from './searchFiles.js';
import type { Fixture } from '../../../testing/tools/filesFixture.js';
import { identityOf, makeFixture } from '../../../testing/tools/filesFixture.js';
import { applyUndo } from './undo.js';
import { writeText } from './writeText.js';

let fx: Fixture;
let before: Map<string, string>;
beforeEach(() => {
  fx = makeFixture();
  symlinkSync(path.join(fx.outside, 'secret.txt'), path.join(fx.reports, 'secret-link.txt'));
  symlinkSync(fx.outside, path.join(fx.reports, 'outside-dir'));
  symlinkSync(fx.base, path.join(fx.reports, 'base-dir'));
  before = fx.snapshot();
});
afterEach(() => {
  // Nothing outside the granted folders was changed, whatever the test did.
  expect(fx.snapshot()).toEqual(before);
  fx.cleanup();
});

type Attempt = (p: string) => Promise<ToolOutcome>;

/** Every tool, aimed at one path (as the thing read, written, or the destination). */
function attempts(ctx: ToolContext = fx.ctx): Record<string, Attempt> {
  const inside = path.join(fx.reports, 'notes.txt');
  return {
    list_folder: (p) => listFolder.run({ path: p }, ctx),
    search_files: (p) => searchFiles.run({ folder: p, name: 'secret', contains: 'SECRET' }, ctx),
    read_text: (p) => readText.run({ path: p }, ctx),
    write_text_new: (p) => writeText.run({ path: p, content: 'pwned', overwrite: false }, ctx),
    write_text_overwrite: (p) => writeText.run({ path: p, content: 'pwned', overwrite: true }, ctx),
    move_from: (p) => move.run({ from: p, to: path.join(fx.reports, 'loot') }, ctx),
    move_to: (p) => move.run({ from: inside, to: p }, ctx),
    copy_from: (p) => copy.run({ from: p, to: path.join(fx.reports, 'loot') }, ctx),
    copy_to: (p) => copy.run({ from: inside, to: p }, ctx),
    trash: (p) => moveToTrash.run({ path: p }, ctx),
    delete_permanently: (p) => deletePermanently.run({ path: p, recursive: true }, ctx),
  };
}

async function expectRefused(attempt: Attempt, p: string, code: string, message?: RegExp): Promise<void> {
  let outcome: ToolOutcome | undefined;
  let error: unknown;
  try {
    outcome = await attempt(p);
  } catch (err) {
    error = err;
  }
  expect(outcome, `expected ${JSON.stringify(p)} to be refused`).toBeUndefined();
  expect(error).toMatchObject({ name: 'ToolError', code });
  if (message) expect((error as Error).message).toMatch(message);
  expect(existsSync(path.join(fx.reports, 'loot'))).toBe(false);
}

describe('paths outside the granted folders', () => {
  const cases: Array<[string, () => string]> = [
    ['an absolute path outside', () => path.join(fx.outside, 'secret.txt')],
    ['a ".." path from inside', () => path.join(fx.reports, '..', 'outside', 'secret.txt')],
    ['a relative ".." path', () => '../outside/secret.txt'],
    ['a deep relative ".." path', () => 'a/b/../../../outside/dir'],
    ['the sibling Reports2 (prefix of a root name)', () => path.join(fx.reports2, 'q3.txt')],
    ['the sibling folder Reports2 itself', () => fx.reports2],
    ['the parent of the roots', () => fx.base],
    ['a "~" path', () => '~/.ssh/id_rsa'],
  ];
  for (const [label, make] of cases) {
    it(`refuses ${label} in every tool`, async () => {
      for (const [name, attempt] of Object.entries(attempts())) {
        const p = make();
        await expectRefused(attempt, p, 'OUTSIDE_GRANTED_FOLDERS', /outside the folders you may use/).catch(
          (err: Error) => {
            throw new Error(`${name} on ${p}: ${err.message}`);
          },
        );
      }
      expect(readFileSync(path.join(fx.reports, 'notes.txt'), 'utf8')).toMatch(/hello/);
    });
  }

  it('names the path and the granted folders in the message', async () => {
    const secret = path.join(fx.outside, 'secret.txt');
    await expect(readText.run({ path: secret }, fx.ctx)).rejects.toThrow(
      `"${secret}" is outside the folders you may use (granted folders: ${fx.reports}, ${fx.downloads}).`,
    );
  });
});

describe('links leading out', () => {
  it('refuses a file link to outside for reading and copying', async () => {
    const a = attempts();
    const link = path.join(fx.reports, 'secret-link.txt');
    for (const name of ['read_text', 'copy_from'] as const) {
      await expectRefused(a[name] as Attempt, link, 'OUTSIDE_GRANTED_FOLDERS', /through a link/);
    }
  });

  it('refuses writing through a link, with or without overwrite', async () => {
    const a = attempts();
    const link = path.join(fx.reports, 'secret-link.txt');
    await expectRefused(a.write_text_new as Attempt, link, 'INVALID_PATH', /is a link/);
    await expectRefused(a.write_text_overwrite as Attempt, link, 'INVALID_PATH', /is a link/);
    await expectRefused(a.copy_to as Attempt, link, 'INVALID_PATH', /is a link/);
    await expectRefused(a.move_to as Attempt, link, 'INVALID_PATH', /is a link/);
  });

  it('refuses every tool through a symlinked parent folder leading out', async () => {
    for (const p of [
      path.join(fx.reports, 'outside-dir', 'secret.txt'),
      path.join(fx.reports, 'outside-dir', 'dir'),
      path.join(fx.reports, 'outside-dir', 'new.txt'),
      path.join(fx.reports, 'base-dir', 'Reports2', 'q3.txt'),
      'outside-dir/dir/inner.txt',
    ]) {
      for (const [name, attempt] of Object.entries(attempts())) {
        await expectRefused(attempt, p, 'OUTSIDE_GRANTED_FOLDERS').catch((err: Error) => {
          throw new Error(`${name} on ${p}: ${err.message}`);
        });
      }
    }
  });

  it('refuses a link to outside as a folder to list or search', async () => {
    const a = attempts();
    await expectRefused(a.list_folder as Attempt, path.join(fx.reports, 'outside-dir'), 'OUTSIDE_GRANTED_FOLDERS');
    await expectRefused(a.search_files as Attempt, path.join(fx.reports, 'base-dir'), 'OUTSIDE_GRANTED_FOLDERS');
  });

  it('does not reveal whether a missing file behind an outward link exists', async () => {
    await expect(
      readText.run({ path: path.join(fx.reports, 'outside-dir', 'no-such-file') }, fx.ctx),
    ).rejects.toMatchObject({ code: 'OUTSIDE_GRANTED_FOLDERS' });
    await expect(
      readText.run({ path: path.join(fx.reports, 'outside-dir', 'missing', 'deeper.txt') }, fx.ctx),
    ).rejects.toMatchObject({ code: 'OUTSIDE_GRANTED_FOLDERS' });
  });

  it('moves, trashes and deletes a link to outside as a link only', async () => {
    const link = path.join(fx.reports, 'secret-link.txt');
    await move.run({ from: link, to: path.join(fx.reports, 'renamed-link') }, fx.ctx);
    await moveToTrash.run({ path: path.join(fx.reports, 'renamed-link') }, fx.ctx);
    await deletePermanently.run({ path: path.join(fx.reports, 'outside-dir'), recursive: true }, fx.ctx);
    expect(readFileSync(path.join(fx.outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET');
    expect(readFileSync(path.join(fx.outside, 'dir', 'inner.txt'), 'utf8')).toBe('inner secret');
  });
});

describe('malformed paths', () => {
  it('refuses NUL bytes and empty paths in every tool', async () => {
    for (const [name, attempt] of Object.entries(attempts())) {
      for (const p of [`${fx.reports}/notes.txt\0.png`, '\0', '', '   ']) {
        await expectRefused(attempt, p, 'INVALID_PATH').catch((err: Error) => {
          throw new Error(`${name} on ${JSON.stringify(p)}: ${err.message}`);
        });
      }
    }
    await expect(readText.run({ path: 'notes.txt\0' }, fx.ctx)).rejects.toThrow(/"notes.txt\\u0000" contains a NUL/);
  });

  it('refuses a non-string path', async () => {
    await expect(readText.run({ path: 42 as unknown as string }, fx.ctx)).rejects.toMatchObject({
      code: 'INVALID_PATH',
    });
  });
});

describe('the granted folders themselves', () => {
  it('can be listed and searched', async () => {
    await expect(listFolder.run({ path: fx.reports }, fx.ctx)).resolves.toBeDefined();
    await expect(searchFiles.run({ folder: fx.downloads, name: 'x' }, fx.ctx)).resolves.toBeDefined();
  });

  it('are never moved, trashed, deleted or overwritten, however spelled', async () => {
    const a = attempts();
    for (const p of [
      fx.reports,
      `${fx.reports}/`,
      `${fx.reports}/.`,
      path.join(fx.reports, 'x', '..'),
      '.',
      fx.downloads,
    ]) {
      for (const name of ['move_from', 'trash', 'delete_permanently', 'write_text_overwrite'] as const) {
        await expectRefused(a[name] as Attempt, p, 'INVALID_PATH', /granted folder/).catch((err: Error) => {
          throw new Error(`${name} on ${p}: ${err.message}`);
        });
      }
    }
    expect(existsSync(path.join(fx.reports, 'notes.txt'))).toBe(true);
  });

  it('refuses moving a folder that holds a granted folder', async () => {
    const nested = path.join(fx.reports, 'inner-root');
    mkdirSync(nested);
    const ctx = { ...fx.ctx, roots: [...fx.roots, { path: nested, untrusted: false }] };
    await expect(deletePermanently.run({ path: nested, recursive: true }, ctx)).rejects.toThrow(/granted folder/);
    expect(existsSync(nested)).toBe(true);
  });

  it('refuses copying a root into itself', async () => {
    await expect(copy.run({ from: fx.reports, to: path.join(fx.reports, 'again') }, fx.ctx)).rejects.toThrow(
      /into itself/,
    );
    expect(existsSync(path.join(fx.reports, 'again'))).toBe(false);
  });
});

describe('large files', () => {
  it('refuses a 2 MiB file by its size', async () => {
    const big = path.join(fx.reports, 'big.txt');
    writeFileSync(big, Buffer.alloc(2 * 1024 * 1024, 0x61));
    await expect(readText.run({ path: big }, fx.ctx)).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });

  it('never reads a huge file whole (a sparse 3 GiB file could not even fit a Buffer read)', async () => {
    const huge = path.join(fx.reports, 'huge.txt');
    writeFileSync(huge, `start of a huge file\n${'text '.repeat(2000)}`); // text past the 8 KiB binary sniff
    truncateSync(huge, 3 * 1024 * 1024 * 1024);
    await expect(readText.run({ path: huge }, fx.ctx)).rejects.toThrow(/3\.00 GiB/);
    const head = await readText.run({ path: huge, maxBytes: 21 }, fx.ctx);
    expect(head.result).toMatchObject({ content: 'start of a huge file\n', truncated: true });
    // Content search reads only the first MiB of it.
    const found = await searchFiles.run({ folder: fx.reports, contains: 'huge file' }, fx.ctx);
    expect((found.result as { matches: unknown[] }).matches).toHaveLength(1);
  });
});

describe('overwriting', () => {
  it('needs overwrite: true, and never replaces with move or copy', async () => {
    const notes = path.join(fx.reports, 'notes.txt');
    writeFileSync(path.join(fx.reports, 'other.txt'), 'other');
    const a = attempts();
    await expectRefused(a.write_text_new as Attempt, notes, 'ALREADY_EXISTS', /overwrite true/);
    await expect(move.run({ from: path.join(fx.reports, 'other.txt'), to: notes }, fx.ctx)).rejects.toMatchObject({
      code: 'ALREADY_EXISTS',
    });
    await expect(copy.run({ from: path.join(fx.reports, 'other.txt'), to: notes }, fx.ctx)).rejects.toMatchObject({
      code: 'ALREADY_EXISTS',
    });
    expect(readFileSync(notes, 'utf8')).toBe('hello notes\nsecond line\n');
  });
});

const GRANT_CHANGED = /is no longer the folder you granted \(it was replaced or moved\); grant it again in Settings\./;

describe('a granted folder that is no longer the one granted', () => {
  /** Swaps Reports as another program would, runs `body`, and puts Reports back (the snapshot must match). */
  async function whileSwapped(replace: () => void, body: () => Promise<void>): Promise<void> {
    renameSync(fx.reports, `${fx.reports}.old`);
    try {
      replace();
      await body();
    } finally {
      rmSync(fx.reports, { recursive: true, force: true });
      renameSync(`${fx.reports}.old`, fx.reports);
    }
  }

  async function everyToolRefuses(ctx: ToolContext, paths: string[]): Promise<void> {
    for (const [name, attempt] of Object.entries(attempts(ctx))) {
      for (const p of paths) {
        await expectRefused(attempt, p, 'OUTSIDE_GRANTED_FOLDERS', GRANT_CHANGED).catch((err: Error) => {
          throw new Error(`${name} on ${p}: ${err.message}`);
        });
      }
    }
  }

  it('mv Docs Docs.old; ln -s / Docs: every tool refuses, naming the changed grant', async () => {
    await whileSwapped(
      () => symlinkSync('/', fx.reports),
      async () => {
        await everyToolRefuses(fx.ctx, [path.join(fx.reports, 'etc', 'hostname'), 'etc/hostname', 'etc', fx.reports]);
        await expect(readText.run({ path: '/etc/hostname' }, fx.ctx)).rejects.toMatchObject({
          code: 'OUTSIDE_GRANTED_FOLDERS',
        });
      },
    );
  });

  it('a new folder at the same path is refused too, however it is filled', async () => {
    await whileSwapped(
      () => {
        mkdirSync(fx.reports);
        writeFileSync(path.join(fx.reports, 'notes.txt'), 'planted');
      },
      () => everyToolRefuses(fx.ctx, [path.join(fx.reports, 'notes.txt'), 'notes.txt']),
    );
  });

  it('the grant is its identity: a root whose path now resolves to / is refused in the worker', async () => {
    // As if the grant's path were resolved anew on each call and now led to the disk's root.
    const ctx = { ...fx.ctx, roots: [{ ...(fx.roots[0] as GrantedRoot), path: '/' }] };
    await everyToolRefuses(ctx, ['/etc/hostname', '/etc']);
  });

  it('a link to / moved onto a nested grant is refused as that grant', async () => {
    const nested = path.join(fx.reports, 'Inner');
    mkdirSync(nested);
    const ctx = { ...fx.ctx, roots: [...fx.roots, { path: nested, untrusted: false, identity: identityOf(nested) }] };
    symlinkSync('/', path.join(fx.reports, 'door'));
    // The model cannot do it: a link moved into the grant is only a link there, and the grant's own path is never a
    // destination (once its folder is gone, the grant is refused as changed).
    await move.run({ from: path.join(fx.reports, 'door'), to: nested }, ctx);
    await expect(readText.run({ path: path.join(nested, 'door', 'etc', 'hostname') }, ctx)).rejects.toThrow(
      /through a link/,
    );
    rmSync(nested, { recursive: true });
    symlinkSync('/', path.join(fx.reports, 'door'));
    await expect(move.run({ from: path.join(fx.reports, 'door'), to: nested }, ctx)).rejects.toThrow(GRANT_CHANGED);
    // Another program can: the grant then is a link to the disk's root.
    renameSync(path.join(fx.reports, 'door'), nested);
    await everyToolRefuses(ctx, [path.join(nested, 'etc', 'hostname'), path.join(nested, 'etc'), 'Inner/etc/hostname']);
    // With the nested grant removed from the policy, the link is an ordinary link leading outside.
    const reportsOnly = { ...fx.ctx, roots: fx.roots };
    await expect(readText.run({ path: 'Inner/etc/hostname' }, reportsOnly)).rejects.toThrow(/through a link/);
    rmSync(nested);
  });
});

describe("Homebody's trash replaced by a link", () => {
  it('is refused, and nothing is moved through it', async () => {
    const trash = path.join(fx.base, 'appdata', 'linked-trash');
    symlinkSync(fx.outside, trash);
    const ctx = { ...fx.ctx, trashDir: trash };
    await expect(moveToTrash.run({ path: path.join(fx.reports, 'notes.txt') }, ctx)).rejects.toThrow(
      /Homebody's folder .*linked-trash.* was replaced or moved \(or is now a link\)/,
    );
    await expect(
      writeText.run({ path: path.join(fx.reports, 'notes.txt'), content: 'x', overwrite: true }, ctx),
    ).rejects.toThrow(/linked-trash/);
    expect(readFileSync(path.join(fx.reports, 'notes.txt'), 'utf8')).toBe('hello notes\nsecond line\n');
  });
});

describe('hard links into a granted folder from outside', () => {
  const secret = (): string => path.join(fx.outside, 'secret.txt');
  const hard = (): string => path.join(fx.reports, 'hard.txt');
  beforeEach(() => linkSync(secret(), hard()));

  it('are never read, searched inside, or copied, and the refusal names the link count', async () => {
    await expect(readText.run({ path: hard() }, fx.ctx)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/has 2 hard links .*outside the folders you granted/),
    });
    await expect(copy.run({ from: hard(), to: path.join(fx.reports, 'loot') }, fx.ctx)).rejects.toThrow(
      /has 2 hard links/,
    );
    const found = await searchFiles.run({ folder: fx.reports, contains: 'SECRET' }, fx.ctx);
    expect(found.result).toMatchObject({ matches: [], skippedHardLinks: 1 });
    // A folder copy leaves it out and says so.
    mkdirSync(path.join(fx.reports, 'box'));
    linkSync(secret(), path.join(fx.reports, 'box', 'inner-hard.txt'));
    writeFileSync(path.join(fx.reports, 'box', 'plain.txt'), 'plain');
    const copied = await copy.run({ from: path.join(fx.reports, 'box'), to: path.join(fx.downloads, 'box') }, fx.ctx);
    expect(copied.result).toMatchObject({ files: 1, note: expect.stringMatching(/1 files with more than one name/) });
    expect(readdirSync(path.join(fx.downloads, 'box'))).toEqual(['plain.txt']);
    expect(existsSync(path.join(fx.reports, 'loot'))).toBe(false);
  });

  it('an overwrite replaces the name only; the outside content stays, and undo never reads it', async () => {
    const out = await writeText.run({ path: hard(), content: 'mine now', overwrite: true }, fx.ctx);
    expect(readFileSync(hard(), 'utf8')).toBe('mine now');
    expect(statSync(hard()).nlink).toBe(1);
    expect(readFileSync(secret(), 'utf8')).toBe('TOP SECRET');
    // The old version is kept as one more name of the same file, not as a copy of its bytes.
    const backup = (out.undo as Extract<UndoRecord, { kind: 'restore-file' }>).backup;
    expect(statSync(backup).ino).toBe(statSync(secret()).ino);
    await applyUndo(out.undo as UndoRecord, fx.ctx);
    expect(statSync(hard()).ino).toBe(statSync(secret()).ino);
    await expect(readText.run({ path: hard() }, fx.ctx)).rejects.toThrow(/hard links/);
  });

  const shm = '/dev/shm';
  const otherDevice = existsSync(shm) && statSync(shm).dev !== statSync(os.tmpdir()).dev;
  it.skipIf(!otherDevice)(
    'refuses to overwrite or move it where that would copy its bytes (another disk)',
    async () => {
      const far = mkdtempSync(path.join(shm, 'hb-far-'));
      try {
        const ctx = { ...fx.ctx, trashDir: path.join(far, 'trash') };
        await expect(writeText.run({ path: hard(), content: 'x', overwrite: true }, ctx)).rejects.toThrow(
          /could keep this one only by reading it/,
        );
        expect(statSync(hard()).ino).toBe(statSync(secret()).ino);
        const farRoot = { path: far, untrusted: false, identity: identityOf(far) };
        const wide = { ...fx.ctx, roots: [...fx.roots, farRoot] };
        await expect(move.run({ from: hard(), to: far }, wide)).rejects.toThrow(/hard links/);
        expect(existsSync(hard())).toBe(true);
      } finally {
        rmSync(far, { recursive: true, force: true });
      }
    },
  );

  it('moves within a disk keep it one file; nothing outside is linked in', async () => {
    const out = await move.run({ from: hard(), to: path.join(fx.downloads, 'moved.txt') }, fx.ctx);
    expect(lstatSync(path.join(fx.downloads, 'moved.txt')).nlink).toBe(2);
    expect(existsSync(hard())).toBe(false);
    await applyUndo(out.undo as UndoRecord, fx.ctx);
    expect(statSync(hard()).ino).toBe(statSync(secret()).ino);
    rmSync(hard());
  });
});

describe.runIf(process.platform === 'linux')('descriptors', () => {
  it('every tool closes what it opened, whether it succeeds or is refused', async () => {
    const count = (): number => readdirSync('/proc/self/fd').length;
    mkdirSync(path.join(fx.reports, 'tree', 'sub'), { recursive: true });
    writeFileSync(path.join(fx.reports, 'tree', 'sub', 'x.txt'), 'x');
    await listFolder.run({ path: '.' }, fx.ctx); // loads what the tools load once
    const start = count();
    for (const attempt of Object.values(attempts())) {
      for (const p of ['notes.txt', 'tree', 'missing/x.txt', 'outside-dir/secret.txt', 'secret-link.txt']) {
        await attempt(p).catch(() => undefined);
        if (existsSync(path.join(fx.reports, 'loot'))) rmSync(path.join(fx.reports, 'loot'), { recursive: true });
        if (!existsSync(path.join(fx.reports, 'notes.txt'))) writeFileSync(path.join(fx.reports, 'notes.txt'), 'n');
        if (!existsSync(path.join(fx.reports, 'tree'))) mkdirSync(path.join(fx.reports, 'tree'));
      }
    }
    expect(count()).toBe(start);
  });
});
