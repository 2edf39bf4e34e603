import { withParent } from '../../sandbox/confinedFs.js';
import { fsError, resolveEntry, showPath } from '../../sandbox/pathGuard.js';
import type { BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { boolArg, objectSchema, pathParam, shownArg } from './common.js';
import { errnoCode, kindOf, removeTree } from './fsHelpers.js';
import { asText, kindWord, lastPart, summarizer } from '../summaryText.js';

export type DeletePermanentlyArgs = { path: string; recursive?: boolean };

export const deletePermanently: BuiltinToolDefinition<DeletePermanentlyArgs> = {
  name: 'delete_permanently',
  description:
    'Delete a file or an empty folder for good; it cannot be undone. A folder that is not empty is deleted only ' +
    'with recursive true. Use trash instead unless the user asked for permanent deletion.',
  parameters: objectSchema(
    {
      path: pathParam('The file or folder to delete: a full path, or a path relative to the first granted folder.'),
      recursive: {
        type: 'boolean',
        description: 'true: also delete a folder that is not empty, with everything inside it. Default false.',
      },
    },
    ['path'],
  ),
  risk: 'irreversible',
  touches: 'files',
  forPeople: { title: 'Delete for good', text: 'Deletes a file or folder for good: it cannot be brought back.' },
  pathArgs: { path: 'entry' },
  describe(args) {
    const recursive = args.recursive === true;
    return {
      title: 'Delete permanently',
      summary: recursive
        ? `Delete ${shownArg(args.path)} and everything inside it for good. This cannot be undone.`
        : `Delete ${shownArg(args.path)} for good. This cannot be undone.`,
      details: [
        { label: 'Path', value: shownArg(args.path) },
        { label: 'Including everything inside', value: recursive ? 'yes' : 'no' },
      ],
    };
  },
  summarize: summarizer<DeletePermanentlyArgs>((r, args) => {
    const entry = asText(r.path);
    if (r.deleted !== true || entry === undefined) return null;
    const inside = r.kind === 'folder' && args.recursive === true ? ' and everything in it' : '';
    return `Deleted ${kindWord(r.kind)}${lastPart(entry)}${inside} for good.`;
  }),
  async run(args, ctx): Promise<ToolOutcome> {
    const recursive = boolArg(args.recursive);
    const entry = await resolveEntry(ctx.roots, args.path);
    // Relative to its open, checked folder; a folder's tree is walked without following a link (removeTree).
    const kind = await withParent(entry, async (folder, name) => {
      const stats = await folder.lstat(name);
      if (stats === undefined) throw new ToolError('NOT_FOUND', `${showPath(args.path)} does not exist.`);
      try {
        if (stats.isDirectory()) {
          if (recursive) await removeTree(folder, name, ctx.signal);
          else await folder.rmdir(name);
        } else {
          // A link is deleted as a link; where it points is untouched.
          await folder.unlink(name);
        }
      } catch (err) {
        const notEmpty = errnoCode(err) === 'ENOTEMPTY' || errnoCode(err) === 'EEXIST';
        if (notEmpty && recursive) {
          throw new ToolError(
            'IO_ERROR',
            `Something was added to ${showPath(args.path)} while Homebody was deleting it; what is left there was not deleted.`,
          );
        }
        if (notEmpty) {
          throw new ToolError(
            'IO_ERROR',
            `The folder ${showPath(args.path)} is not empty and was not deleted. Set recursive to true to delete it with everything inside.`,
          );
        }
        throw fsError(err, args.path);
      }
      return kindOf(stats);
    });
    return { result: { deleted: true, kind, path: entry.path } };
  },
};
