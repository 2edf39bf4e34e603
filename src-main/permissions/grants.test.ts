import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { broadFolder, broadFolderWarning, grantState } from './grants.js';
import { emptyPolicy, grantFolder, parsePolicy } from './policy.js';
import { describeChanges, policyChanges } from './policyChanges.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'hb-grants-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function granted(name: string) {
  const folder = join(base, name);
  mkdirSync(folder, { recursive: true });
  return grantFolder(emptyPolicy(), { path: folder, untrusted: false }).folders[0]!;
}

describe('a grant is the folder granted, not its path', () => {
  it('holds while the folder is the one granted', () => {
    const docs = granted('ok');
    expect(grantState(docs)).toMatchObject({ ok: true, identity: docs.identity });
  });

  it('is refused once another program moved the folder away and put a link to / in its place', () => {
    const docs = granted('swapped');
    renameSync(docs.path, `${docs.path}.old`);
    symlinkSync('/', docs.path);
    expect(grantState(docs)).toMatchObject({
      ok: false,
      why: 'link',
      message: expect.stringMatching(/replaced by a link/),
    });
  });

  it('is refused once a new folder sits at its path', () => {
    const docs = granted('replaced');
    renameSync(docs.path, `${docs.path}.old`);
    mkdirSync(docs.path);
    expect(grantState(docs)).toMatchObject({
      ok: false,
      why: 'replaced',
      message: expect.stringMatching(/no longer the folder you granted.*grant it again/),
    });
  });

  it('is refused while its folder is gone, or a file', () => {
    const docs = granted('gone');
    rmSync(docs.path, { recursive: true });
    expect(grantState(docs)).toMatchObject({ ok: false, why: 'missing' });
    writeFileSync(docs.path, 'x');
    expect(grantState(docs)).toMatchObject({ ok: false, why: 'not-a-folder' });
  });

  it('follows the folder when it is granted again', () => {
    const docs = granted('again');
    renameSync(docs.path, `${docs.path}.old`);
    mkdirSync(docs.path);
    const again = grantFolder({ ...emptyPolicy(), folders: [docs] }, { path: docs.path, untrusted: false });
    expect(again.folders).toHaveLength(1);
    expect(grantState(again.folders[0]!)).toMatchObject({ ok: true });
    expect(policyChanges({ ...emptyPolicy(), folders: [docs] }, again)).toEqual([
      { kind: 'folder-regranted', path: docs.path, untrusted: false },
    ]);
  });

  it('binds the folders of an imported policy as they are here, whatever identity the file carries', () => {
    const folder = join(base, 'imported');
    mkdirSync(folder);
    const policy = parsePolicy(
      { version: 1, tools: {}, folders: [{ path: folder, identity: { dev: '1', ino: '2' } }] },
      () => 'read',
    );
    expect(grantState(policy.folders[0]!)).toMatchObject({ ok: true });
    expect(policy.folders[0]!.identity).not.toEqual({ dev: '1', ino: '2' });
  });
});

describe('broad folders need a second, explicit confirmation', () => {
  const home = '/home/ana';
  it.each([
    ['/', 'root'],
    ['/home/ana', 'home'],
    ['/home', 'holds-homes'],
    ['/Users', 'holds-homes'],
    ['/etc', 'system'],
    ['/etc/ssh', 'system'],
    ['/usr/local/share', 'system'],
    ['/var', 'system'],
    ['/tmp', 'system'],
    ['/System/Library', 'system'],
  ])('%s is %s', (folder, kind) => {
    expect(broadFolder(folder, home)).toBe(kind);
    expect(broadFolderWarning(folder, kind as never)).toContain(folder);
  });

  it.each([
    '/home/ana/Documents',
    '/home/ana/Downloads/inbox',
    '/tmp/hb-x',
    '/var/folders/ab/T',
    '/Volumes/USB',
    '/srv/share',
    '/opt/data',
  ])('%s is an ordinary folder', (folder) => {
    expect(broadFolder(folder, home)).toBeUndefined();
  });

  it('refuses a broad grant until it is confirmed, saying what it reaches, and never grants the data folder', () => {
    expect(() => grantFolder(emptyPolicy(), { path: '/', untrusted: false })).toThrow(
      expect.objectContaining({ code: 'CONFIRMATION_REQUIRED', message: expect.stringMatching(/whole disk/) }),
    );
    expect(
      grantFolder(emptyPolicy(), { path: '/', untrusted: false }, { confirmBroad: true }).folders[0],
    ).toMatchObject({
      path: '/',
    });
    const data = join(base, 'data');
    mkdirSync(join(data, 'notes'), { recursive: true });
    for (const folder of [data, join(data, 'notes')]) {
      expect(() =>
        grantFolder(emptyPolicy(), { path: folder, untrusted: false }, { dataDir: data, confirmBroad: true }),
      ).toThrow(/Homebody's own data folder/);
    }
    expect(() => parsePolicy({ version: 1, tools: {}, folders: [{ path: '/' }] }, () => 'read')).toThrow(
      expect.objectContaining({ code: 'CONFIRMATION_REQUIRED' }),
    );
  });
});

describe('policy changes, as the audit log records them', () => {
  it('names each folder granted, removed or re-marked and each tool mode from and to', () => {
    const before = {
      version: 1 as const,
      tools: { move: 'ask' as const, read_text: 'auto' as const },
      folders: [
        { path: '/d', untrusted: false },
        { path: '/e', untrusted: false },
      ],
    };
    const after = {
      version: 1 as const,
      tools: { move: 'auto' as const, write_text: 'off' as const },
      folders: [
        { path: '/d', untrusted: true },
        { path: '/f', untrusted: false },
      ],
    };
    const changes = policyChanges(before, after);
    expect(changes).toEqual([
      { kind: 'folder-trust', path: '/d', untrusted: true },
      { kind: 'folder-granted', path: '/f', untrusted: false },
      { kind: 'folder-removed', path: '/e' },
      { kind: 'tool-mode', tool: 'move', from: 'ask', to: 'auto' },
      { kind: 'tool-mode', tool: 'read_text', from: 'auto', to: null },
      { kind: 'tool-mode', tool: 'write_text', from: null, to: 'off' },
    ]);
    expect(describeChanges(changes)).toBe(
      'Marked /d as holding untrusted content; Granted the folder /f; Removed the folder /e; move: ask → auto; read_text: auto → the default; write_text: the default → off',
    );
    expect(policyChanges(before, before)).toEqual([]);
  });
});
