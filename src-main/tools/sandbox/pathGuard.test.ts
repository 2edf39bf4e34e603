import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GrantedRoot } from '../toolTypes.js';
import {
  assertRootIntact,
  createExclusive,
  findRoot,
  isInsideOrSame,
  resolveEntry,
  resolveExisting,
  resolveForCreate,
  toAbsolute,
  writeFileAtomically,
} from './pathGuard.js';

let base: string;
let reports: string;
let reports2: string;
let outside: string;
let roots: GrantedRoot[];

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hb-guard-')));
  reports = path.join(base, 'Reports');
  reports2 = path.join(base, 'Reports2');
  outside = path.join(base, 'outside');
  for (const d of [reports, reports2, outside]) mkdirSync(d);
  writeFileSync(path.join(reports, 'a.txt'), 'a');
  writeFileSync(path.join(reports2, 'b.txt'), 'b');
  writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  roots = [{ path: reports, untrusted: false }];
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('isInsideOrSame / findRoot', () => {
  it('compares against root + sep', () => {
    expect(isInsideOrSame('/home/a/Reports', '/home/a/Reports')).toBe(true);
    expect(isInsideOrSame('/home/a/Reports', '/home/a/Reports/x')).toBe(true);
    expect(isInsideOrSame('/home/a/Reports', '/home/a/Reports2')).toBe(false);
    expect(isInsideOrSame('/home/a/Reports', '/home/a/Reports2/x')).toBe(false);
    expect(isInsideOrSame('/home/a/Reports', '/home/a')).toBe(false);
    expect(isInsideOrSame('/', '/etc/passwd')).toBe(true);
  });

  it('picks the innermost root', () => {
    const outer = { path: '/a', untrusted: false };
    const inner = { path: '/a/b', untrusted: true };
    expect(findRoot([outer, inner], '/a/b/c')).toBe(inner);
    expect(findRoot([outer, inner], '/a/bc')).toBe(outer);
    expect(findRoot([inner], '/a')).toBeUndefined();
  });
});

describe('toAbsolute', () => {
  it('resolves relative paths against the first root and expands ~', () => {
    expect(toAbsolute(roots, 'x/y.txt')).toBe(path.join(reports, 'x', 'y.txt'));
    expect(toAbsolute(roots, '.')).toBe(reports);
    expect(toAbsolute(roots, '~/x')).toBe(path.join(os.homedir(), 'x'));
  });

  it('rejects NUL, empty, overlong and non-string paths', () => {
    for (const bad of ['', ' ', 'a\0b', 'x'.repeat(5000), 7, null]) {
      expect(() => toAbsolute(roots, bad)).toThrow(expect.objectContaining({ code: 'INVALID_PATH' }));
    }
  });

  it('refuses relative paths when nothing is granted', () => {
    expect(() => toAbsolute([], 'a.txt')).toThrow(/No folders are granted/);
  });
});

describe('resolveExisting', () => {
  it('accepts the root and files inside, returning realpaths', async () => {
    await expect(resolveExisting(roots, reports)).resolves.toEqual({ root: roots[0], path: reports });
    symlinkSync(path.join(reports, 'a.txt'), path.join(reports, 'alias'));
    await expect(resolveExisting(roots, 'alias')).resolves.toMatchObject({ path: path.join(reports, 'a.txt') });
  });

  it('refuses .., a prefix sibling, absolute outside paths, and links leading out', async () => {
    symlinkSync(path.join(outside, 'secret.txt'), path.join(reports, 'leak'));
    symlinkSync(outside, path.join(reports, 'door'));
    for (const p of [
      '../outside/secret.txt',
      path.join(reports, '..', 'Reports2', 'b.txt'),
      path.join(reports2, 'b.txt'),
      reports2,
      path.join(outside, 'secret.txt'),
      'leak',
      'door/secret.txt',
      'door',
      'door/missing.txt',
    ]) {
      await expect(resolveExisting(roots, p), p).rejects.toMatchObject({ code: 'OUTSIDE_GRANTED_FOLDERS' });
    }
  });

  it('reports a missing path inside as NOT_FOUND and a link loop as INVALID_PATH', async () => {
    await expect(resolveExisting(roots, 'nope/x.txt')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    symlinkSync('loop2', path.join(reports, 'loop1'));
    symlinkSync('loop1', path.join(reports, 'loop2'));
    await expect(resolveExisting(roots, 'loop1')).rejects.toMatchObject({ code: 'INVALID_PATH' });
  });
});

describe('resolveEntry', () => {
  it('does not follow the last link, so a link is handled as itself', async () => {
    symlinkSync(path.join(outside, 'secret.txt'), path.join(reports, 'leak'));
    await expect(resolveEntry(roots, 'leak')).resolves.toEqual({ root: roots[0], path: path.join(reports, 'leak') });
  });

  it('refuses the root, however spelled, and a symlinked parent leading out', async () => {
    for (const p of [reports, `${reports}/`, '.', 'x/..']) {
      await expect(resolveEntry(roots, p), p).rejects.toMatchObject({ code: 'INVALID_PATH' });
    }
    symlinkSync(outside, path.join(reports, 'door'));
    await expect(resolveEntry(roots, 'door/secret.txt')).rejects.toMatchObject({ code: 'OUTSIDE_GRANTED_FOLDERS' });
  });

  it('refuses a link to a root as the root? no: the link itself is an ordinary entry', async () => {
    symlinkSync(reports, path.join(reports, 'self'));
    await expect(resolveEntry(roots, 'self')).resolves.toMatchObject({ path: path.join(reports, 'self') });
  });
});

describe('resolveForCreate', () => {
  it('realpaths the parent and keeps the new name', async () => {
    mkdirSync(path.join(reports, 'real'));
    symlinkSync(path.join(reports, 'real'), path.join(reports, 'alias'));
    await expect(resolveForCreate(roots, 'alias/new.txt')).resolves.toEqual({
      root: roots[0],
      path: path.join(reports, 'real', 'new.txt'),
    });
  });

  it('refuses a final name that is a link, even one pointing inside', async () => {
    symlinkSync(path.join(outside, 'secret.txt'), path.join(reports, 'leak'));
    symlinkSync(path.join(reports, 'a.txt'), path.join(reports, 'inner'));
    symlinkSync(path.join(outside, 'nothing-yet.txt'), path.join(reports, 'dangling'));
    for (const p of ['leak', 'inner', 'dangling']) {
      await expect(resolveForCreate(roots, p), p).rejects.toMatchObject({
        code: 'INVALID_PATH',
        message: expect.stringMatching(/is a link/),
      });
    }
    expect(existsSync(path.join(outside, 'nothing-yet.txt'))).toBe(false);
  });

  it('refuses a parent outside, a missing parent, and the root', async () => {
    symlinkSync(outside, path.join(reports, 'door'));
    await expect(resolveForCreate(roots, 'door/x.txt')).rejects.toMatchObject({ code: 'OUTSIDE_GRANTED_FOLDERS' });
    await expect(resolveForCreate(roots, 'door/sub/x.txt')).rejects.toMatchObject({
      code: 'OUTSIDE_GRANTED_FOLDERS',
    });
    await expect(resolveForCreate(roots, path.join(reports2, 'x.txt'))).rejects.toMatchObject({
      code: 'OUTSIDE_GRANTED_FOLDERS',
    });
    await expect(resolveForCreate(roots, 'missing/x.txt')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(resolveForCreate(roots, reports)).rejects.toMatchObject({ code: 'INVALID_PATH' });
    await expect(resolveForCreate(roots, '/')).rejects.toMatchObject({ code: 'OUTSIDE_GRANTED_FOLDERS' });
  });
});

describe('createExclusive / writeFileAtomically', () => {
  it('createExclusive never replaces, and never writes through a link', async () => {
    const file = path.join(reports, 'new.txt');
    await createExclusive(file, 'one');
    await expect(createExclusive(file, 'two')).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(file, 'utf8')).toBe('one');
    symlinkSync(path.join(outside, 'target.txt'), path.join(reports, 'dangling'));
    await expect(createExclusive(path.join(reports, 'dangling'), 'x')).rejects.toMatchObject({ code: 'EEXIST' });
    expect(existsSync(path.join(outside, 'target.txt'))).toBe(false);
  });

  it('writeFileAtomically replaces by rename, leaves no temp file, and keeps a given mode', async () => {
    const file = path.join(reports, 'a.txt');
    await writeFileAtomically(file, 'new content', { mode: 0o640 });
    expect(readFileSync(file, 'utf8')).toBe('new content');
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(reports)).toEqual(['a.txt']);
  });

  it('writeFileAtomically replaces a link at the target instead of writing through it', async () => {
    const link = path.join(reports, 'leak');
    symlinkSync(path.join(outside, 'secret.txt'), link);
    await writeFileAtomically(link, 'replaced');
    expect(lstatSync(link).isSymbolicLink()).toBe(false);
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret');
  });

  it('writeFileAtomically cleans up its temp file when the rename fails', async () => {
    mkdirSync(path.join(reports, 'dir'));
    writeFileSync(path.join(reports, 'dir', 'x'), 'x');
    await expect(writeFileAtomically(path.join(reports, 'dir'), 'x')).rejects.toBeDefined();
    expect(readdirSync(reports).sort()).toEqual(['a.txt', 'dir']);
  });
});

describe('a granted folder bound to its identity', () => {
  const identity = (p: string) => {
    const stats = lstatSync(p, { bigint: true });
    return { dev: stats.dev.toString(), ino: stats.ino.toString() };
  };
  const changed = /is no longer the folder you granted \(it was replaced or moved\); grant it again in Settings\./;

  it('resolves while the folder is the one granted', async () => {
    const bound = [{ path: reports, untrusted: false, identity: identity(reports) }];
    await expect(resolveExisting(bound, 'a.txt')).resolves.toMatchObject({ path: path.join(reports, 'a.txt') });
    await expect(assertRootIntact(bound[0]!)).resolves.toBeUndefined();
  });

  it('refuses every resolution once the folder was swapped for a link to /, naming the grant', async () => {
    const bound = [{ path: reports, untrusted: false, identity: identity(reports) }];
    renameSync(reports, `${reports}.old`);
    symlinkSync('/', reports);
    for (const resolve of [resolveExisting, resolveEntry, resolveForCreate]) {
      for (const p of [path.join(reports, 'etc', 'hostname'), 'etc/hostname', path.join(reports, 'new.txt')]) {
        await expect(resolve(bound, p), p).rejects.toMatchObject({
          code: 'OUTSIDE_GRANTED_FOLDERS',
          message: expect.stringMatching(changed),
        });
      }
    }
    await expect(resolveExisting(bound, reports)).rejects.toThrow(`"${reports}" is no longer the folder you granted`);
  });

  it('refuses a folder replaced by a new one at the same path, and a removed one', async () => {
    const bound = [{ path: reports, untrusted: false, identity: identity(reports) }];
    renameSync(reports, `${reports}.old`);
    mkdirSync(reports);
    writeFileSync(path.join(reports, 'a.txt'), 'planted');
    await expect(resolveExisting(bound, 'a.txt')).rejects.toThrow(changed);
    rmSync(reports, { recursive: true });
    await expect(resolveForCreate(bound, 'a.txt')).rejects.toThrow(changed);
  });

  it('refuses an older grant (no identity) that became a link; a missing one is refused as before', async () => {
    renameSync(reports, `${reports}.old`);
    symlinkSync(outside, reports);
    await expect(resolveExisting(roots, 'secret.txt')).rejects.toThrow(changed);
    rmSync(reports);
    // A pack's folder not made yet has no identity: it is not reported as a changed grant.
    await expect(resolveForCreate(roots, 'x.txt')).rejects.toThrow(/is outside the folders you may use/);
  });

  it('checks the grant a link leads into, too', async () => {
    const inner = path.join(outside, 'inner');
    mkdirSync(inner);
    const bound = [
      { path: reports, untrusted: false, identity: identity(reports) },
      { path: inner, untrusted: false, identity: identity(inner) },
    ];
    symlinkSync(inner, path.join(reports, 'to-inner'));
    await expect(resolveExisting(bound, 'to-inner')).resolves.toMatchObject({ path: inner });
    renameSync(inner, `${inner}.old`);
    mkdirSync(inner);
    await expect(resolveExisting(bound, 'to-inner')).rejects.toThrow(changed);
  });
});
