import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfinementMode } from './confinedFs.js';
import {
  assertOnlyName,
  ConfinedFolder,
  confinementMode,
  folderIdentity,
  openFolderAt,
  withFolder,
} from './confinedFs.js';
import type { GrantedRoot } from '../toolTypes.js';

let base: string;
let docs: string;
let outside: string;
let root: GrantedRoot;

beforeEach(async () => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hb-confined-')));
  docs = path.join(base, 'Docs');
  outside = path.join(base, 'outside');
  mkdirSync(path.join(docs, 'a', 'b'), { recursive: true });
  mkdirSync(path.join(outside, 'b'), { recursive: true });
  writeFileSync(path.join(docs, 'a', 'b', 'file.txt'), 'inside');
  writeFileSync(path.join(outside, 'b', 'file.txt'), 'OUTSIDE');
  root = { path: docs, untrusted: false, identity: await folderIdentity(docs) };
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** Descriptors this process holds now (Linux), to prove that every operation closes what it opened. */
function openDescriptors(): number {
  return readdirSync('/proc/self/fd').length;
}

const CHANGED = /changed while Homebody was using it/;
const GRANT_AGAIN = /is no longer the folder you granted \(it was replaced or moved\); grant it again in Settings\./;

it('uses folder descriptors on Linux', () => {
  expect(confinementMode()).toBe(process.platform === 'linux' ? 'descriptor' : 'path');
});

// Both modes run here: "path" is what macOS, Windows and a worker without /proc/self/fd use.
describe.each<ConfinementMode>(['descriptor', 'path'])('in %s mode', (mode) => {
  const read = async (anchor: GrantedRoot, folder: string, name: string): Promise<string> =>
    withFolder(
      anchor,
      folder,
      async (open) => {
        const { handle } = await open.openFile(name);
        try {
          return await handle.readFile('utf8');
        } finally {
          await handle.close();
        }
      },
      mode,
    );

  it('reads a file down a walk from the granted folder', async () => {
    await expect(read(root, path.join(docs, 'a', 'b'), 'file.txt')).resolves.toBe('inside');
  });

  it('refuses a granted folder replaced by another folder, or by a link, naming it', async () => {
    renameSync(docs, `${docs}.old`);
    mkdirSync(docs);
    await expect(openFolderAt(root, docs, mode)).rejects.toThrow(GRANT_AGAIN);
    await expect(openFolderAt(root, docs, mode)).rejects.toThrow(`"${docs}"`);
    rmSync(docs, { recursive: true });
    symlinkSync(`${docs}.old`, docs);
    await expect(read(root, path.join(docs, 'a', 'b'), 'file.txt')).rejects.toThrow(GRANT_AGAIN);
    // Without a recorded identity (an older policy) a link is still refused; a real folder is accepted.
    await expect(openFolderAt({ path: docs }, docs, mode)).rejects.toThrow(GRANT_AGAIN);
    await expect(openFolderAt({ path: docs }, docs, mode)).rejects.toMatchObject({
      code: 'OUTSIDE_GRANTED_FOLDERS',
    });
    const older = await openFolderAt({ path: `${docs}.old` }, `${docs}.old`, mode);
    await older.close();
  });

  it('judges a grant by its identity, not its path: the grant re-resolved to / is refused', async () => {
    await expect(openFolderAt({ ...root, path: '/' }, '/etc', mode)).rejects.toThrow(GRANT_AGAIN);
  });

  it('refuses a folder on the path that is a link, instead of following it', async () => {
    rmSync(path.join(docs, 'a', 'b'), { recursive: true });
    symlinkSync(path.join(outside, 'b'), path.join(docs, 'a', 'b'));
    await expect(read(root, path.join(docs, 'a', 'b'), 'file.txt')).rejects.toThrow(CHANGED);
  });

  it('refuses a file that is a link, a folder, and a named pipe (without hanging)', async () => {
    const folder = path.join(docs, 'a', 'b');
    symlinkSync(path.join(outside, 'b', 'file.txt'), path.join(folder, 'link.txt'));
    await expect(read(root, folder, 'link.txt')).rejects.toThrow(CHANGED);
    await expect(read(root, path.join(docs, 'a'), 'b')).rejects.toMatchObject({ code: 'NOT_A_FILE' });
    execFileSync('mkfifo', [path.join(folder, 'pipe')]);
    await expect(read(root, folder, 'pipe')).rejects.toMatchObject({
      code: 'NOT_A_FILE',
      message: expect.stringMatching(/not a regular file/),
    });
  });

  it('stops when an open folder was moved away before it is used, and leaves nothing where it went', async () => {
    const open = await openFolderAt(root, path.join(docs, 'a', 'b'), mode);
    try {
      // Another program moves a folder on the path away, and puts a link to the outside in its place.
      renameSync(path.join(docs, 'a'), path.join(base, 'moved-away'));
      mkdirSync(path.join(docs, 'a'));
      symlinkSync(path.join(outside, 'b'), path.join(docs, 'a', 'b'));
      await expect(open.openFile('file.txt')).rejects.toThrow(CHANGED);
      await expect(open.writeNewFile('new.txt', 'x')).rejects.toThrow(CHANGED);
      await expect(open.replaceFile('file.txt', 'x')).rejects.toThrow(CHANGED);
      await expect(open.unlink('file.txt')).rejects.toThrow(CHANGED);
      await expect(open.mkdir('dir')).rejects.toThrow(CHANGED);
    } finally {
      await open.close();
    }
    expect(readdirSync(path.join(base, 'moved-away', 'b')).sort()).toEqual(['file.txt']);
    expect(readFileSync(path.join(base, 'moved-away', 'b', 'file.txt'), 'utf8')).toBe('inside');
    expect(readdirSync(path.join(outside, 'b'))).toEqual(['file.txt']);
    expect(readFileSync(path.join(outside, 'b', 'file.txt'), 'utf8')).toBe('OUTSIDE');
  });

  it('creates exclusively, replaces by rename, moves and links between open folders', async () => {
    await withFolder(
      root,
      path.join(docs, 'a'),
      async (a) => {
        const b = await a.openFolder('b');
        try {
          await b.writeNewFile('new.txt', 'one');
          await expect(b.writeNewFile('new.txt', 'two')).rejects.toMatchObject({ code: 'EEXIST' });
          symlinkSync(path.join(outside, 'b', 'file.txt'), path.join(docs, 'a', 'b', 'dangling'));
          await expect(b.writeNewFile('dangling', 'x')).rejects.toMatchObject({ code: 'EEXIST' });
          await b.replaceFile('dangling', 'replaced', 0o640);
          expect(lstatSync(path.join(docs, 'a', 'b', 'dangling')).isSymbolicLink()).toBe(false);
          expect(lstatSync(path.join(docs, 'a', 'b', 'dangling')).mode & 0o777).toBe(0o640);
          await ConfinedFolder.rename(b, 'new.txt', a, 'moved.txt');
          await ConfinedFolder.link(a, 'moved.txt', b, 'linked.txt');
          expect((await b.lstat('linked.txt'))?.nlink).toBe(2n);
          expect((await b.readdir()).map((d) => d.name).sort()).toEqual(['dangling', 'file.txt', 'linked.txt']);
        } finally {
          await b.close();
        }
      },
      mode,
    );
    expect(readFileSync(path.join(docs, 'a', 'moved.txt'), 'utf8')).toBe('one');
    expect(readFileSync(path.join(outside, 'b', 'file.txt'), 'utf8')).toBe('OUTSIDE');
    expect(readdirSync(path.join(docs, 'a', 'b')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it.runIf(process.platform === 'linux')('closes every descriptor it opened, on success and on refusal', async () => {
    const before = openDescriptors();
    await read(root, path.join(docs, 'a', 'b'), 'file.txt');
    await read(root, path.join(docs, 'a', 'b'), 'missing.txt').catch(() => undefined);
    symlinkSync(outside, path.join(docs, 'a', 'out'));
    await read(root, path.join(docs, 'a', 'out'), 'x').catch(() => undefined);
    await openFolderAt({ ...root, identity: { dev: '1', ino: '1' } }, docs, mode).catch(() => undefined);
    const open = await openFolderAt(root, path.join(docs, 'a', 'b'), mode);
    await open.writeNewFile('n.txt', 'n');
    await open.close();
    expect(openDescriptors()).toBe(before);
  });
});

describe('hard links', () => {
  it('refuses a regular file with more than one name, naming the count', async () => {
    linkSync(path.join(outside, 'b', 'file.txt'), path.join(docs, 'a', 'b', 'hard.txt'));
    await withFolder(root, path.join(docs, 'a', 'b'), async (b) => {
      const { handle, stats } = await b.openFile('hard.txt');
      await handle.close();
      expect(() => assertOnlyName(stats, b.pathOf('hard.txt'), 'read')).toThrow(
        /has 2 hard links .* so Homebody does not read it/,
      );
      const single = await b.lstat('file.txt');
      expect(() => assertOnlyName(single!, b.pathOf('file.txt'), 'read')).not.toThrow();
    });
  });
});

it('records a folder identity as decimal strings, and refuses a file', async () => {
  const identity = await folderIdentity(docs);
  expect(identity.dev).toMatch(/^\d+$/);
  expect(identity.ino).toBe(String(lstatSync(docs, { bigint: true }).ino));
  await expect(folderIdentity(path.join(docs, 'a', 'b', 'file.txt'))).rejects.toMatchObject({ code: 'NOT_A_FOLDER' });
  expect(existsSync(docs)).toBe(true);
});
