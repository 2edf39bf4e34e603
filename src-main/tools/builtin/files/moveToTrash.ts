import { withParent } from '../../sandbox/confinedFs.js';
import { fsError, resolveEntry, showPath } from '../../sandbox/pathGuard.js';
import type { BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { objectSchema, pathParam, shownArg } from './common.js';
import { ToolError } from '../../toolTypes.js';
import { kindOf, moveIntoTrashFrom } from './fsHelpers.js';
import { asText, kindWord, lastPart, summarizer } from '../summaryText.js';

export type MoveToTrashArgs = { path: string };

export const moveToTrash: BuiltinToolDefinition<MoveToTrashArgs> = {
  name: 'trash',
  description:
    "Remove a file or folder by moving it to Homebody's trash, from where it can be brought back (undo). " +
    'Prefer this to delete_permanently.',
  parameters: objectSchema(
    { path: pathParam('The file or folder to remove: a full path, or a path relative to the first granted folder.') },
    ['path'],
  ),
  risk: 'write',
  touches: 'files',
  forPeople: {
    title: 'Move to the trash',
    text: "Moves a file or folder to Homebody's trash, from where Undo brings it back.",
  },
  pathArgs: { path: 'entry' },
  describe(args) {
    return {
      title: 'Move to trash',
      summary: `Move ${shownArg(args.path)} to the trash; it can be restored with undo.`,
      details: [{ label: 'Path', value: shownArg(args.path) }],
    };
  },
  summarize: summarizer<MoveToTrashArgs>((r) => {
    const entry = asText(r.path);
    if (r.trashed !== true || entry === undefined) return null;
    return `Moved ${kindWord(r.kind)}${lastPart(entry)} to the trash; it can be undone.`;
  }),
  async run(args, ctx): Promise<ToolOutcome> {
    const entry = await resolveEntry(ctx.roots, args.path);
    // The entry is moved relative to its open, checked folder into an open trash slot (confinedFs).
    const { kind, trashed } = await withParent(entry, async (folder, name) => {
      const stats = await folder.lstat(name);
      if (stats === undefined) throw new ToolError('NOT_FOUND', `${showPath(args.path)} does not exist.`);
      try {
        return { kind: kindOf(stats), trashed: await moveIntoTrashFrom(ctx, folder, name) };
      } catch (err) {
        throw fsError(err, args.path);
      }
    });
    return {
      result: { trashed: true, kind, path: entry.path },
      undo: { kind: 'untrash', trashed, original: entry.path },
    };
  },
};
