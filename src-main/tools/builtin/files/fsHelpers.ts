/**
 * File operations shared by the file tools and undo: no-replace moves (with the cross-device fallback), bounded
 * folder copies, a deletion that never follows a link, and the trash. Every one works on folders opened through
 * sandbox/confinedFs (relative to an open, checked folder; nothing followed), on places pathGuard already resolved;
 * these helpers add that nothing existing is ever replaced.
 */
import { randomBytes } from 'node:crypto';
import type { BigIntStats, Stats } from 'node:fs';
import { lstat, lutimes, mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Anchor, Place } from '../../sandbox/confinedFs.js';
import {
  assertOnlyName,
  changedWhileUsing,
  ConfinedFolder,
  errnoCode,
  withFolder,
  withParent,
} from '../../sandbox/confinedFs.js';
import { fsError, isInsideOrSame, resolveExisting, resolveForCreate, showPath } from '../../sandbox/pathGuard.js';
import type { ToolContext } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';

export { errnoCode };

export type EntryKind = 'file' | 'folder' | 'link' | 'other';

export function kindOf(stats: Pick<Stats, 'isSymbolicLink' | 'isDirectory' | 'isFile'>): EntryKind {
  if (stats.isSymbolicLink()) return 'link';
  if (stats.isDirectory()) return 'folder';
  if (stats.isFile()) return 'file';
  return 'other';
}

/** lstat by path, or undefined when nothing is there (for the packs' own files). */
export async function lstatOrNull(p: string): Promise<Stats | undefined> {
  try {
    return await lstat(p);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw fsError(err, p);
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GiB`;
}

export function alreadyExists(p: string): ToolError {
  return new ToolError(
    'ALREADY_EXISTS',
    `${showPath(p)} already exists; nothing was replaced. Choose another name, or move the existing one away first.`,
  );
}

/** Limits on a folder copy (also the cross-device fallback of a move). */
export interface TreeLimits {
  readonly maxEntries: number;
  readonly maxBytes: number;
}

export const COPY_LIMITS: TreeLimits = { maxEntries: 10_000, maxBytes: 2 * 1024 * 1024 * 1024 };

/** Deepest folder nesting walked (copy, measure, delete): each level holds one open folder. */
export const MAX_TREE_DEPTH = 256;

export interface TreeSize {
  entries: number;
  bytes: number;
  links: number;
  /** Regular files with more than one name (never copied: see confinedFs). */
  hardLinked: number;
}

function tooDeep(where: string): ToolError {
  return new ToolError(
    'TOO_LARGE',
    `${showPath(where)} has folders nested more than ${MAX_TREE_DEPTH} deep; Homebody does not walk that far.`,
  );
}

/** Counts an open folder's entries and bytes (links not followed), refusing once over the limits. */
export async function measureTree(folder: ConfinedFolder, limits: TreeLimits, signal: AbortSignal): Promise<TreeSize> {
  const size: TreeSize = { entries: 0, bytes: 0, links: 0, hardLinked: 0 };
  const top = folder.path;
  const walk = async (dir: ConfinedFolder, depth: number): Promise<void> => {
    if (depth > MAX_TREE_DEPTH) throw tooDeep(top);
    for (const dirent of await dir.readdir()) {
      signal.throwIfAborted();
      size.entries += 1;
      if (size.entries > limits.maxEntries) {
        throw new ToolError(
          'TOO_LARGE',
          `${showPath(top)} holds more than ${limits.maxEntries} files and folders; that is too many to copy at once.`,
        );
      }
      if (dirent.isSymbolicLink()) {
        size.links += 1;
      } else if (dirent.isDirectory()) {
        const child = await dir.openFolder(dirent.name);
        try {
          await walk(child, depth + 1);
        } finally {
          await child.close();
        }
      } else if (dirent.isFile()) {
        const stats = await dir.lstat(dirent.name);
        if (stats?.isFile()) {
          size.bytes += Number(stats.size);
          if (stats.nlink > 1n) size.hardLinked += 1;
        }
      }
      if (size.bytes > limits.maxBytes) {
        throw new ToolError(
          'TOO_LARGE',
          `${showPath(top)} holds more than ${formatBytes(limits.maxBytes)}; that is too much to copy at once.`,
        );
      }
    }
  };
  await walk(folder, 0);
  return size;
}

const COPY_CHUNK = 1024 * 1024;

/**
 * Copies the regular file `fromName` (opened once, checked, and never a file with other names) to the new file
 * `toName`, created exclusively in `to`: bytes go from one descriptor to the other, never by path. Keeps the mode
 * (where fchmod is allowed) and the times. Answers the bytes copied; a failed copy leaves no file behind.
 */
export async function copyFileBetween(
  from: ConfinedFolder,
  fromName: string,
  to: ConfinedFolder,
  toName: string,
  signal: AbortSignal,
  doing = 'copy',
): Promise<number> {
  const source = await from.openFile(fromName);
  try {
    assertOnlyName(source.stats, from.pathOf(fromName), doing);
    const mode = Number(source.stats.mode & 0o7777n);
    const target = await to.createFile(toName, mode);
    let ok = false;
    let copied = 0;
    try {
      const buffer = Buffer.alloc(COPY_CHUNK);
      for (;;) {
        signal.throwIfAborted();
        const { bytesRead } = await source.handle.read(buffer, 0, COPY_CHUNK, copied);
        if (bytesRead === 0) break;
        let written = 0;
        while (written < bytesRead) {
          const { bytesWritten } = await target.write(buffer, written, bytesRead - written, copied + written);
          written += bytesWritten;
        }
        copied += bytesRead;
      }
      await target.chmod(mode).catch(() => undefined); // the umask took bits; refused under the permission model
      await target.utimes(source.stats.atime, source.stats.mtime).catch(() => undefined);
      await target.sync();
      ok = true;
      return copied;
    } finally {
      await target.close();
      if (!ok) await to.unlink(toName).catch(() => undefined);
    }
  } finally {
    await source.handle.close();
  }
}

export interface CopyCounts {
  files: number;
  folders: number;
  /** Links (when left out) and special files. */
  skipped: number;
  /** Files with more than one name, left out. */
  hardLinked: number;
}

/**
 * Copies the open folder `from` into a NEW folder `toName` in `to` (created here, so it must not exist). Links are
 * either recreated verbatim (`links: 'keep'`, for moves) or left out (`links: 'skip'`, for copies: a copied link
 * could point elsewhere from its new place). Special files and files with more than one name are left out. On
 * failure the partly made copy is removed (it is ours: we created it).
 */
export async function copyTree(
  from: ConfinedFolder,
  to: ConfinedFolder,
  toName: string,
  options: { links: 'keep' | 'skip'; signal: AbortSignal },
): Promise<CopyCounts> {
  const counts: CopyCounts = { files: 0, folders: 0, skipped: 0, hardLinked: 0 };
  const walk = async (src: ConfinedFolder, dst: ConfinedFolder, depth: number): Promise<void> => {
    if (depth > MAX_TREE_DEPTH) throw tooDeep(from.path);
    for (const dirent of await src.readdir()) {
      options.signal.throwIfAborted();
      const name = dirent.name;
      if (dirent.isSymbolicLink()) {
        if (options.links === 'keep') await dst.symlink(await src.readlink(name), name);
        else counts.skipped += 1;
      } else if (dirent.isDirectory()) {
        await dst.mkdir(name);
        counts.folders += 1;
        const s = await src.openFolder(name);
        try {
          const d = await dst.openFolder(name);
          try {
            await walk(s, d, depth + 1);
          } finally {
            await d.close();
          }
        } finally {
          await s.close();
        }
      } else if (dirent.isFile()) {
        const stats = await src.lstat(name);
        if (stats?.isFile() && stats.nlink > 1n) {
          counts.hardLinked += 1;
          continue;
        }
        await copyFileBetween(src, name, dst, name, options.signal);
        counts.files += 1;
      } else {
        counts.skipped += 1;
      }
    }
  };
  await to.mkdir(toName);
  try {
    const made = await to.openFolder(toName);
    try {
      await walk(from, made, 0);
    } finally {
      await made.close();
    }
  } catch (err) {
    await removeTree(to, toName, new AbortController().signal).catch(() => undefined);
    throw err;
  }
  return counts;
}

/**
 * Deletes the entry `name` of an open folder and, for a folder, everything in it, without ever following a link:
 * each subfolder is opened relative to its parent with O_NOFOLLOW, entries are unlinked relative to their open
 * folder, and each folder is removed relative to its parent. A subfolder swapped for a link meanwhile is removed as
 * the link it now is; what it pointed to is never touched.
 */
export async function removeTree(parent: ConfinedFolder, name: string, signal: AbortSignal, depth = 0): Promise<void> {
  signal.throwIfAborted();
  const stats = await parent.lstat(name);
  if (stats === undefined) return;
  if (!stats.isDirectory()) {
    await parent.unlink(name);
    return;
  }
  if (depth > MAX_TREE_DEPTH) throw tooDeep(parent.pathOf(name));
  let folder: ConfinedFolder;
  try {
    folder = await parent.openFolder(name);
  } catch (err) {
    const now = await parent.lstat(name);
    if (now === undefined) return;
    if (now.isSymbolicLink()) {
      await parent.unlink(name);
      return;
    }
    throw err;
  }
  try {
    for (const dirent of await folder.readdir()) {
      if (dirent.isDirectory()) {
        await removeTree(folder, dirent.name, signal, depth + 1);
        continue;
      }
      try {
        await folder.unlink(dirent.name);
      } catch (err) {
        const code = errnoCode(err);
        if (code === 'ENOENT') continue;
        // It became a folder since it was listed (unlink refuses folders: EISDIR on Linux, EPERM on macOS).
        if (code === 'EISDIR' || code === 'EPERM') await removeTree(folder, dirent.name, signal, depth + 1);
        else throw err;
      }
    }
  } finally {
    await folder.close();
  }
  await parent.rmdir(name);
}

/**
 * Moves the entry `fromName` of `from` (a file, folder or link; the entry itself) to `toName` in `to`, never
 * replacing anything there. Files: hard link then unlink (an atomic "no replace"), the linked name checked to be the
 * same inode. Folders: an empty placeholder folder is made exclusively and the folder renamed over it (rename only
 * replaces an empty folder; on Windows, check then rename). Links: check, then rename (Node has no
 * RENAME_NOREPLACE; macOS's link() would follow a link). Across devices (EXDEV): copy, then remove the original.
 */
export async function moveEntry(
  from: ConfinedFolder,
  fromName: string,
  to: ConfinedFolder,
  toName: string,
  signal: AbortSignal,
): Promise<void> {
  const stats = await from.lstat(fromName);
  if (stats === undefined) throw new ToolError('NOT_FOUND', `${showPath(from.pathOf(fromName))} does not exist.`);
  if (stats.isFile()) return moveFile(from, fromName, to, toName, stats, signal);
  // Windows' rename does not replace an empty folder, so the placeholder cannot work there.
  if (stats.isDirectory() && process.platform !== 'win32') return moveFolder(from, fromName, to, toName, stats, signal);
  return checkedRename(from, fromName, to, toName, stats, signal);
}

function sameEntry(a: BigIntStats | undefined, b: BigIntStats): boolean {
  return a !== undefined && a.dev === b.dev && a.ino === b.ino;
}

async function moveFile(
  from: ConfinedFolder,
  fromName: string,
  to: ConfinedFolder,
  toName: string,
  stats: BigIntStats,
  signal: AbortSignal,
): Promise<void> {
  try {
    await ConfinedFolder.link(from, fromName, to, toName);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'EEXIST') throw alreadyExists(to.pathOf(toName));
    if (code === 'EXDEV') return moveAcrossDevices(from, fromName, to, toName, stats, signal);
    if (err instanceof ToolError) throw err;
    // Hard links unsupported here (FAT, some network shares, protected_hardlinks): check + rename.
    return checkedRename(from, fromName, to, toName, stats, signal);
  }
  // The new name must be the entry that was checked, and the old name still that entry, before it goes.
  if (!sameEntry(await to.lstat(toName), stats) || !sameEntry(await from.lstat(fromName), stats)) {
    await to.unlink(toName).catch(() => undefined);
    throw changedWhileUsing(from.path, fromName);
  }
  try {
    await from.unlink(fromName);
  } catch (err) {
    await to.unlink(toName).catch(() => undefined);
    throw err;
  }
}

async function moveFolder(
  from: ConfinedFolder,
  fromName: string,
  to: ConfinedFolder,
  toName: string,
  stats: BigIntStats,
  signal: AbortSignal,
): Promise<void> {
  try {
    await to.mkdir(toName);
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') throw alreadyExists(to.pathOf(toName));
    throw err;
  }
  try {
    await ConfinedFolder.rename(from, fromName, to, toName);
  } catch (err) {
    await to.rmdir(toName).catch(() => undefined);
    const code = errnoCode(err);
    if (code === 'EXDEV') return moveAcrossDevices(from, fromName, to, toName, stats, signal);
    if (code === 'ENOTEMPTY' || code === 'EEXIST') throw alreadyExists(to.pathOf(toName));
    throw err;
  }
}

async function checkedRename(
  from: ConfinedFolder,
  fromName: string,
  to: ConfinedFolder,
  toName: string,
  stats: BigIntStats,
  signal: AbortSignal,
): Promise<void> {
  if ((await to.lstat(toName)) !== undefined) throw alreadyExists(to.pathOf(toName));
  try {
    await ConfinedFolder.rename(from, fromName, to, toName);
  } catch (err) {
    if (errnoCode(err) === 'EXDEV') return moveAcrossDevices(from, fromName, to, toName, stats, signal);
    throw err;
  }
}

async function moveAcrossDevices(
  from: ConfinedFolder,
  fromName: string,
  to: ConfinedFolder,
  toName: string,
  stats: BigIntStats,
  signal: AbortSignal,
): Promise<void> {
  if ((await to.lstat(toName)) !== undefined) throw alreadyExists(to.pathOf(toName));
  if (stats.isDirectory()) {
    const source = await from.openFolder(fromName);
    try {
      const size = await measureTree(source, COPY_LIMITS, signal);
      if (size.hardLinked > 0) {
        throw new ToolError(
          'INVALID_INPUT',
          `${showPath(source.path)} holds ${size.hardLinked} files with more than one name (hard links); moving it to ` +
            'another disk would copy their content, and another of their names may lie outside the folders you ' +
            'granted, so nothing was moved.',
        );
      }
      try {
        await copyTree(source, to, toName, { links: 'keep', signal });
      } catch (err) {
        if (errnoCode(err) === 'EEXIST') throw alreadyExists(to.pathOf(toName));
        throw err;
      }
    } finally {
      await source.close();
    }
    await lutimes(to.entry(toName), stats.atime, stats.mtime).catch(() => undefined);
    await removeTree(from, fromName, signal);
  } else if (stats.isSymbolicLink()) {
    await to.symlink(await from.readlink(fromName), toName);
    await from.unlink(fromName);
  } else if (stats.isFile()) {
    try {
      await copyFileBetween(from, fromName, to, toName, signal, 'move to another disk');
    } catch (err) {
      if (errnoCode(err) === 'EEXIST') throw alreadyExists(to.pathOf(toName));
      throw err;
    }
    if (!sameEntry(await from.lstat(fromName), stats)) {
      await to.unlink(toName).catch(() => undefined);
      throw changedWhileUsing(from.path, fromName);
    }
    await from.unlink(fromName);
  } else {
    throw new ToolError('NOT_A_FILE', `${showPath(from.pathOf(fromName))} is neither a file, a folder nor a link.`);
  }
}

/**
 * The trash folder (created when missing) as a realpath, unless the trash folder itself is a link: then its own path,
 * which confinedFs refuses to open (a trash replaced by a link is never followed). Only the trash itself is looked at:
 * under Node's permission model its parent cannot be.
 */
export async function trashRoot(ctx: ToolContext): Promise<string> {
  await mkdir(ctx.trashDir, { recursive: true });
  const absolute = path.resolve(ctx.trashDir);
  if ((await lstat(absolute)).isSymbolicLink()) return absolute;
  return realpath(absolute);
}

/** The trash as a folder to open: Homebody's own, not a grant, so it is checked to be a real folder at its path. */
export async function trashAnchor(ctx: ToolContext): Promise<Anchor> {
  return { path: await trashRoot(ctx), own: true };
}

/**
 * Makes a fresh slot in the trash, trash/<time>-<random>/, exclusively (two trashings never collide and the original
 * name survives), and runs `fn` on it open. When `fn` fails the slot is removed again if it is still empty.
 */
export async function withTrashSlot<T>(ctx: ToolContext, fn: (slot: ConfinedFolder) => Promise<T>): Promise<T> {
  const anchor = await trashAnchor(ctx);
  return withFolder(anchor, anchor.path, async (trash) => {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const name = `${stamp}-${randomBytes(6).toString('hex')}`;
    await trash.mkdir(name);
    try {
      const slot = await trash.openFolder(name);
      try {
        return await fn(slot);
      } finally {
        await slot.close();
      }
    } catch (err) {
      await trash.rmdir(name).catch(() => undefined);
      throw err;
    }
  });
}

/** A fresh, empty trash slot for an entry called `name`; answers trash/<slot>/<name> (for the packs' backups). */
export async function trashSlot(ctx: ToolContext, name: string): Promise<string> {
  return withTrashSlot(ctx, async (slot) => slot.pathOf(name));
}

/** Moves the entry `name` of an open folder into a new trash slot; answers where it went. */
export async function moveIntoTrashFrom(ctx: ToolContext, folder: ConfinedFolder, name: string): Promise<string> {
  return withTrashSlot(ctx, async (slot) => {
    await moveEntry(folder, name, slot, name, ctx.signal);
    return slot.pathOf(name);
  });
}

/** Moves an entry (already confined by pathGuard: its folder is a realpath) into a new trash slot. */
export async function moveIntoTrash(ctx: ToolContext, entry: string): Promise<string> {
  const folder = path.dirname(entry);
  return withFolder({ path: folder, own: true }, folder, (open) => moveIntoTrashFrom(ctx, open, path.basename(entry)));
}

/**
 * Keeps the current version of the file `name` in a new trash slot before it is replaced, and answers where. A file
 * with one name is copied (descriptor to descriptor). A file with other names gets one more name in the trash (a hard
 * link: its bytes are never read, since another name may lie outside the grants); where that is impossible (the
 * trash on another disk) nothing is changed and the overwrite is refused.
 */
export async function keepOldVersion(
  ctx: ToolContext,
  folder: ConfinedFolder,
  name: string,
  current: BigIntStats,
): Promise<string> {
  return withTrashSlot(ctx, async (slot) => {
    if (current.nlink <= 1n) {
      await copyFileBetween(folder, name, slot, name, ctx.signal, 'keep a copy of');
      return slot.pathOf(name);
    }
    try {
      await ConfinedFolder.link(folder, name, slot, name);
    } catch (err) {
      if (err instanceof ToolError) throw err;
      throw new ToolError(
        'INVALID_INPUT',
        `${showPath(folder.pathOf(name))} has ${current.nlink} hard links (names for the same content). Homebody keeps ` +
          'the version it replaces, and could keep this one only by reading it, which it does not do for a file ' +
          'whose other names may lie outside the folders you granted. Nothing was changed; write to a new file instead.',
      );
    }
    if (!sameEntry(await slot.lstat(name), current)) {
      await slot.unlink(name).catch(() => undefined);
      throw changedWhileUsing(folder.path, name);
    }
    return slot.pathOf(name);
  });
}

/** Removes a trash slot Homebody just filled (a backup no longer needed), without following anything. */
export async function discardTrashSlot(ctx: ToolContext, trashedPath: string): Promise<void> {
  const anchor = await trashAnchor(ctx);
  const slot = path.dirname(trashedPath);
  if (path.dirname(slot) !== anchor.path) return;
  await withFolder(anchor, anchor.path, (trash) => removeTree(trash, path.basename(slot), ctx.signal));
}

/**
 * Checks that a recorded trash path really lies in our trash (undo records are data, not trusted code), and that the
 * entry is still there, looked up from the open trash folder.
 */
export async function trashPlace(ctx: ToolContext, p: unknown): Promise<Place> {
  if (typeof p !== 'string' || p === '' || p.includes('\0') || !path.isAbsolute(p)) {
    throw new ToolError('INVALID_PATH', 'The undo record names an invalid trash path.');
  }
  const anchor = await trashAnchor(ctx);
  let real = path.resolve(p);
  // Homebody records trash/<slot>/<name> under the trash's own path; an older record may spell the trash otherwise.
  if (!isInsideOrSame(anchor.path, real)) {
    try {
      real = path.join(await realpath(path.dirname(real)), path.basename(real));
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') {
        throw new ToolError('NOT_FOUND', `${showPath(p)} is no longer in the trash; it cannot be brought back.`);
      }
      throw fsError(err, p);
    }
  }
  if (real === anchor.path || path.dirname(real) === anchor.path || !isInsideOrSame(anchor.path, real)) {
    throw new ToolError('OUTSIDE_GRANTED_FOLDERS', `${showPath(p)} is not inside Homebody's trash.`);
  }
  const place = { root: anchor, path: real };
  let present: BigIntStats | undefined;
  try {
    present = await withParent(place, (slot, name) => slot.lstat(name));
  } catch (err) {
    if (err instanceof ToolError && err.code === 'NOT_FOUND') present = undefined;
    else throw err;
  }
  if (present === undefined) {
    throw new ToolError('NOT_FOUND', `${showPath(p)} is no longer in the trash; it cannot be brought back.`);
  }
  return place;
}

/** Removes an emptied trash slot folder (best effort). */
export async function removeEmptySlot(ctx: ToolContext, trashedPath: string): Promise<void> {
  const anchor = await trashAnchor(ctx);
  const slot = path.dirname(trashedPath);
  if (path.dirname(slot) !== anchor.path) return;
  await withFolder(anchor, anchor.path, (trash) => trash.rmdir(path.basename(slot))).catch(() => undefined);
}

/**
 * Where a move or copy lands: `to` itself, or, when `to` is an existing folder, a new entry with the source's name
 * inside it. Confined by pathGuard; whether the place is free is checked again in its open folder.
 */
export async function resolveDestination(roots: ToolContext['roots'], to: unknown, sourceName: string): Promise<Place> {
  // An existing folder (a granted root included) receives the entry under its own name.
  let intoFolder: string | undefined;
  try {
    const existing = await resolveExisting(roots, to);
    if ((await lstat(existing.path)).isDirectory()) intoFolder = existing.path;
  } catch {
    // Not an existing folder we may use: resolveForCreate below gives the precise refusal.
  }
  return resolveForCreate(roots, intoFolder === undefined ? to : path.join(intoFolder, sourceName));
}
