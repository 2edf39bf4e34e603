import path from 'node:path';
import { ConfinedFolder, withParent } from '../../sandbox/confinedFs.js';
import { fsError, isInsideOrSame, resolveEntry, showPath } from '../../sandbox/pathGuard.js';
import type { BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { objectSchema, pathParam, shownArg } from './common.js';
import type { EntryKind } from './fsHelpers.js';
import { alreadyExists, kindOf, moveEntry, resolveDestination } from './fsHelpers.js';
import { asText, kindWord, lastPart, placeFrom, summarizer } from '../summaryText.js';

export type MoveArgs = { from: string; to: string };

export const move: BuiltinToolDefinition<MoveArgs> = {
  name: 'move',
  description:
    'Move or rename a file or folder. If "to" is an existing folder, the item goes inside it and keeps its name; ' +
    'otherwise "to" is the new full path (use this to rename). Never replaces an existing file or folder.',
  parameters: objectSchema(
    {
      from: pathParam('The file or folder to move: a full path, or a path relative to the first granted folder.'),
      to: pathParam('The new path, or an existing folder to move it into.'),
    },
    ['from', 'to'],
  ),
  risk: 'write',
  touches: 'files',
  forPeople: {
    title: 'Move or rename',
    text: 'Moves or renames a file or folder, never over one that is already there.',
  },
  pathArgs: { from: 'entry', to: 'destination' },
  provenance: {
    writes: [{ key: { field: 'to', prefix: 'file:' }, from: { field: 'from', prefix: 'file:' }, moved: true }],
  },
  describe(args) {
    return {
      title: 'Move or rename',
      summary: `Move ${shownArg(args.from)} to ${shownArg(args.to)}. Nothing existing is replaced.`,
      details: [
        { label: 'From', value: shownArg(args.from) },
        { label: 'To', value: shownArg(args.to) },
      ],
    };
  },
  summarize: summarizer<MoveArgs>((r) => {
    const from = asText(r.from);
    const to = asText(r.to);
    if (r.moved !== true || from === undefined || to === undefined) return null;
    const what = `${kindWord(r.kind)}${lastPart(from)}`;
    // A new name in the same folder is a rename.
    if (path.dirname(from) === path.dirname(to)) return `Renamed ${what} to ${lastPart(to)}.`;
    return `Moved ${what} to ${placeFrom(from, to)}.`;
  }),
  async run(args, ctx): Promise<ToolOutcome> {
    const source = await resolveEntry(ctx.roots, args.from);
    const dest = await resolveDestination(ctx.roots, args.to, path.basename(source.path));
    if (dest.path === source.path) {
      throw new ToolError(
        'INVALID_PATH',
        `${showPath(args.from)} is already at ${showPath(args.to)}; nothing to move.`,
      );
    }
    // Both sides are named relative to their open, checked folders (confinedFs); the entry itself is moved, a link as
    // a link.
    const kind = await withParent(source, (from, fromName) =>
      withParent(dest, async (to, toName): Promise<EntryKind> => {
        const stats = await from.lstat(fromName);
        if (stats === undefined) throw new ToolError('NOT_FOUND', `${showPath(args.from)} does not exist.`);
        if (stats.isDirectory() && isInsideOrSame(source.path, dest.path)) {
          throw new ToolError('INVALID_PATH', `A folder cannot be moved into itself (${showPath(args.to)}).`);
        }
        try {
          const occupant = await to.lstat(toName);
          if (occupant !== undefined) {
            // The same entry under another spelling: a case-only rename on a case-insensitive disk.
            if (occupant.dev !== stats.dev || occupant.ino !== stats.ino) throw alreadyExists(dest.path);
            await ConfinedFolder.rename(from, fromName, to, toName);
          } else {
            await moveEntry(from, fromName, to, toName, ctx.signal);
          }
        } catch (err) {
          throw fsError(err, args.from);
        }
        return kindOf(stats);
      }),
    );
    return {
      result: { moved: true, kind, from: source.path, to: dest.path },
      undo: { kind: 'move-back', from: source.path, to: dest.path },
    };
  },
};
