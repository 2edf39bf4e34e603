import { fsError, resolveEntry } from '../../sandbox/pathGuard.js';
import type { ToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { objectSchema, pathParam, shownArg } from './common.js';
import { kindOf, lstatOrNull, moveIntoTrash } from './fsHelpers.js';

export type MoveToTrashArgs = { path: string };

export const moveToTrash: ToolDefinition<MoveToTrashArgs> = {
  name: 'trash',
  description:
    "Remove a file or folder by moving it to Homebody's trash, from where it can be brought back (undo). " +
    'Prefer this to delete_permanently.',
  parameters: objectSchema(
    { path: pathParam('The file or folder to remove: a full path, or a path relative to the first granted folder.') },
    ['path'],
  ),
  risk: 'write',
  describe(args) {
    return {
      title: 'Move to trash',
      summary: `Move ${shownArg(args.path)} to the trash; it can be restored with undo.`,
      details: [{ label: 'Path', value: shownArg(args.path) }],
    };
  },
  async run(args, ctx): Promise<ToolOutcome> {
    const entry = await resolveEntry(ctx.roots, args.path);
    const stats = await lstatOrNull(entry.path);
    let trashed: string;
    try {
      trashed = await moveIntoTrash(ctx, entry.path);
    } catch (err) {
      throw fsError(err, args.path);
    }
    return {
      result: { trashed: true, kind: stats ? kindOf(stats) : 'file', path: entry.path },
      undo: { kind: 'untrash', trashed, original: entry.path },
    };
  },
};
