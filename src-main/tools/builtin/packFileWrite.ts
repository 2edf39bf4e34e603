/**
 * Writes the packs make to their own files (a note, the reminders file), undoable with the file tools' records:
 * a new file is created exclusively (undo moves it to the trash); an existing one is copied into the trash first
 * and then replaced in one rename (undo puts the copy back).
 */
import { constants } from 'node:fs';
import { copyFile, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { createExclusive, fsError, writeFileAtomically } from '../sandbox/pathGuard.js';
import type { ToolContext, UndoRecord } from '../toolTypes.js';
import { ToolError } from '../toolTypes.js';
import { errnoCode, lstatOrNull, trashSlot } from './files/fsHelpers.js';

/** Writes `content` to `file` (already confined by the path guard) and says how to undo it. */
export async function writePackFile(ctx: ToolContext, file: string, content: string): Promise<UndoRecord> {
  const existing = await lstatOrNull(file);
  if (existing === undefined) {
    try {
      await createExclusive(file, content);
    } catch (err) {
      if (errnoCode(err) === 'EEXIST') {
        throw new ToolError(
          'ALREADY_EXISTS',
          `${path.basename(file)} was created by something else just now; try again.`,
        );
      }
      throw fsError(err, file);
    }
    return { kind: 'remove-created', path: file };
  }
  if (!existing.isFile()) throw new ToolError('NOT_A_FILE', `${file} is not a regular file.`);
  return replaceKeepingBackup(ctx, file, content, existing.mode);
}

/**
 * Replaces an existing regular file (already confined by the path guard) in one rename, its old version copied into
 * the trash first; answers the record that puts the copy back.
 */
export async function replaceKeepingBackup(
  ctx: ToolContext,
  file: string,
  content: string,
  mode: number,
): Promise<UndoRecord> {
  const backup = await trashSlot(ctx, path.basename(file));
  try {
    await copyFile(file, backup, constants.COPYFILE_EXCL);
  } catch (err) {
    await rmdir(path.dirname(backup)).catch(() => undefined);
    throw fsError(err, file);
  }
  try {
    await writeFileAtomically(file, content, { mode: mode & 0o7777 });
  } catch (err) {
    await rm(path.dirname(backup), { recursive: true, force: true }).catch(() => undefined);
    throw fsError(err, file);
  }
  return { kind: 'restore-file', path: file, backup };
}
