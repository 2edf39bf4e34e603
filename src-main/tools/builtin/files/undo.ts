/**
 * Reverses what the file tools did, from their UndoRecords. A record is data read back from the
 * journal, so every path in it goes through the same checks as a tool argument: places in the
 * user's folders must still lie inside the granted roots, trash paths inside our trash. Nothing is
 * ever replaced silently: an occupied original place makes the undo fail with nothing changed,
 * and anything undo removes goes to the trash rather than away.
 *
 * Meaning of each record:
 * - move-back {from, to}: the entry moved from `from` to `to`; undo moves it from `to` back to `from`.
 * - restore-file {path, backup}: `path` was replaced; `backup` (in the trash) holds the old content.
 *   Undo puts the backup back; the version there now goes to the trash (it is replaced on purpose,
 *   but kept).
 * - remove-created {path}: `path` was created; undo moves it to the trash.
 * - untrash {trashed, original}: undo moves `trashed` back to `original`.
 *
 * Like the tools, every move names both sides relative to open, checked folders (sandbox/confinedFs): the granted
 * folder (or the pack's, or the trash) is opened and checked, then walked down without following a link.
 */
import path from 'node:path';
import type { ConfinedFolder, Place } from '../../sandbox/confinedFs.js';
import { withParent } from '../../sandbox/confinedFs.js';
import { fsError, resolveEntry, resolveForCreate, showPath } from '../../sandbox/pathGuard.js';
import type { ToolContext, ToolOutcome, UndoRecord } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { moveEntry, moveIntoTrashFrom, removeEmptySlot, trashPlace } from './fsHelpers.js';

function occupied(p: string): ToolError {
  return new ToolError(
    'ALREADY_EXISTS',
    `Cannot undo: ${showPath(p)} is taken by something else now. Nothing was changed; move that away first.`,
  );
}

function gone(p: string, what: string): ToolError {
  return new ToolError('NOT_FOUND', `Cannot undo: ${showPath(p)} no longer exists (${what}). Nothing was changed.`);
}

async function currentEntry(ctx: ToolContext, p: string, what: string): Promise<Place> {
  try {
    return await resolveEntry(ctx.roots, p);
  } catch (err) {
    if (err instanceof ToolError && err.code === 'NOT_FOUND') throw gone(p, what);
    throw err;
  }
}

/**
 * Runs `fn` on a place inside the granted roots that is free (its folder must exist, open and checked); refuses an
 * occupied one.
 */
async function withFreePlace<T>(
  ctx: ToolContext,
  p: string,
  fn: (folder: ConfinedFolder, name: string, place: Place) => Promise<T>,
): Promise<T> {
  const place = await resolveForCreate(ctx.roots, p);
  return withParent(place, async (folder, name) => {
    if ((await folder.lstat(name)) !== undefined) throw occupied(p);
    return fn(folder, name, place);
  });
}

/**
 * The places an undo may touch: the granted roots and the packs' own folders (calendar, notes, mail...), which
 * the packs write to whether or not the user granted them to the file tools.
 */
export function withPackFolders(ctx: ToolContext): ToolContext {
  const { calendarDir, contactsDir, notesDir, mailDir, remindersFile } = ctx.packs;
  const folders = [calendarDir, contactsDir, notesDir, mailDir, path.dirname(remindersFile)];
  return { ...ctx, roots: [...ctx.roots, ...folders.map((folder) => ({ path: folder, untrusted: false }))] };
}

export async function applyUndo(record: UndoRecord, context: ToolContext): Promise<ToolOutcome> {
  const ctx = withPackFolders(context);
  switch (record.kind) {
    case 'move-back': {
      const now = await currentEntry(ctx, record.to, 'it was moved or deleted since');
      const back = await withParent(now, (nowFolder, nowName) =>
        withFreePlace(ctx, record.from, async (backFolder, backName, place) => {
          try {
            await moveEntry(nowFolder, nowName, backFolder, backName, ctx.signal);
          } catch (err) {
            throw fsError(err, record.from);
          }
          return place.path;
        }),
      );
      return { result: { undone: 'move', from: now.path, to: back } };
    }

    case 'remove-created': {
      let created: Place;
      try {
        created = await currentEntry(ctx, record.path, 'it was removed since');
      } catch (err) {
        if (err instanceof ToolError && err.code === 'NOT_FOUND') {
          return { result: { undone: 'create', path: record.path, note: 'It was already gone.' } };
        }
        throw err;
      }
      const trashed = await withParent(created, async (folder, name) => {
        if ((await folder.lstat(name)) === undefined) return undefined;
        try {
          return await moveIntoTrashFrom(ctx, folder, name);
        } catch (err) {
          throw fsError(err, record.path);
        }
      });
      if (trashed === undefined) {
        return { result: { undone: 'create', path: record.path, note: 'It was already gone.' } };
      }
      return { result: { undone: 'create', path: created.path, movedToTrash: trashed } };
    }

    case 'untrash': {
      const trashed = await trashPlace(ctx, record.trashed);
      const original = await withParent(trashed, (trashFolder, trashName) =>
        withFreePlace(ctx, record.original, async (folder, name, place) => {
          try {
            await moveEntry(trashFolder, trashName, folder, name, ctx.signal);
          } catch (err) {
            throw fsError(err, record.original);
          }
          return place.path;
        }),
      );
      await removeEmptySlot(ctx, trashed.path);
      return { result: { undone: 'trash', restored: original } };
    }

    case 'restore-file': {
      const backup = await trashPlace(ctx, record.backup);
      const target = await resolveForCreate(ctx.roots, record.path);
      const keptCurrent = await withParent(target, (folder, name) =>
        withParent(backup, async (backupFolder, backupName) => {
          const present = await folder.lstat(name);
          if (present !== undefined && !present.isFile()) throw occupied(record.path);
          // The version there now is replaced on purpose, but kept in the trash.
          let kept: string | undefined;
          if (present !== undefined) {
            try {
              kept = await moveIntoTrashFrom(ctx, folder, name);
            } catch (err) {
              throw fsError(err, record.path);
            }
          }
          try {
            await moveEntry(backupFolder, backupName, folder, name, ctx.signal);
          } catch (err) {
            // Put the current version back where it was, so a failed undo changes nothing.
            if (kept !== undefined) await putBack(ctx, kept, folder, name);
            throw fsError(err, record.path);
          }
          return kept;
        }),
      );
      await removeEmptySlot(ctx, backup.path);
      return {
        result: {
          undone: 'overwrite',
          restored: target.path,
          ...(keptCurrent !== undefined ? { replacedVersionMovedToTrash: keptCurrent } : {}),
        },
      };
    }

    default: {
      const unknown: never = record;
      throw new ToolError(
        'INVALID_PATH',
        `Unknown undo record ${JSON.stringify((unknown as { kind?: unknown }).kind)}.`,
      );
    }
  }
}

/** Best effort: moves a version just trashed back to its open folder (a failed undo then changes nothing). */
async function putBack(ctx: ToolContext, trashed: string, folder: ConfinedFolder, name: string): Promise<void> {
  try {
    const place = await trashPlace(ctx, trashed);
    await withParent(place, (trashFolder, trashName) => moveEntry(trashFolder, trashName, folder, name, ctx.signal));
    await removeEmptySlot(ctx, trashed);
  } catch {
    // It stays in the trash, where the user can still find it.
  }
}

/** Shown in the history next to an undo button. */
export function describeUndo(record: UndoRecord): string {
  switch (record.kind) {
    case 'move-back':
      return `Move ${path.basename(record.to)} back to ${record.from}`;
    case 'remove-created':
      return `Move ${record.path} to the trash`;
    case 'untrash':
      return `Bring ${path.basename(record.original)} back from the trash to ${record.original}`;
    case 'restore-file':
      return `Put back the earlier version of ${record.path}`;
  }
}
