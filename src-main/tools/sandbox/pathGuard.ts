/**
 * Confines every path a tool touches to the folders the user granted, checked by our own code
 * (STYLE.md item 11): reject NUL bytes, resolve, compare against `root + sep`, realpath and
 * compare again, realpath the parent for new files, create with `wx`, replace by rename.
 *
 * Rules:
 * - A relative path resolves against the FIRST granted folder; a leading `~` means the home folder.
 *   Either way the result must lie inside a granted folder.
 * - Comparisons are exact (case-sensitive) on the canonical paths realpath returns; a path
 *   spelled with another case than the disk's is refused rather than guessed at.
 * - A granted folder itself is "inside" for reading and listing, but `resolveEntry` and
 *   `resolveForCreate` refuse it, so no tool can move, delete or overwrite a granted folder,
 *   nor a folder that holds one.
 * - Existence is only ever reported for paths inside the granted folders: a missing path behind a
 *   link that leads outside is refused as outside, not reported as missing.
 * - A granted folder must still be the folder that was granted: one that was moved away, or replaced by another
 *   folder or by a link (its device and inode differ from `GrantedRoot.identity`), is refused, naming it, until the
 *   user grants it again. Without a recorded identity it must at least be a real folder, not a link.
 *
 * These checks decide what a call may touch and what the user is shown; the tools then reach that place through
 * confinedFs, which opens it without following a link and checks what it opened, so a path changed between the
 * check and the use (a symlink race) is refused rather than followed.
 */
import { randomBytes } from 'node:crypto';
import { lstat, open, realpath, rename, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { GrantedRoot } from '../toolTypes.js';
import { ToolError } from '../toolTypes.js';

export interface ResolvedPath {
  readonly root: GrantedRoot;
  /** Canonical absolute path (its parent realpath'd; the entry itself too for `resolveExisting`). */
  readonly path: string;
}

export const MAX_PATH_LENGTH = 4096;

/** Quotes a path for a message: escapes control characters, shortens monsters. */
export function showPath(p: string): string {
  const shown = p.length > 300 ? `${p.slice(0, 150)}…${p.slice(-150)}` : p;
  return JSON.stringify(shown);
}

function grantedList(roots: readonly GrantedRoot[]): string {
  return `granted folders: ${roots.map((r) => r.path).join(', ')}`;
}

function outside(roots: readonly GrantedRoot[], userPath: string, why = ''): ToolError {
  if (roots.length === 0)
    return new ToolError(
      'OUTSIDE_GRANTED_FOLDERS',
      'No folders are granted to Homebody yet; grant one in Settings first.',
    );
  return new ToolError(
    'OUTSIDE_GRANTED_FOLDERS',
    `${showPath(userPath)} is outside the folders you may use${why} (${grantedList(roots)}).`,
  );
}

/** The refusal for a granted folder that is no longer the folder the user granted. */
export function rootChanged(root: { readonly path: string }): ToolError {
  return new ToolError(
    'OUTSIDE_GRANTED_FOLDERS',
    `${showPath(root.path)} is no longer the folder you granted (it was replaced or moved); grant it again in Settings.`,
  );
}

/**
 * Refuses a granted folder that was moved away, or replaced by another folder or a link since it was granted. A
 * missing folder without a recorded identity (a pack's folder not made yet) is left to the usual "does not exist".
 */
export async function assertRootIntact(root: GrantedRoot): Promise<void> {
  let stats;
  try {
    stats = await lstat(root.path, { bigint: true });
  } catch (err) {
    const code = errnoCode(err);
    if ((code === 'ENOENT' || code === 'ENOTDIR') && root.identity === undefined) return;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw rootChanged(root);
    throw fsError(err, root.path);
  }
  if (stats.isSymbolicLink() || !stats.isDirectory()) throw rootChanged(root);
  const { identity } = root;
  if (identity !== undefined && (stats.dev.toString() !== identity.dev || stats.ino.toString() !== identity.ino)) {
    throw rootChanged(root);
  }
}

/** The innermost root holding `absolute` (lexically), checked to be intact; undefined when none holds it. */
async function intactRoot(roots: readonly GrantedRoot[], absolute: string): Promise<GrantedRoot | undefined> {
  const root = findRoot(roots, absolute);
  if (root !== undefined) await assertRootIntact(root);
  return root;
}

/** True when `candidate` is `root` itself or lies below it (`root + sep`, so Reports2 is not inside Reports). */
export function isInsideOrSame(rootPath: string, candidate: string): boolean {
  if (candidate === rootPath) return true;
  const prefix = rootPath.endsWith(path.sep) ? rootPath : rootPath + path.sep;
  return candidate.startsWith(prefix);
}

/** The innermost granted root holding `candidate`, if any. */
export function findRoot(roots: readonly GrantedRoot[], candidate: string): GrantedRoot | undefined {
  let best: GrantedRoot | undefined;
  for (const root of roots) {
    if (isInsideOrSame(root.path, candidate) && (best === undefined || root.path.length > best.path.length)) {
      best = root;
    }
  }
  return best;
}

/** Checks the text of a path and makes it absolute (lexically; nothing on disk is touched). */
export function toAbsolute(roots: readonly GrantedRoot[], userPath: unknown): string {
  if (typeof userPath !== 'string') throw new ToolError('INVALID_PATH', 'The path must be a string.');
  if (userPath.trim() === '') throw new ToolError('INVALID_PATH', 'The path is empty.');
  if (userPath.includes('\0')) {
    throw new ToolError('INVALID_PATH', `The path ${showPath(userPath)} contains a NUL character.`);
  }
  if (userPath.length > MAX_PATH_LENGTH) {
    throw new ToolError('INVALID_PATH', `The path is longer than ${MAX_PATH_LENGTH} characters.`);
  }
  // Windows: a colon after the drive letter names an alternate data stream or a device.
  if (process.platform === 'win32' && userPath.slice(2).includes(':')) {
    throw new ToolError('INVALID_PATH', `The path ${showPath(userPath)} contains a ':' after the drive.`);
  }
  let text = userPath;
  if (text === '~' || text.startsWith('~/') || text.startsWith(`~${path.sep}`)) {
    text = path.join(os.homedir(), text.slice(1));
  }
  if (path.isAbsolute(text)) return path.resolve(text);
  const first = roots[0];
  if (first === undefined) throw outside(roots, userPath);
  return path.resolve(first.path, text);
}

function errnoCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}

/**
 * For a path that does not exist: refuses it as outside when its deepest existing ancestor leads
 * outside the roots (so a missing file behind an outward link is not an existence oracle),
 * otherwise reports it as not found.
 */
async function missing(roots: readonly GrantedRoot[], userPath: string, absolute: string): Promise<ToolError> {
  let current = path.dirname(absolute);
  for (;;) {
    try {
      const real = await realpath(current);
      if (findRoot(roots, real) === undefined) return outside(roots, userPath, ' (through a link)');
      return new ToolError('NOT_FOUND', `${showPath(userPath)} does not exist.`);
    } catch (err) {
      const code = errnoCode(err);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return fsError(err, userPath);
      const parent = path.dirname(current);
      if (parent === current) return new ToolError('NOT_FOUND', `${showPath(userPath)} does not exist.`);
      current = parent;
    }
  }
}

/** Turns a Node fs error into a sentence for the model. */
export function fsError(err: unknown, userPath: string): ToolError {
  if (err instanceof ToolError) return err;
  const shown = showPath(userPath);
  switch (errnoCode(err)) {
    case 'ENOENT':
      return new ToolError('NOT_FOUND', `${shown} does not exist.`);
    case 'EEXIST':
      return new ToolError('ALREADY_EXISTS', `${shown} already exists.`);
    case 'ENOTDIR':
      return new ToolError('NOT_A_FOLDER', `${shown} is not a folder (or a part of it is a file).`);
    case 'EISDIR':
      return new ToolError('NOT_A_FILE', `${shown} is a folder, not a file.`);
    case 'ENOTEMPTY':
      return new ToolError('IO_ERROR', `The folder ${shown} is not empty.`);
    case 'ELOOP':
      return new ToolError('INVALID_PATH', `${shown} goes through too many links (a link loop).`);
    case 'ENAMETOOLONG':
      return new ToolError('INVALID_PATH', `${shown} is too long for this system.`);
    case 'EACCES':
    case 'EPERM':
      return new ToolError('IO_ERROR', `The system does not allow this on ${shown}.`);
    case 'ENOSPC':
      return new ToolError('IO_ERROR', `The disk is full (while working on ${shown}).`);
    case 'EBUSY':
      return new ToolError('IO_ERROR', `${shown} is in use by another program.`);
    default: {
      const code = errnoCode(err);
      return new ToolError('IO_ERROR', `Could not work on ${shown}${code ? ` (${code})` : ''}.`);
    }
  }
}

/** Refuses a path that is a granted root or holds one: those are never moved, deleted or replaced. */
function assertNotRootOrAncestor(roots: readonly GrantedRoot[], userPath: string, candidate: string): void {
  for (const root of roots) {
    if (root.path === candidate) {
      throw new ToolError(
        'INVALID_PATH',
        `${showPath(userPath)} is a granted folder itself; it can be read but never moved, deleted or replaced.`,
      );
    }
    if (isInsideOrSame(candidate, root.path)) {
      throw new ToolError(
        'INVALID_PATH',
        `${showPath(userPath)} contains the granted folder ${showPath(root.path)}; it cannot be moved, deleted or replaced.`,
      );
    }
  }
}

/**
 * An existing entry, links followed: for reading, listing, searching, and as a copy source.
 * The root itself is allowed.
 */
export async function resolveExisting(roots: readonly GrantedRoot[], userPath: unknown): Promise<ResolvedPath> {
  const absolute = toAbsolute(roots, userPath);
  const shown = userPath as string;
  const asked = await intactRoot(roots, absolute);
  if (asked === undefined) throw outside(roots, shown);
  let real: string;
  try {
    real = await realpath(absolute);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw await missing(roots, shown, absolute);
    throw fsError(err, shown);
  }
  const root = findRoot(roots, real);
  if (root === undefined) throw outside(roots, shown, ' (through a link)');
  if (root !== asked) await assertRootIntact(root);
  return { root, path: real };
}

/**
 * An existing entry, its last component NOT followed: for moving, trashing and deleting the
 * entry itself (a link is moved or deleted as a link, never its target). The parent is
 * realpath'd and checked; granted roots, and folders holding one, are refused.
 */
export async function resolveEntry(roots: readonly GrantedRoot[], userPath: unknown): Promise<ResolvedPath> {
  const absolute = toAbsolute(roots, userPath);
  const shown = userPath as string;
  if ((await intactRoot(roots, absolute)) === undefined) throw outside(roots, shown);
  assertNotRootOrAncestor(roots, shown, absolute);
  const { root, path: entry } = await resolveParent(roots, shown, absolute);
  try {
    await lstat(entry);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ToolError('NOT_FOUND', `${showPath(shown)} does not exist.`);
    throw fsError(err, shown);
  }
  return { root, path: entry };
}

/**
 * A place for a new entry: the parent must exist and (realpath'd) lie inside a root; the name
 * must not be a link (nothing is ever written through one), nor a root. Whether something
 * already exists there is the caller's check (and `wx` / no-replace moves enforce it).
 */
export async function resolveForCreate(roots: readonly GrantedRoot[], userPath: unknown): Promise<ResolvedPath> {
  const absolute = toAbsolute(roots, userPath);
  const shown = userPath as string;
  if ((await intactRoot(roots, absolute)) === undefined) throw outside(roots, shown);
  assertNotRootOrAncestor(roots, shown, absolute);
  const resolved = await resolveParent(roots, shown, absolute);
  try {
    const stats = await lstat(resolved.path);
    if (stats.isSymbolicLink()) {
      throw new ToolError(
        'INVALID_PATH',
        `${showPath(shown)} is a link; Homebody does not write through links. Remove or rename the link first.`,
      );
    }
  } catch (err) {
    const code = errnoCode(err);
    if (code !== 'ENOENT') throw fsError(err, shown);
  }
  return resolved;
}

/** Realpaths the parent of `absolute`, checks it, and re-joins the last name. */
async function resolveParent(roots: readonly GrantedRoot[], shown: string, absolute: string): Promise<ResolvedPath> {
  const name = path.basename(absolute);
  const parent = path.dirname(absolute);
  if (name === '' || name === '.' || name === '..' || parent === absolute) {
    throw new ToolError('INVALID_PATH', `${showPath(shown)} does not name a file or folder.`);
  }
  let realParent: string;
  try {
    realParent = await realpath(parent);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      const problem = await missing(roots, shown, parent);
      if (problem.code === 'NOT_FOUND') {
        throw new ToolError('NOT_FOUND', `The folder ${showPath(parent)} (for ${showPath(shown)}) does not exist.`);
      }
      throw problem;
    }
    throw fsError(err, shown);
  }
  const entry = path.join(realParent, name);
  const root = findRoot(roots, realParent);
  if (root === undefined) throw outside(roots, shown, ' (its folder is a link leading outside)');
  if (root !== findRoot(roots, absolute)) await assertRootIntact(root);
  assertNotRootOrAncestor(roots, shown, entry);
  return { root, path: entry };
}

/**
 * Writes a new file; fails with EEXIST (never follows or replaces anything) if the name is taken. By path: for the
 * packs' own files and the Host; the file tools use ConfinedFolder.writeNewFile (confinedFs.ts).
 */
export async function createExclusive(filePath: string, data: string | Uint8Array): Promise<void> {
  await writeWhole(await open(filePath, 'wx'), data, () => unlink(filePath));
}

/**
 * Writes `data` to a file just created, syncs and closes it; if any of that fails, `discard` removes the partial
 * file (best effort) and the error goes on. Shared by the path-based and the descriptor-based creation.
 */
export async function writeWhole(
  handle: FileHandle,
  data: string | Uint8Array,
  discard: () => Promise<unknown>,
): Promise<void> {
  let ok = false;
  try {
    await handle.writeFile(data);
    await handle.sync();
    ok = true;
  } finally {
    await handle.close();
    if (!ok) await discard().catch(() => undefined);
  }
}

/**
 * Replaces (or creates) `filePath` all at once: a temp file in the same folder created with `wx`,
 * written, fsynced, then renamed over the target. A link at the target is replaced, not followed.
 * By path, like createExclusive; the file tools use ConfinedFolder.replaceFile.
 */
export async function writeFileAtomically(
  filePath: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  const dir = path.dirname(filePath);
  const temp = path.join(dir, `.homebody-${randomBytes(8).toString('hex')}.tmp`);
  // Created with the target's mode (the umask applies; the content is what the target will show anyway), then
  // fchmod gives back bits the umask took where it may: Node's permission model (the compiled tool worker)
  // disables fchmod altogether.
  const handle = await open(temp, 'wx', options.mode ?? 0o666);
  let renamed = false;
  try {
    try {
      await handle.writeFile(data);
      if (options.mode !== undefined) {
        await handle.chmod(options.mode).catch((err: unknown) => {
          if (errnoCode(err) !== 'ERR_ACCESS_DENIED') throw err;
        });
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, filePath);
    renamed = true;
  } finally {
    if (!renamed) await unlink(temp).catch(() => undefined);
  }
  await syncFolder(dir);
}

/** Makes a rename durable where the platform allows fsync on a folder (not on Windows). */
async function syncFolder(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort: durability of the folder entry, not correctness.
  }
}
