/** Read-modify-write of the reminders file from a tool call, undoable (the previous file goes to the trash). */
import path from 'node:path';
import { createExclusive, fsError, resolveForCreate } from '../../sandbox/pathGuard.js';
import type { ToolContext, UndoRecord } from '../../toolTypes.js';
import { errnoCode } from '../files/fsHelpers.js';
import { writePackFile } from '../packFileWrite.js';
import { emptyReminders, readReminders, serializeReminders, type RemindersFile } from './remindersFile.js';

async function confinedFile(ctx: ToolContext): Promise<string> {
  const folder = path.dirname(ctx.packs.remindersFile);
  return (await resolveForCreate([{ path: folder, untrusted: false }], ctx.packs.remindersFile)).path;
}

export async function loadReminders(ctx: ToolContext): Promise<RemindersFile> {
  return readReminders(await confinedFile(ctx));
}

/**
 * Applies `change` to the file's current content and writes it. A missing file is first created empty, so the
 * undo record always restores the previous list rather than removing the file (and later reminders with it).
 */
export async function updateReminders<T>(
  ctx: ToolContext,
  change: (content: RemindersFile) => T,
): Promise<{ value: T; undo: UndoRecord }> {
  const file = await confinedFile(ctx);
  try {
    await createExclusive(file, serializeReminders(emptyReminders()));
  } catch (err) {
    if (errnoCode(err) !== 'EEXIST') throw fsError(err, file);
  }
  const content = await readReminders(file);
  const value = change(content);
  const undo = await writePackFile(ctx, file, serializeReminders(content));
  return { value, undo };
}
