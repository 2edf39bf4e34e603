import { lstatSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FolderIdentity, GrantedFolder } from '../../src-shared/contract/index.js';

/**
 * A grant is a folder, not a path: its device and inode are recorded when the user grants it, and a folder whose
 * path now leads elsewhere (another program ran `mv Docs Docs.old; ln -s / Docs`, or put a new folder there) is not
 * the one the user granted. It grants nothing until the user grants it again.
 */

/** The identity of the folder at `folder` (links followed, as the policy keeps real paths); undefined if none. */
export function folderIdentity(folder: string): FolderIdentity | undefined {
  try {
    const stats = statSync(folder, { bigint: true });
    return stats.isDirectory() ? { dev: String(stats.dev), ino: String(stats.ino) } : undefined;
  } catch {
    return undefined;
  }
}

export type GrantState =
  | { readonly ok: true; readonly identity: FolderIdentity }
  | { readonly ok: false; readonly why: 'missing' | 'replaced' | 'link' | 'not-a-folder'; readonly message: string };

/** Whether the folder at a grant's path is still the folder that was granted. */
export function grantState(folder: GrantedFolder): GrantState {
  let stats;
  try {
    stats = lstatSync(folder.path, { bigint: true });
  } catch {
    return { ok: false, why: 'missing', message: `${folder.path} is gone; it grants nothing until it is back.` };
  }
  if (stats.isSymbolicLink()) {
    return {
      ok: false,
      why: 'link',
      message: `${folder.path} was replaced by a link since you granted it; grant it again in Settings if you trust where it leads.`,
    };
  }
  if (!stats.isDirectory()) {
    return { ok: false, why: 'not-a-folder', message: `${folder.path} is no longer a folder; it grants nothing.` };
  }
  const identity = { dev: String(stats.dev), ino: String(stats.ino) };
  if (folder.identity && (folder.identity.dev !== identity.dev || folder.identity.ino !== identity.ino)) {
    return {
      ok: false,
      why: 'replaced',
      message: `${folder.path} is no longer the folder you granted (it was replaced or moved); grant it again in Settings.`,
    };
  }
  return { ok: true, identity };
}

/** Why granting a folder deserves a second, explicit confirmation; undefined for an ordinary folder. */
export type BroadFolder = 'root' | 'home' | 'holds-homes' | 'system';

/** System folders: granting one, or any folder inside one, reaches the system itself. */
const SYSTEM_TREES_POSIX = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/proc',
  '/sbin',
  '/sys',
  '/usr',
  '/System',
  '/private/etc',
];
/** Folders that are broad themselves, though much inside them is ordinary (/tmp/x, /var/folders/..., /Volumes/USB). */
const SYSTEM_FOLDERS_POSIX = [
  '/opt',
  '/root',
  '/run',
  '/srv',
  '/tmp',
  '/var',
  '/var/lib',
  '/Applications',
  '/Library',
  '/Volumes',
  '/private',
  '/private/var',
  '/private/tmp',
  '/cores',
];
const HOMES_POSIX = ['/home', '/Users'];

/** True when `candidate` is `folder` or lies below it (`folder + sep`, so Docs2 is not inside Docs). */
export function isInsideOrSame(folder: string, candidate: string): boolean {
  return candidate === folder || candidate.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);
}

/**
 * A folder whose grant reaches far more than a user usually means: the disk's root, the home folder itself, the
 * folder of every user's home, or a system folder (or a folder of one: granting /etc/ssh is no narrower in effect).
 * A folder inside the home folder is ordinary, even when the home folder lies under /home or /Users.
 */
export function broadFolder(folder: string, home: string = os.homedir()): BroadFolder | undefined {
  const real = path.resolve(folder);
  if (path.parse(real).root === real) return 'root';
  if (real === path.resolve(home)) return 'home';
  if (isInsideOrSame(path.resolve(home), real)) return undefined;
  if (process.platform === 'win32') {
    const lower = real.toLowerCase();
    const systemRoots = [
      process.env.SystemRoot,
      process.env.ProgramFiles,
      process.env['ProgramFiles(x86)'],
      process.env.ProgramData,
    ]
      .filter((p): p is string => typeof p === 'string' && p !== '')
      .map((p) => p.toLowerCase());
    if (systemRoots.some((root) => isInsideOrSame(root, lower))) return 'system';
    if (path.resolve(home, '..').toLowerCase() === lower) return 'holds-homes';
    return undefined;
  }
  if (HOMES_POSIX.includes(real) || isInsideOrSame(real, path.resolve(home))) return 'holds-homes';
  if (SYSTEM_TREES_POSIX.some((system) => isInsideOrSame(system, real)) || SYSTEM_FOLDERS_POSIX.includes(real))
    return 'system';
  return undefined;
}

/** The warning shown before such a grant, naming what it reaches. */
export function broadFolderWarning(folder: string, kind: BroadFolder): string {
  switch (kind) {
    case 'root':
      return `${folder} is the whole disk: every file on this computer that you can open, your keys and other apps' data included, could be read and changed by Homebody's tools. Grant a narrower folder unless you mean it.`;
    case 'home':
      return `${folder} is your whole home folder: your documents, but also your keys, browser profiles and other apps' settings. Grant the folders you mean (Documents, Downloads) unless you mean all of it.`;
    case 'holds-homes':
      return `${folder} holds home folders (yours, and other users'): granting it reaches everything in them. Grant a folder inside your own home instead unless you mean it.`;
    case 'system':
      return `${folder} is a system folder: changing files there can break this computer or other apps. Grant it only if you know why.`;
    default:
      return kind satisfies never;
  }
}
