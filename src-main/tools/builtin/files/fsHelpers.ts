/**
 * File operations shared by the file tools and undo: no-replace moves (with the cross-device
 * fallback), bounded folder copies, and the trash. Paths given here are already confined by
 * pathGuard; these helpers only make sure nothing existing is replaced.
 */
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import {
  copyFile,
  link,
  lstat,
  mkdir,
  readdir,
  readlink,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  symlink,
  unlink,
  utimes,
} from 'node:fs/promises';
import path from 'node:path';
import { fsError, isInsideOrSame, resolveExisting, resolveForCreate, showPath } from '../../sandbox/pathGuard.js';
import type { ToolContext } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';

export type EntryKind = 'file' | 'folder' | 'link' | 'other';

export function kindOf(stats: Stats): EntryKind {
  if (stats.isSymbolicLink()) return 'link';
  if (stats.isDirectory()) return 'folder';
  if (stats.isFile()) return 'file';
  return 'other';
}

export function errnoCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}

/** lstat, or undefined when nothing is there. */
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

export interface TreeSize {
  entries: number;
  bytes: number;
  links: number;
}

/** Counts a folder's entries and bytes (links not followed), refusing once over the limits. */
export async function measureTree(root: string, limits: TreeLimits, signal: AbortSignal): Promise<TreeSize> {
  const size: TreeSize = { entries: 0, bytes: 0, links: 0 };
  const pending = [root];
  while (pending.length > 0) {
    signal.throwIfAborted();
    const dir = pending.pop() as string;
    for (const dirent of await readdir(dir, { withFileTypes: true })) {
      size.entries += 1;
      const child = path.join(dir, dirent.name);
      if (dirent.isSymbolicLink()) size.links += 1;
      else if (dirent.isDirectory()) pending.push(child);
      else if (dirent.isFile()) size.bytes += (await lstat(child)).size;
      if (size.entries > limits.maxEntries) {
        throw new ToolError(
          'TOO_LARGE',
          `${showPath(root)} holds more than ${limits.maxEntries} files and folders; that is too many to copy at once.`,
        );
      }
      if (size.bytes > limits.maxBytes) {
        throw new ToolError(
          'TOO_LARGE',
          `${showPath(root)} holds more than ${formatBytes(limits.maxBytes)}; that is too much to copy at once.`,
        );
      }
    }
  }
  return size;
}

/**
 * Copies a folder into a NEW folder `to` (created here, so it must not exist). Links are either
 * recreated verbatim (`links: 'keep'`, for moves) or left out (`links: 'skip'`, for copies: a
 * copied link could point elsewhere from its new place). Other special files are left out.
 * On failure the partly made copy is removed (it is ours: we created `to`).
 */
export async function copyTree(
  from: string,
  to: string,
  options: { links: 'keep' | 'skip'; signal: AbortSignal },
): Promise<{ files: number; folders: number; skipped: number }> {
  const counts = { files: 0, folders: 0, skipped: 0 };
  await mkdir(to);
  try {
    const pending: Array<[string, string]> = [[from, to]];
    while (pending.length > 0) {
      options.signal.throwIfAborted();
      const [src, dst] = pending.pop() as [string, string];
      for (const dirent of await readdir(src, { withFileTypes: true })) {
        const s = path.join(src, dirent.name);
        const d = path.join(dst, dirent.name);
        if (dirent.isSymbolicLink()) {
          if (options.links === 'keep') await symlink(await readlink(s), d);
          else counts.skipped += 1;
        } else if (dirent.isDirectory()) {
          await mkdir(d);
          counts.folders += 1;
          pending.push([s, d]);
        } else if (dirent.isFile()) {
          await copyFilePreservingTime(s, d);
          counts.files += 1;
        } else {
          counts.skipped += 1;
        }
      }
    }
  } catch (err) {
    await rm(to, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
  return counts;
}

async function copyFilePreservingTime(from: string, to: string): Promise<void> {
  await copyFile(from, to, constants.COPYFILE_EXCL);
  const stats = await lstat(from);
  await utimes(to, stats.atime, stats.mtime).catch(() => undefined);
}

/**
 * Moves `from` (a file, folder or link; the entry itself) to `to`, never replacing anything at `to`.
 * Files: hard link then unlink (atomic "no replace"). Folders and links: check then rename
 * (Node has no RENAME_NOREPLACE; the window is tiny and only another program could race it).
 * Across devices (EXDEV): copy, then remove the original.
 */
export async function moveNoReplace(from: string, to: string, signal: AbortSignal): Promise<void> {
  const stats = await lstat(from);
  if (stats.isFile()) {
    try {
      await link(from, to);
    } catch (err) {
      const code = errnoCode(err);
      if (code === 'EEXIST') throw alreadyExists(to);
      if (code === 'EXDEV') return moveAcrossDevices(from, to, stats, signal);
      // Hard links unsupported here (FAT, some network shares, protected_hardlinks): check + rename.
      return checkedRename(from, to, stats, signal);
    }
    try {
      await unlink(from);
    } catch (err) {
      await unlink(to).catch(() => undefined);
      throw err;
    }
    return;
  }
  return checkedRename(from, to, stats, signal);
}

async function checkedRename(from: string, to: string, stats: Stats, signal: AbortSignal): Promise<void> {
  if ((await lstatOrNull(to)) !== undefined) throw alreadyExists(to);
  try {
    await rename(from, to);
  } catch (err) {
    if (errnoCode(err) === 'EXDEV') return moveAcrossDevices(from, to, stats, signal);
    throw err;
  }
}

async function moveAcrossDevices(from: string, to: string, stats: Stats, signal: AbortSignal): Promise<void> {
  if (stats.isDirectory()) {
    await measureTree(from, COPY_LIMITS, signal);
    try {
      await copyTree(from, to, { links: 'keep', signal });
    } catch (err) {
      if (errnoCode(err) === 'EEXIST') throw alreadyExists(to);
      throw err;
    }
    await utimes(to, stats.atime, stats.mtime).catch(() => undefined);
    await rm(from, { recursive: true });
  } else if (stats.isSymbolicLink()) {
    await symlink(await readlink(from), to);
    await unlink(from);
  } else if (stats.isFile()) {
    try {
      await copyFilePreservingTime(from, to);
    } catch (err) {
      if (errnoCode(err) === 'EEXIST') throw alreadyExists(to);
      await unlink(to).catch(() => undefined);
      throw err;
    }
    await unlink(from);
  } else {
    throw new ToolError('NOT_A_FILE', `${showPath(from)} is neither a file, a folder nor a link.`);
  }
}

/** The trash folder (created when missing), as a realpath. */
export async function trashRoot(ctx: ToolContext): Promise<string> {
  await mkdir(ctx.trashDir, { recursive: true });
  return realpath(ctx.trashDir);
}

/**
 * A fresh slot in the trash for an entry called `name`: trash/<time>-<random>/<name>. The slot
 * folder is created exclusively, so two trashings never collide and the original name survives.
 */
export async function trashSlot(ctx: ToolContext, name: string): Promise<string> {
  const trash = await trashRoot(ctx);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const slot = path.join(trash, `${stamp}-${randomBytes(6).toString('hex')}`);
  await mkdir(slot);
  return path.join(slot, name);
}

/** Moves an entry (already confined) into a new trash slot; returns where it went. */
export async function moveIntoTrash(ctx: ToolContext, entry: string): Promise<string> {
  const target = await trashSlot(ctx, path.basename(entry));
  try {
    await moveNoReplace(entry, target, ctx.signal);
  } catch (err) {
    await rmdir(path.dirname(target)).catch(() => undefined);
    throw err;
  }
  return target;
}

/** Checks that a recorded trash path really lies in our trash (undo records are data, not trusted code). */
export async function assertInTrash(ctx: ToolContext, p: unknown): Promise<string> {
  if (typeof p !== 'string' || p === '' || p.includes('\0') || !path.isAbsolute(p)) {
    throw new ToolError('INVALID_PATH', 'The undo record names an invalid trash path.');
  }
  const trash = await trashRoot(ctx);
  const parent = path.dirname(path.resolve(p));
  let realParent: string;
  try {
    realParent = await realpath(parent);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') {
      throw new ToolError('NOT_FOUND', `${showPath(p)} is no longer in the trash; it cannot be brought back.`);
    }
    throw fsError(err, p);
  }
  const real = path.join(realParent, path.basename(p));
  if (real === trash || !isInsideOrSame(trash, real)) {
    throw new ToolError('OUTSIDE_GRANTED_FOLDERS', `${showPath(p)} is not inside Homebody's trash.`);
  }
  if ((await lstatOrNull(real)) === undefined) {
    throw new ToolError('NOT_FOUND', `${showPath(p)} is no longer in the trash; it cannot be brought back.`);
  }
  return real;
}

/** Removes an emptied trash slot folder (best effort). */
export async function removeEmptySlot(ctx: ToolContext, trashedPath: string): Promise<void> {
  const slot = path.dirname(trashedPath);
  const trash = await trashRoot(ctx);
  if (path.dirname(slot) === trash) await rmdir(slot).catch(() => undefined);
}

/**
 * Where a move or copy lands: `to` itself, or, when `to` is an existing folder, a new entry with
 * the source's name inside it. Confined by pathGuard; refuses an occupied place.
 */
export async function resolveDestination(
  roots: ToolContext['roots'],
  to: unknown,
  sourceName: string,
): Promise<{ path: string; occupiedBy?: Stats }> {
  // An existing folder (a granted root included) receives the entry under its own name.
  let intoFolder: string | undefined;
  try {
    const existing = await resolveExisting(roots, to);
    if ((await stat(existing.path)).isDirectory()) intoFolder = existing.path;
  } catch {
    // Not an existing folder we may use: resolveForCreate below gives the precise refusal.
  }
  const dest = await resolveForCreate(roots, intoFolder === undefined ? to : path.join(intoFolder, sourceName));
  const existing = await lstatOrNull(dest.path);
  return existing === undefined ? { path: dest.path } : { path: dest.path, occupiedBy: existing };
}
