/**
 * Real temp folders for the file tool tests: two granted roots (one untrusted), a sibling whose
 * name starts with a root's name, an outside folder with a secret, and the trash. The grants carry the
 * folders' identity, as the Host records them. `snapshot()` records everything outside the roots (kind,
 * mode and content) so a test can assert that an attack changed nothing there.
 */
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FolderIdentity, GrantedRoot, ToolContext } from '../../tools/toolTypes.js';
import { refusingServices, testPackConfig } from './packFixture.js';

export interface Fixture {
  readonly base: string;
  /** Granted, trusted. */
  readonly reports: string;
  /** Granted, untrusted (like Downloads). */
  readonly downloads: string;
  /** NOT granted: a sibling whose name starts with "Reports". */
  readonly reports2: string;
  /** NOT granted. */
  readonly outside: string;
  readonly trash: string;
  readonly roots: GrantedRoot[];
  readonly ctx: ToolContext;
  /** Everything outside the granted roots and the trash, as path → kind:content. */
  snapshot(): Map<string, string>;
  cleanup(): void;
}

/** A folder's device and inode as a grant records them. */
export function identityOf(folder: string): FolderIdentity {
  const stats = lstatSync(folder, { bigint: true });
  return { dev: stats.dev.toString(), ino: stats.ino.toString() };
}

export function makeFixture(): Fixture {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hb-files-')));
  const reports = path.join(base, 'Reports');
  const reports2 = path.join(base, 'Reports2');
  const downloads = path.join(base, 'Downloads');
  const outside = path.join(base, 'outside');
  const trash = path.join(base, 'appdata', 'trash');
  for (const dir of [reports, reports2, downloads, outside, path.join(outside, 'dir')]) mkdirSync(dir);
  writeFileSync(path.join(outside, 'secret.txt'), 'TOP SECRET');
  writeFileSync(path.join(outside, 'dir', 'inner.txt'), 'inner secret');
  writeFileSync(path.join(reports2, 'q3.txt'), 'sibling content');
  writeFileSync(path.join(reports, 'notes.txt'), 'hello notes\nsecond line\n');
  // Bound to the folders' identity, as the Host records it when the user grants a folder.
  const roots: GrantedRoot[] = [
    { path: reports, untrusted: false, identity: identityOf(reports) },
    { path: downloads, untrusted: true, identity: identityOf(downloads) },
  ];
  const ctx: ToolContext = {
    roots,
    trashDir: trash,
    signal: new AbortController().signal,
    packs: testPackConfig(path.join(base, 'appdata', 'packs')),
    services: refusingServices,
  };
  const granted = new Set([reports, downloads, path.join(base, 'appdata')]);

  function snapshot(): Map<string, string> {
    const out = new Map<string, string>();
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir).sort()) {
        const p = path.join(dir, name);
        if (granted.has(p)) continue;
        const stats = lstatSync(p);
        const mode = (stats.mode & 0o7777).toString(8);
        if (stats.isSymbolicLink()) out.set(p, `link:${readlinkSync(p)}`);
        else if (stats.isDirectory()) {
          out.set(p, `folder:${mode}`);
          walk(p);
        } else out.set(p, `file:${mode}:${readFileSync(p, 'utf8')}`);
      }
    };
    walk(base);
    return out;
  }

  return {
    base,
    reports,
    downloads,
    reports2,
    outside,
    trash,
    roots,
    ctx,
    snapshot,
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}
