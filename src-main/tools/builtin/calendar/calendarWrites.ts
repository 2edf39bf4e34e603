/**
 * How the calendar tools change the folder, always undoably with the file tools' undo records: a new event is a
 * new file (`remove-created`), a changed file keeps its old version in the trash first (`restore-file`), and a file
 * left with no event goes to the trash (`untrash`). Every path is confined to the calendar folder by the path
 * guard, and files are replaced by a temp file and a rename, never rewritten in place.
 */
import path from 'node:path';
import { createExclusive, fsError, resolveEntry, resolveForCreate } from '../../sandbox/pathGuard.js';
import type { GrantedRoot, ToolContext, UndoRecord } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { lstatOrNull, moveIntoTrash } from '../files/fsHelpers.js';
import { replaceKeepingBackup } from '../packFileWrite.js';
import type { CalendarFile, Component } from './calendarFiles.js';
import { readCalendarFolder, serializeCalendars } from './calendarFiles.js';

/** The one folder a pack may write: its own. */
export function packRoots(folder: string): GrantedRoot[] {
  return [{ path: folder, untrusted: false }];
}

export interface FoundEvent {
  readonly file: CalendarFile;
  readonly calendar: Component;
  /** The event (for a repeating one, its series); undefined when the file holds only moved occurrences. */
  readonly master: Component | undefined;
  /** Its moved or changed occurrences (RECURRENCE-ID) in the same calendar. */
  readonly exceptions: Component[];
}

export async function findEvent(ctx: ToolContext, uid: string): Promise<FoundEvent> {
  const folder = await readCalendarFolder(ctx.packs.calendarDir, ctx.signal);
  for (const file of folder.files) {
    for (const calendar of file.calendars) {
      const mine = calendar
        .getAllSubcomponents('vevent')
        .filter((v) => String(v.getFirstPropertyValue('uid') ?? '') === uid);
      if (mine.length === 0) continue;
      return {
        file,
        calendar,
        master: mine.find((v) => !v.hasProperty('recurrence-id')),
        exceptions: mine.filter((v) => v.hasProperty('recurrence-id')),
      };
    }
  }
  const unreadable = folder.problems.map((p) => p.file).join(', ');
  throw new ToolError(
    'NOT_FOUND',
    `No event has the uid ${JSON.stringify(uid)}.` +
      (unreadable ? ` Some calendar files could not be read (${unreadable}); it may be in one of them.` : '') +
      ' Use calendar_events to find the uid.',
  );
}

/** Writes a new file in the pack folder `folder` (never replacing one); undone by moving it to the trash. */
export async function createPackFile(
  ctx: ToolContext,
  folder: string,
  name: string,
  text: string,
): Promise<UndoRecord> {
  const { path: file } = await resolveForCreate(packRoots(folder), path.join(folder, name));
  try {
    await createExclusive(file, text);
  } catch (err) {
    throw fsError(err, file);
  }
  return { kind: 'remove-created', path: file };
}

/** Replaces a file's content with `calendars`, keeping the old version in the trash for undo. */
export async function replaceCalendarFile(ctx: ToolContext, file: string, calendars: Component[]): Promise<UndoRecord> {
  return replaceFileText(ctx, ctx.packs.calendarDir, file, serializeCalendars(calendars));
}

/** Replaces `target` (a file inside the pack folder `folder`) with `text`; the old version goes to the trash. */
export async function replaceFileText(
  ctx: ToolContext,
  folder: string,
  target: string,
  text: string,
): Promise<UndoRecord> {
  const { path: file } = await resolveForCreate(packRoots(folder), target);
  const existing = await lstatOrNull(file);
  if (existing === undefined || !existing.isFile()) throw new ToolError('NOT_FOUND', `${target} is no longer there.`);
  return replaceKeepingBackup(ctx, file, text, existing.mode);
}

/** Moves a file to the trash; undone by bringing it back. */
export async function trashPackFile(ctx: ToolContext, folder: string, target: string): Promise<UndoRecord> {
  const { path: file } = await resolveEntry(packRoots(folder), target);
  try {
    return { kind: 'untrash', trashed: await moveIntoTrash(ctx, file), original: file };
  } catch (err) {
    throw fsError(err, file);
  }
}

/** A file name for a new entry in a pack folder: readable, unique, and safe on every file system. */
export function fileNameFor(title: string, id: string, extension: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${slug || 'entry'}-${id.slice(0, 8)}${extension}`;
}
