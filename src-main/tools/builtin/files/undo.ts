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
 */
import path from 'node:path';
import { fsError, resolveEntry, resolveForCreate, showPath } from '../../sandbox/pathGuard.js';
import type { ToolContext, ToolOutcome, UndoRecord } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { assertInTrash, lstatOrNull, moveIntoTrash, moveNoReplace, removeEmptySlot } from './fsHelpers.js';

function occupied(p: string): ToolError {
  return new ToolError(
    'ALREADY_EXISTS',
    `Cannot undo: ${showPath(p)} is taken by something else now. Nothing was changed; move that away first.`,
  );
}

function gone(p: string, what: string): ToolError {
  return new ToolError('NOT_FOUND', `Cannot undo: ${showPath(p)} no longer exists (${what}). Nothing was changed.`);
}

async function currentEntry(ctx: ToolContext, p: string, what: string): Promise<string> {
  try {
    return (await resolveEntry(ctx.roots, p)).path;
  } catch (err) {
    if (err instanceof ToolError && err.code === 'NOT_FOUND') throw gone(p, what);
    throw err;
  }
}

/** A free place inside the granted roots (its parent must exist); refuses an occupied one. */
async function freePlace(ctx: ToolContext, p: string): Promise<string> {
  const place = (await resolveForCreate(ctx.roots, p)).path;
  if ((await lstatOrNull(place)) !== undefined) throw occupied(p);
  return place;
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
      const back = await freePlace(ctx, record.from);
      try {
        await moveNoReplace(now, back, ctx.signal);
      } catch (err) {
        throw fsError(err, record.from);
      }
      return { result: { undone: 'move', from: now, to: back } };
    }

    case 'remove-created': {
      let created: string;
      try {
        created = await currentEntry(ctx, record.path, 'it was removed since');
      } catch (err) {
        if (err instanceof ToolError && err.code === 'NOT_FOUND') {
          return { result: { undone: 'create', path: record.path, note: 'It was already gone.' } };
        }
        throw err;
      }
      let trashed: string;
      try {
        trashed = await moveIntoTrash(ctx, created);
      } catch (err) {
        throw fsError(err, record.path);
      }
      return { result: { undone: 'create', path: created, movedToTrash: trashed } };
    }

    case 'untrash': {
      const trashed = await assertInTrash(ctx, record.trashed);
      const original = await freePlace(ctx, record.original);
      try {
        await moveNoReplace(trashed, original, ctx.signal);
      } catch (err) {
        throw fsError(err, record.original);
      }
      await removeEmptySlot(ctx, trashed);
      return { result: { undone: 'trash', restored: original } };
    }

    case 'restore-file': {
      const backup = await assertInTrash(ctx, record.backup);
      const target = (await resolveForCreate(ctx.roots, record.path)).path;
      const present = await lstatOrNull(target);
      if (present !== undefined && !present.isFile()) throw occupied(record.path);

      // The version there now is replaced on purpose, but kept in the trash.
      let keptCurrent: string | undefined;
      if (present !== undefined) {
        try {
          keptCurrent = await moveIntoTrash(ctx, target);
        } catch (err) {
          throw fsError(err, record.path);
        }
      }
      try {
        await moveNoReplace(backup, target, ctx.signal);
      } catch (err) {
        // Put the current version back where it was, so a failed undo changes nothing.
        if (keptCurrent !== undefined) {
          await moveNoReplace(keptCurrent, target, ctx.signal).catch(() => undefined);
          await removeEmptySlot(ctx, keptCurrent);
        }
        throw fsError(err, record.path);
      }
      await removeEmptySlot(ctx, backup);
      return {
        result: {
          undone: 'overwrite',
          restored: target,
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
