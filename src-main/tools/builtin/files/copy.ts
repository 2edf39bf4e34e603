import path from 'node:path';
import type { ConfinedFolder } from '../../sandbox/confinedFs.js';
import { openFolderAt, withParent } from '../../sandbox/confinedFs.js';
import { fsError, isInsideOrSame, resolveExisting, showPath } from '../../sandbox/pathGuard.js';
import type { JsonValue, BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { objectSchema, pathParam, shownArg } from './common.js';
import {
  alreadyExists,
  COPY_LIMITS,
  copyFileBetween,
  copyTree,
  errnoCode,
  formatBytes,
  measureTree,
  resolveDestination,
} from './fsHelpers.js';
import { asCount, asText, formatSize, lastPart, placeFrom, plural, series, summarizer } from '../summaryText.js';

export type CopyArgs = { from: string; to: string };

export const copy: BuiltinToolDefinition<CopyArgs> = {
  name: 'copy',
  description:
    'Copy a file, or a folder with everything inside it. If "to" is an existing folder, the copy goes inside it ' +
    `and keeps its name; otherwise "to" is the full path of the copy. Never replaces anything. Folders: at most ` +
    `${COPY_LIMITS.maxEntries} items and ${formatBytes(COPY_LIMITS.maxBytes)}; links inside are left out, and so are ` +
    'files with more than one name (hard links).',
  parameters: objectSchema(
    {
      from: pathParam('The file or folder to copy: a full path, or a path relative to the first granted folder.'),
      to: pathParam('The path of the copy, or an existing folder to copy it into.'),
    },
    ['from', 'to'],
  ),
  risk: 'write',
  touches: 'files',
  forPeople: {
    title: 'Copy a file or folder',
    text: 'Makes a copy of a file, or of a folder with everything in it, without replacing anything.',
  },
  pathArgs: { from: 'existing', to: 'destination' },
  provenance: { writes: [{ key: { field: 'to', prefix: 'file:' }, from: { field: 'from', prefix: 'file:' } }] },
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
  summarize: summarizer<CopyArgs>((r) => {
    const from = asText(r.from);
    const to = asText(r.to);
    if (r.copied !== true || from === undefined || to === undefined) return null;
    const place = placeFrom(from, to);
    const bytes = asCount(r.bytes);
    if (r.kind === 'file') {
      return `Copied ${lastPart(from)} to ${place}${bytes !== undefined ? ` (${formatSize(bytes)})` : ''}.`;
    }
    if (r.kind !== 'folder') return `Copied ${lastPart(from)} to ${place}.`;
    const files = asCount(r.files);
    const folders = asCount(r.folders);
    const counts = [
      ...(files !== undefined ? [plural(files, 'file')] : []),
      ...(folders !== undefined && folders > 0 ? [plural(folders, 'folder')] : []),
    ];
    const left = typeof r.note === 'string' ? ' Some links, or files with more than one name, were left out.' : '';
    return `Copied the folder ${lastPart(from)} to ${place}${counts.length > 0 ? ` (${series(counts)})` : ''}.${left}`;
  }),
  async run(args, ctx): Promise<ToolOutcome> {
    const source = await resolveExisting(ctx.roots, args.from);
    const dest = await resolveDestination(ctx.roots, args.to, path.basename(source.path));
    const result: { [key: string]: JsonValue } = { copied: true, from: source.path, to: dest.path };

    // The source is opened once (a folder down from its granted folder, a file in its open folder), the copy created
    // in its open destination folder, and the bytes go from descriptor to descriptor: nothing is followed.
    await withParent(dest, async (target, name) => {
      if ((await target.lstat(name)) !== undefined) throw alreadyExists(dest.path);
      const sourceKind =
        source.path === source.root.path
          ? 'folder'
          : await withParent(source, async (folder, sourceName) => {
              const stats = await folder.lstat(sourceName);
              if (stats === undefined) throw new ToolError('NOT_FOUND', `${showPath(args.from)} does not exist.`);
              if (stats.isFile()) {
                result.bytes = await copyFileBetween(folder, sourceName, target, name, ctx.signal).catch((err) => {
                  if (errnoCode(err) === 'EEXIST') throw alreadyExists(dest.path);
                  throw fsError(err, args.from);
                });
                return 'file';
              }
              if (stats.isDirectory()) return 'folder';
              throw new ToolError('NOT_A_FILE', `${showPath(args.from)} is neither a file nor a folder.`);
            });
      result.kind = sourceKind;
      if (sourceKind === 'file') return;

      if (isInsideOrSame(source.path, dest.path)) {
        throw new ToolError('INVALID_PATH', `A folder cannot be copied into itself (${showPath(args.to)}).`);
      }
      let from: ConfinedFolder;
      try {
        from = await openFolderAt(source.root, source.path);
      } catch (err) {
        throw fsError(err, args.from);
      }
      try {
        await measureTree(from, COPY_LIMITS, ctx.signal);
        const counts = await copyTree(from, target, name, { links: 'skip', signal: ctx.signal });
        result.files = counts.files;
        result.folders = counts.folders;
        const notes: string[] = [];
        if (counts.skipped > 0) notes.push(`${counts.skipped} links or special files were not copied.`);
        if (counts.hardLinked > 0) {
          notes.push(
            `${counts.hardLinked} files with more than one name (hard links) were not copied: another of their ` +
              'names may lie outside the folders you granted.',
          );
        }
        if (notes.length > 0) result.note = notes.join(' ');
      } catch (err) {
        if (errnoCode(err) === 'EEXIST') throw alreadyExists(dest.path);
        throw fsError(err, args.from);
      } finally {
        await from.close();
      }
    });
    return { result, undo: { kind: 'remove-created', path: dest.path } };
  },
};
