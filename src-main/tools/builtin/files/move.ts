import { lstat, rename } from 'node:fs/promises';
import path from 'node:path';
import { fsError, isInsideOrSame, resolveEntry, showPath } from '../../sandbox/pathGuard.js';
import type { ToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { objectSchema, pathParam, shownArg } from './common.js';
import { alreadyExists, kindOf, moveNoReplace, resolveDestination } from './fsHelpers.js';

export type MoveArgs = { from: string; to: string };

export const move: ToolDefinition<MoveArgs> = {
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
  async run(args, ctx): Promise<ToolOutcome> {
    const source = await resolveEntry(ctx.roots, args.from);
    const sourceStats = await lstat(source.path);
    const dest = await resolveDestination(ctx.roots, args.to, path.basename(source.path));

    if (dest.path === source.path) {
      throw new ToolError(
        'INVALID_PATH',
        `${showPath(args.from)} is already at ${showPath(args.to)}; nothing to move.`,
      );
    }
    if (sourceStats.isDirectory() && isInsideOrSame(source.path, dest.path)) {
      throw new ToolError('INVALID_PATH', `A folder cannot be moved into itself (${showPath(args.to)}).`);
    }
    try {
      if (dest.occupiedBy !== undefined) {
        // The same entry under another spelling: a case-only rename on a case-insensitive disk.
        const same = dest.occupiedBy.dev === sourceStats.dev && dest.occupiedBy.ino === sourceStats.ino;
        if (!same) throw alreadyExists(dest.path);
        await rename(source.path, dest.path);
      } else {
        await moveNoReplace(source.path, dest.path, ctx.signal);
      }
    } catch (err) {
      throw fsError(err, args.from);
    }
    return {
      result: { moved: true, kind: kindOf(sourceStats), from: source.path, to: dest.path },
      undo: { kind: 'move-back', from: source.path, to: dest.path },
    };
  },
};
