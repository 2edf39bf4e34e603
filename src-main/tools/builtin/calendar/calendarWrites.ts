/**
 * How the calendar tools change the folder, always undoably with the file tools' undo records: a new event is a
 * new file (`remove-created`), a changed file keeps its old version in the trash first (`restore-file`), and a file
 * left with no event goes to the trash (`untrash`). Every path is confined to the calendar folder by the path
 * guard, and files are replaced by a temp file and a rename, never rewritten in place. A changed file differs
 * from the old one only inside the component the change touches (see eventEdit.ts).
 */
import path from 'node:path';
import { createExclusive, fsError, resolveEntry, resolveForCreate } from '../../sandbox/pathGuard.js';
import type { GrantedRoot, ToolContext, UndoRecord } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { lstatOrNull, moveIntoTrash } from '../files/fsHelpers.js';
import { replaceKeepingBackup } from '../packFileWrite.js';
import { readCalendarFolder } from './calendarFiles.js';
import type { CalendarIndex, EventEntry } from './occurrences.js';
import { indexEvents } from './occurrences.js';

/** The one folder a pack may write: its own. */
export function packRoots(folder: string): GrantedRoot[] {
  return [{ path: folder, untrusted: false }];
}

export interface FoundEvent {
  /** The event to change: its master (or only its changed occurrences) in one calendar of one file. */
  readonly entry: EventEntry;
  readonly index: CalendarIndex;
}

function placesList(places: readonly string[]): string {
  return places.map((p) => JSON.stringify(p)).join(', ');
}

/**
 * The event with `uid`. When two places hold that UID (two files, or two copies in one file) the write is refused
 * until `file` says which one: changing "the first one found" would edit an event the user may not mean.
 */
export async function findEvent(ctx: ToolContext, uid: string, file?: string): Promise<FoundEvent> {
  const folder = await readCalendarFolder(ctx.packs.calendarDir, ctx.signal);
  const index = indexEvents(folder.files, []);
  const all = index.entries.filter((e) => e.uid === uid);
  if (all.length === 0) {
    const unreadable = [...new Set(folder.problems.map((p) => p.file))].join(', ');
    throw new ToolError(
      'NOT_FOUND',
      `No event has the uid ${JSON.stringify(uid)}.` +
        (unreadable
          ? ` Some calendar files could not be read in full (${unreadable}); it may be in one of them.`
          : '') +
        ' Use calendar_events to find the uid.',
    );
  }
  const places = all.map((e) => e.place);
  let chosen = all;
  if (file !== undefined && file.trim() !== '') {
    const wanted = file.trim();
    chosen = all.filter((e) => e.place === wanted || (e.file.name === wanted && e.place === e.file.name));
    if (chosen.length === 0) {
      throw new ToolError(
        'NOT_FOUND',
        `The event ${JSON.stringify(uid)} is not in ${JSON.stringify(wanted)}; it is in ${placesList(places)}.`,
      );
    }
  }
  if (chosen.length > 1) {
    throw new ToolError(
      'INVALID_INPUT',
      `${chosen.length} events have the uid ${JSON.stringify(uid)}: in ${placesList(places)}. ` +
        'Nothing was changed. Say which one to change with file (one of those).',
    );
  }
  return { entry: chosen[0] as EventEntry, index };
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
