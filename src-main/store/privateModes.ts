import { closeSync, constants, fchmodSync, fstatSync, mkdirSync, openSync } from 'node:fs';

/**
 * Modes for what Homebody keeps: on POSIX its files are 0600 and its folders 0700, so other users of the computer
 * read nothing of the history, the key or the lock. Windows has ACLs instead (the profile folder is the user's):
 * nothing here changes a mode there.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_FOLDER_MODE = 0o700;

const POSIX = process.platform !== 'win32';

/** Makes `dir` (and any missing parent) with mode 0700; answers whether this call created `dir` itself. */
export function makePrivateFolder(dir: string): boolean {
  const first = mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  return first !== undefined;
}

/** Creates an empty file that only its owner may read and write; one that exists is left as it is. */
export function createPrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', PRIVATE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * Takes the group's and others' permissions off one file or folder of Homebody's own, keeping the owner's; answers
 * whether it changed anything. Quietly leaves alone what is missing, a link (the descriptor is opened without
 * following one, so a link swapped in is never followed), what another user owns and what cannot be changed: a
 * mode is a safeguard here, never a reason not to start.
 */
export function makePrivate(path: string, kind: 'file' | 'folder'): boolean {
  if (!POSIX) return false;
  let fd: number;
  try {
    const flags = constants.O_RDONLY | constants.O_NOFOLLOW | (kind === 'folder' ? constants.O_DIRECTORY : 0);
    fd = openSync(path, flags);
  } catch {
    return false;
  }
  try {
    const stats = fstatSync(fd);
    if (kind === 'file' ? !stats.isFile() : !stats.isDirectory()) return false;
    if (stats.uid !== process.getuid?.()) return false;
    if ((stats.mode & 0o077) === 0) return false;
    fchmodSync(fd, stats.mode & 0o700);
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
