/**
 * The second wall (DESIGN.md, "Confinement has two walls"): file operations that close the race between checking a
 * path and using it. pathGuard turns what was asked for into an absolute, realpath'd place inside a granted folder;
 * this module then reaches that place without trusting the path a second time.
 *
 * Linux ("descriptor" mode):
 * - The granted folder (the anchor) is opened with O_DIRECTORY|O_NOFOLLOW and fstat'd: it must be the folder the user
 *   granted, by device and inode recorded when granted (`GrantedRoot.identity`). A root with no recorded identity (an
 *   older policy, the trash, a pack's folder) must be a real folder at exactly its path. Either way, a root that was
 *   moved away, replaced by another folder, or swapped for a link is refused until the user grants it again.
 * - From there the path is walked one component at a time, each folder opened with O_DIRECTORY|O_NOFOLLOW relative to
 *   the open folder above it. Node has no openat(), but the kernel resolves `/proc/self/fd/<fd>/<name>` through the
 *   open folder itself, wherever that folder now is; so a component that is (or just became) a link is refused, never
 *   followed, and no rename elsewhere on the path can redirect the walk.
 * - The operation names only the last component, relative to its open folder: a file is opened with
 *   O_NOFOLLOW|O_NONBLOCK and must be a regular file (fstat); new files are created with O_CREAT|O_EXCL; a file is
 *   replaced through a temp file created in the same open folder and a rename; moves, links, unlinks, mkdir and rmdir
 *   name both sides relative to open folders.
 * - Before a byte is read or written, and before each change, the real path of the open folder (or of the opened
 *   file) is read back from /proc/self/fd and must still be the place that was checked. If it is not, the folder
 *   changed while Homebody was using it, and the call stops there.
 * What this does not close: a folder that another program moves out of a granted folder after that last check and
 *   before the single system call that follows it (a read of an already opened file, a rename). Nothing is followed
 *   then, so the call still only touches what was inside the grant a moment before. The OS sandbox (first wall) is
 *   what makes the rest of the disk unreachable.
 *
 * Hard links. A regular file with more than one name (nlink > 1) may share its content with a file outside the
 *   granted folders, and no name tells which. Such a file is never read: read_text, search_files' content search,
 *   copy (file or inside a folder copy) and moves across devices (which copy) refuse or skip it, naming the link
 *   count. Replacing one (write_text with overwrite) renames a new file over its name, so the other names keep their
 *   content; its old version goes to the trash as one more name of it (a hard link, bytes never read) or, where that
 *   is impossible, the overwrite is refused. Moves within a device (link, then unlink) keep the entry's inode, checked
 *   after the link, and both names sit in open, checked folders, so a move cannot link a file from outside in.
 *
 * Elsewhere ("path" mode: macOS, Windows, a Linux without /proc, or Node's permission model where /proc/self/fd is
 *   not allowed): no folder-relative opens exist, so operations use paths, made as strict as the platform allows.
 *   Every folder from the anchor down is lstat'd (a real folder, not a link) and remembered by device and inode; each
 *   operation re-checks that chain first, opens files with O_NOFOLLOW (not on Windows), and compares the opened
 *   descriptor's fstat with a fresh lstat of the path. That catches a swap that is still in place when checked, not
 *   one that flips and flips back between two checks: there the race is narrowed, not closed, and only the OS
 *   sandbox closes it.
 */
import { constants, statSync } from 'node:fs';
import type { BigIntStats, Dir, Dirent } from 'node:fs';
import {
  link,
  lstat,
  mkdir,
  open,
  opendir,
  readdir,
  readlink,
  realpath,
  rename,
  rmdir,
  symlink,
  unlink,
} from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FolderIdentity } from '../toolTypes.js';
import { ToolError } from '../toolTypes.js';
import { fsError, isInsideOrSame, rootChanged, showPath, writeWhole } from './pathGuard.js';

const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
/** Opens a folder (never through a link at its last component). */
const FOLDER_FLAGS = constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
/** Opens a file for reading: never through a link; a named pipe must not hang the worker (it is then refused). */
const READ_FLAGS = constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
/** Creates a new file: fails if anything (a link included) has the name. */
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;

const PROC_FD = '/proc/self/fd';

/** How confinement works in this process: see the module comment. */
export type ConfinementMode = 'descriptor' | 'path';

let detected: ConfinementMode | undefined;

/** The mode this process can use, probed once. */
export function confinementMode(): ConfinementMode {
  detected ??= detectMode();
  return detected;
}

interface PermissionModel {
  has(scope: string, reference?: string): boolean;
}

function detectMode(): ConfinementMode {
  if (process.platform !== 'linux') return 'path';
  // Under Node's permission model (the compiled worker) the launcher must allow /proc/self/fd for reading and writing.
  const permission = (process as { permission?: PermissionModel }).permission;
  if (permission !== undefined && !(permission.has('fs.read', PROC_FD) && permission.has('fs.write', PROC_FD))) {
    return 'path';
  }
  try {
    return statSync(PROC_FD).isDirectory() ? 'descriptor' : 'path';
  } catch {
    return 'path';
  }
}

/** A folder to start from: a granted folder, or one of Homebody's own (the trash, a pack's folder). */
export interface Anchor {
  /** Absolute and canonical (a realpath when it was recorded). */
  readonly path: string;
  /** Device and inode when granted; without it the folder must be a real folder (not a link) at `path`. */
  readonly identity?: FolderIdentity;
  /** Homebody's own folder rather than one the user granted: a change is reported as such. */
  readonly own?: boolean;
}

/** A place pathGuard resolved: the root it lies in, and its canonical path. */
export interface Place {
  readonly root: Anchor;
  readonly path: string;
}

export function errnoCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}

function anchorChanged(anchor: Anchor): ToolError {
  if (anchor.own) {
    return new ToolError(
      'IO_ERROR',
      `Homebody's folder ${showPath(anchor.path)} was replaced or moved (or is now a link), so Homebody stopped.`,
    );
  }
  return rootChanged(anchor);
}

/** The refusal for a folder (or the entry `name` in it) that changed between the check and its use. */
export function changedWhileUsing(folder: string, name?: string): ToolError {
  const what = name === undefined ? 'it or a folder on its path' : `${showPath(name)} in it`;
  return new ToolError(
    'IO_ERROR',
    `The folder ${showPath(folder)} changed while Homebody was using it (${what} was replaced by a link or moved), ` +
      'so Homebody stopped. Try again once nothing else is changing it.',
  );
}

/** Refuses a regular file with more than one name: its content may be shared with a file outside the grants. */
export function assertOnlyName(stats: BigIntStats, where: string, doing: string): void {
  if (stats.isFile() && stats.nlink > 1n) {
    throw new ToolError(
      'INVALID_INPUT',
      `${showPath(where)} has ${stats.nlink} hard links (names for the same content), and another of them may lie ` +
        `outside the folders you granted, so Homebody does not ${doing} it. Make a separate copy of it with another ` +
        'program if Homebody should use it.',
    );
  }
}

/** The identity of a folder at `p` now, as a grant records it (the path itself, never a link's target). */
export async function folderIdentity(p: string): Promise<FolderIdentity> {
  const stats = await lstat(p, { bigint: true });
  if (!stats.isDirectory()) throw new ToolError('NOT_A_FOLDER', `${showPath(p)} is not a folder.`);
  return { dev: stats.dev.toString(), ino: stats.ino.toString() };
}

function matchesIdentity(anchor: Anchor, stats: BigIntStats): boolean {
  if (anchor.identity === undefined) return true;
  return stats.dev.toString() === anchor.identity.dev && stats.ino.toString() === anchor.identity.ino;
}

/** One name inside a folder: no separators, not `.` or `..`, no NUL. */
function assertName(name: string): void {
  if (
    name === '' ||
    name === '.' ||
    name === '..' ||
    name.includes('/') ||
    name.includes('\0') ||
    (process.platform === 'win32' && name.includes('\\'))
  ) {
    throw new ToolError('INVALID_PATH', `${showPath(name)} is not a single file or folder name.`);
  }
}

/** The names from `base` down to `target` (both canonical absolute paths; `target` inside `base`). */
function partsBelow(base: string, target: string): string[] {
  if (!isInsideOrSame(base, target)) {
    throw new ToolError('OUTSIDE_GRANTED_FOLDERS', `${showPath(target)} is not inside ${showPath(base)}.`);
  }
  if (target === base) return [];
  const parts = path.relative(base, target).split(path.sep);
  for (const part of parts) assertName(part);
  return parts;
}

interface Level {
  readonly path: string;
  readonly dev: bigint;
  readonly ino: bigint;
}

/**
 * An open folder inside an anchor, reached without following a link. Every name passed to its methods is one entry
 * of this folder. Close it (try/finally): in descriptor mode it holds a file descriptor.
 */
export class ConfinedFolder {
  private closed = false;

  private constructor(
    /** Where the folder was when opened (canonical); checked again before each use. */
    readonly path: string,
    private readonly anchor: Anchor,
    /** Descriptor mode: the open folder. */
    private readonly handle: FileHandle | undefined,
    /** Path mode: every folder from the anchor down to this one, to check again before each use. */
    private readonly chain: readonly Level[],
  ) {}

  get mode(): ConfinementMode {
    return this.handle === undefined ? 'path' : 'descriptor';
  }

  /** Opens `anchor`, checking that it is still the folder that was granted. */
  static async openAnchor(anchor: Anchor, mode: ConfinementMode = confinementMode()): Promise<ConfinedFolder> {
    if (mode === 'descriptor') {
      let handle: FileHandle;
      try {
        handle = await open(anchor.path, FOLDER_FLAGS);
      } catch (err) {
        const code = errnoCode(err);
        if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') throw anchorChanged(anchor);
        throw fsError(err, anchor.path);
      }
      const folder = new ConfinedFolder(anchor.path, anchor, handle, []);
      try {
        if (!matchesIdentity(anchor, await handle.stat({ bigint: true }))) throw anchorChanged(anchor);
        await folder.verify();
        return folder;
      } catch (err) {
        await folder.close();
        throw err;
      }
    }
    let stats: BigIntStats;
    try {
      stats = await lstat(anchor.path, { bigint: true });
    } catch (err) {
      const code = errnoCode(err);
      if (code === 'ENOENT' || code === 'ENOTDIR') throw anchorChanged(anchor);
      throw fsError(err, anchor.path);
    }
    if (stats.isSymbolicLink() || !stats.isDirectory() || !matchesIdentity(anchor, stats)) throw anchorChanged(anchor);
    return new ConfinedFolder(anchor.path, anchor, undefined, [{ path: anchor.path, dev: stats.dev, ino: stats.ino }]);
  }

  /** The kernel's path to `name` in this folder: through the open descriptor, or (path mode) the plain path. */
  entry(name: string): string {
    assertName(name);
    if (this.closed) throw new Error(`The folder ${this.path} was already closed.`);
    return this.handle === undefined ? path.join(this.path, name) : `${PROC_FD}/${this.handle.fd}/${name}`;
  }

  /** Where `name` in this folder is, for messages and results. */
  pathOf(name: string): string {
    return path.join(this.path, name);
  }

  private self(): string {
    if (this.closed) throw new Error(`The folder ${this.path} was already closed.`);
    return this.handle === undefined ? this.path : `${PROC_FD}/${this.handle.fd}`;
  }

  private changed(name?: string): ToolError {
    return this.path === this.anchor.path && name === undefined
      ? anchorChanged(this.anchor)
      : changedWhileUsing(this.path, name);
  }

  /** Refuses to go on when this folder is no longer where it was checked (moved, or a folder above it was). */
  async verify(): Promise<void> {
    if (this.handle !== undefined) {
      let now: string;
      try {
        now = await readlink(this.self());
      } catch (err) {
        throw fsError(err, this.path);
      }
      if (now !== this.path) throw this.changed();
      return;
    }
    for (const level of this.chain) {
      const stats = await lstat(level.path, { bigint: true }).catch(() => undefined);
      if (
        stats === undefined ||
        stats.isSymbolicLink() ||
        !stats.isDirectory() ||
        stats.dev !== level.dev ||
        stats.ino !== level.ino
      ) {
        throw this.changed();
      }
    }
  }

  /** An entry's own metadata (a link as a link), or undefined when nothing has that name. */
  async lstat(name: string): Promise<BigIntStats | undefined> {
    if (this.handle === undefined) await this.verify();
    try {
      return await lstat(this.entry(name), { bigint: true });
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return undefined;
      throw fsError(err, this.pathOf(name));
    }
  }

  /** The subfolder `name`, opened without following a link; a link (or a file) there is refused. */
  async openFolder(name: string): Promise<ConfinedFolder> {
    const where = this.pathOf(name);
    if (this.handle !== undefined) {
      let handle: FileHandle;
      try {
        handle = await open(this.entry(name), FOLDER_FLAGS);
      } catch (err) {
        throw await this.whyNotAFolder(err, name);
      }
      return new ConfinedFolder(where, this.anchor, handle, []);
    }
    const stats = await this.lstat(name);
    if (stats === undefined) throw new ToolError('NOT_FOUND', `${showPath(where)} does not exist.`);
    if (stats.isSymbolicLink()) throw this.changed(name);
    if (!stats.isDirectory()) throw new ToolError('NOT_A_FOLDER', `${showPath(where)} is a file, not a folder.`);
    return new ConfinedFolder(where, this.anchor, undefined, [
      ...this.chain,
      { path: where, dev: stats.dev, ino: stats.ino },
    ]);
  }

  private async whyNotAFolder(err: unknown, name: string): Promise<ToolError> {
    const code = errnoCode(err);
    const where = this.pathOf(name);
    if (code === 'ENOENT') return new ToolError('NOT_FOUND', `${showPath(where)} does not exist.`);
    if (code !== 'ENOTDIR' && code !== 'ELOOP') return fsError(err, where);
    const now = await this.lstat(name).catch(() => undefined);
    if (now !== undefined && !now.isSymbolicLink() && !now.isDirectory()) {
      return new ToolError('NOT_A_FOLDER', `${showPath(where)} is a file, not a folder.`);
    }
    return this.changed(name);
  }

  /** The folder at `target` (canonical, inside this one), walked down one name at a time. */
  async openDescendant(target: string): Promise<ConfinedFolder> {
    const parts = partsBelow(this.path, target);
    if (parts.length === 0) return this.reopen();
    let current: ConfinedFolder | undefined;
    try {
      for (const part of parts) {
        const next: ConfinedFolder = await (current ?? this).openFolder(part);
        await current?.close();
        current = next;
      }
    } catch (err) {
      await current?.close();
      throw err;
    }
    return current as ConfinedFolder;
  }

  /** This folder once more, as a separately closed object. */
  async reopen(): Promise<ConfinedFolder> {
    if (this.handle === undefined) return new ConfinedFolder(this.path, this.anchor, undefined, this.chain);
    // /proc/self/fd/<fd> is itself a (magic) link to the open folder: it must be followed, so no O_NOFOLLOW here.
    const handle = await open(this.self(), constants.O_RDONLY | O_DIRECTORY);
    return new ConfinedFolder(this.path, this.anchor, handle, []);
  }

  /**
   * Opens the regular file `name` for reading, then checks that the descriptor is that file in this folder before a
   * byte is read. A link, a folder, a pipe or a device there is refused.
   */
  async openFile(name: string): Promise<{ handle: FileHandle; stats: BigIntStats }> {
    const where = this.pathOf(name);
    if (this.handle === undefined) await this.verify();
    let handle: FileHandle;
    try {
      handle = await open(this.entry(name), READ_FLAGS);
    } catch (err) {
      if (errnoCode(err) === 'ELOOP') throw this.changed(name);
      if (errnoCode(err) === 'EISDIR') {
        throw new ToolError('NOT_A_FILE', `${showPath(where)} is a folder; use list_folder to see inside it.`);
      }
      throw fsError(err, where);
    }
    try {
      const stats = await handle.stat({ bigint: true });
      if (stats.isDirectory()) {
        throw new ToolError('NOT_A_FILE', `${showPath(where)} is a folder; use list_folder to see inside it.`);
      }
      if (!stats.isFile()) throw new ToolError('NOT_A_FILE', `${showPath(where)} is not a regular file.`);
      await this.verifyOpened(handle, name, stats);
      return { handle, stats };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  /** Checks that an opened descriptor is `name` in this folder, this folder still being where it was checked. */
  private async verifyOpened(handle: FileHandle, name: string, stats: BigIntStats): Promise<void> {
    if (this.handle !== undefined) {
      let now: string;
      try {
        now = await readlink(`${PROC_FD}/${handle.fd}`);
      } catch (err) {
        throw fsError(err, this.pathOf(name));
      }
      if (now !== this.pathOf(name)) throw this.changed(name);
      return;
    }
    const current = await lstat(this.entry(name), { bigint: true }).catch(() => undefined);
    if (current === undefined || current.dev !== stats.dev || current.ino !== stats.ino) throw this.changed(name);
    await this.verify();
  }

  /**
   * Creates the new file `name` (nothing may have that name, not even a link) and answers it open for writing, once
   * checked to be in this folder. On a failed check the new file is removed again.
   */
  async createFile(name: string, mode = 0o666): Promise<FileHandle> {
    await this.verify();
    // An error here (EEXIST above all) goes to the caller as the system gave it, for the caller's own message.
    const handle = await open(this.entry(name), CREATE_FLAGS, mode);
    try {
      await this.verifyOpened(handle, name, await handle.stat({ bigint: true }));
      return handle;
    } catch (err) {
      await handle.close();
      await unlink(this.entry(name)).catch(() => undefined);
      throw err;
    }
  }

  /** Writes a new file `name` whole and makes it durable; never replaces or follows anything. */
  async writeNewFile(name: string, data: string | Uint8Array, mode?: number): Promise<void> {
    await writeWhole(await this.createFile(name, mode), data, () => unlink(this.entry(name)));
  }

  /**
   * Replaces (or creates) `name` all at once: a temp file created in this open folder, written and synced, then
   * renamed over the name. A link there is replaced, never followed; other hard links of the old file keep it.
   */
  async replaceFile(name: string, data: string | Uint8Array, mode?: number): Promise<void> {
    const temp = `.homebody-${randomBytes(8).toString('hex')}.tmp`;
    // Created with the target's mode (the umask applies), then fchmod gives back bits the umask took where it may:
    // Node's permission model (the compiled tool worker) disables fchmod altogether.
    const handle = await this.createFile(temp, mode ?? 0o666);
    let renamed = false;
    try {
      try {
        await handle.writeFile(data);
        if (mode !== undefined) {
          await handle.chmod(mode).catch((err: unknown) => {
            if (errnoCode(err) !== 'ERR_ACCESS_DENIED') throw err;
          });
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      await this.verify();
      await rename(this.entry(temp), this.entry(name));
      renamed = true;
    } finally {
      if (!renamed) await unlink(this.entry(temp)).catch(() => undefined);
    }
    await this.sync();
  }

  async mkdir(name: string): Promise<void> {
    await this.verify();
    await mkdir(this.entry(name));
  }

  async rmdir(name: string): Promise<void> {
    await this.verify();
    await rmdir(this.entry(name));
  }

  /** Removes the entry `name` (a link is removed as a link). */
  async unlink(name: string): Promise<void> {
    await this.verify();
    await unlink(this.entry(name));
  }

  async readlink(name: string): Promise<string> {
    await this.verify();
    return readlink(this.entry(name));
  }

  async symlink(target: string, name: string): Promise<void> {
    await this.verify();
    await symlink(target, this.entry(name));
  }

  /** Where the link `name` leads, all links resolved (then to be checked by the caller). */
  async realpath(name: string): Promise<string> {
    await this.verify();
    return realpath(this.entry(name));
  }

  async readdir(): Promise<Dirent[]> {
    await this.verify();
    return readdir(this.self(), { withFileTypes: true });
  }

  /** The folder's entries as a stream, for folders too large to read whole. */
  async opendir(): Promise<Dir> {
    await this.verify();
    return opendir(this.self());
  }

  /** Makes renames in this folder durable where the platform allows (best effort; never on Windows). */
  async sync(): Promise<void> {
    if (process.platform === 'win32') return;
    try {
      if (this.handle !== undefined) {
        await this.handle.sync();
        return;
      }
      const handle = await open(this.path, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch {
      // Durability of the folder entry, not correctness.
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle?.close();
  }

  /** Renames `fromName` in `from` to `toName` in `to` (replacing what rename(2) replaces: check first). */
  static async rename(from: ConfinedFolder, fromName: string, to: ConfinedFolder, toName: string): Promise<void> {
    await from.verify();
    await to.verify();
    await rename(from.entry(fromName), to.entry(toName));
  }

  /** A second name `toName` in `to` for the entry `fromName` in `from` (a link itself, never its target, on Linux). */
  static async link(from: ConfinedFolder, fromName: string, to: ConfinedFolder, toName: string): Promise<void> {
    await from.verify();
    await to.verify();
    await link(from.entry(fromName), to.entry(toName));
  }
}

/** Opens the folder `folder` (canonical, inside `anchor`), walked down from the anchor. */
export async function openFolderAt(
  anchor: Anchor,
  folder: string,
  mode: ConfinementMode = confinementMode(),
): Promise<ConfinedFolder> {
  const top = await ConfinedFolder.openAnchor(anchor, mode);
  if (folder === anchor.path) return top;
  try {
    return await top.openDescendant(folder);
  } finally {
    await top.close();
  }
}

/** Runs `fn` on the open folder `folder`, closing it afterwards. */
export async function withFolder<T>(
  anchor: Anchor,
  folder: string,
  fn: (folder: ConfinedFolder) => Promise<T>,
  mode?: ConfinementMode,
): Promise<T> {
  const open = await openFolderAt(anchor, folder, mode);
  try {
    return await fn(open);
  } finally {
    await open.close();
  }
}

/** Runs `fn` on the open folder that holds `place`, and its name there. The root itself has no such folder. */
export async function withParent<T>(
  place: Place,
  fn: (parent: ConfinedFolder, name: string) => Promise<T>,
  mode?: ConfinementMode,
): Promise<T> {
  const parent = path.dirname(place.path);
  const name = path.basename(place.path);
  if (place.path === place.root.path || parent === place.path || !isInsideOrSame(place.root.path, parent)) {
    throw new ToolError('INVALID_PATH', `${showPath(place.path)} does not name an entry inside a folder.`);
  }
  return withFolder(place.root, parent, (folder) => fn(folder, name), mode);
}
