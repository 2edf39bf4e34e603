import { constants } from 'node:fs';
import { copyFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fsError, isInsideOrSame, resolveExisting, showPath } from '../../sandbox/pathGuard.js';
import type { JsonValue, ToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { objectSchema, pathParam, shownArg } from './common.js';
import {
  alreadyExists,
  COPY_LIMITS,
  copyTree,
  errnoCode,
  formatBytes,
  measureTree,
  resolveDestination,
} from './fsHelpers.js';

export type CopyArgs = { from: string; to: string };

export const copy: ToolDefinition<CopyArgs> = {
  name: 'copy',
  description:
    'Copy a file, or a folder with everything inside it. If "to" is an existing folder, the copy goes inside it ' +
    `and keeps its name; otherwise "to" is the full path of the copy. Never replaces anything. Folders: at most ` +
    `${COPY_LIMITS.maxEntries} items and ${formatBytes(COPY_LIMITS.maxBytes)}; links inside are left out.`,
  parameters: objectSchema(
    {
      from: pathParam('The file or folder to copy: a full path, or a path relative to the first granted folder.'),
      to: pathParam('The path of the copy, or an existing folder to copy it into.'),
    },
    ['from', 'to'],
  ),
  risk: 'write',
  describe(args) {
    return {
      title: 'Copy',
      summary: `Make a copy of ${shownArg(args.from)} at ${shownArg(args.to)}. Nothing existing is replaced.`,
      details: [
        { label: 'From', value: shownArg(args.from) },
        { label: 'To', value: shownArg(args.to) },
      ],
    };
  },
  async run(args, ctx): Promise<ToolOutcome> {
    const source = await resolveExisting(ctx.roots, args.from);
    const sourceStats = await stat(source.path);
    const dest = await resolveDestination(ctx.roots, args.to, path.basename(source.path));
    if (dest.occupiedBy !== undefined) throw alreadyExists(dest.path);

    const result: { [key: string]: JsonValue } = { copied: true, from: source.path, to: dest.path };
    if (sourceStats.isFile()) {
      try {
        await copyFile(source.path, dest.path, constants.COPYFILE_EXCL);
      } catch (err) {
        if (errnoCode(err) === 'EEXIST') throw alreadyExists(dest.path);
        throw fsError(err, args.from);
      }
      result.kind = 'file';
      result.bytes = sourceStats.size;
    } else if (sourceStats.isDirectory()) {
      if (isInsideOrSame(source.path, dest.path)) {
        throw new ToolError('INVALID_PATH', `A folder cannot be copied into itself (${showPath(args.to)}).`);
      }
      try {
        await measureTree(source.path, COPY_LIMITS, ctx.signal);
        const counts = await copyTree(source.path, dest.path, { links: 'skip', signal: ctx.signal });
        result.kind = 'folder';
        result.files = counts.files;
        result.folders = counts.folders;
        if (counts.skipped > 0) result.note = `${counts.skipped} links or special files were not copied.`;
      } catch (err) {
        if (errnoCode(err) === 'EEXIST') throw alreadyExists(dest.path);
        throw fsError(err, args.from);
      }
    } else {
      throw new ToolError('NOT_A_FILE', `${showPath(args.from)} is neither a file nor a folder.`);
    }
    return { result, undo: { kind: 'remove-created', path: dest.path } };
  },
};
