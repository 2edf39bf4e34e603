import type { ConfinedFolder } from '../../sandbox/confinedFs.js';
import { openFolderAt } from '../../sandbox/confinedFs.js';
import { fsError, resolveExisting, showPath } from '../../sandbox/pathGuard.js';
import type { JsonValue, BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { intArg, objectSchema, pathParam, shownArg } from './common.js';
import { kindOf } from './fsHelpers.js';
import {
  asCount,
  asObjects,
  asText,
  formatNumber,
  plain,
  plural,
  series,
  shownPath,
  summarizer,
} from '../summaryText.js';

export type ListFolderArgs = { path: string; limit?: number };

/** Most entries returned in one answer. */
export const LIST_MAX_ENTRIES = 500;
/** Most names looked at (and sorted) in one folder; beyond that the count is "at least". */
const LIST_SCAN_LIMIT = 50_000;

export const listFolder: BuiltinToolDefinition<ListFolderArgs> = {
  name: 'list_folder',
  description:
    'List what is inside a folder: each entry with its name, kind (file, folder or link), size in bytes and last change time. ' +
    'Folders come first, then files, sorted by name. Use "." for the first granted folder.',
  parameters: objectSchema(
    {
      path: pathParam('The folder to list: a full path, or a path relative to the first granted folder.'),
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: LIST_MAX_ENTRIES,
        description: `How many entries to return at most (default and maximum ${LIST_MAX_ENTRIES}).`,
      },
    },
    ['path'],
  ),
  risk: 'read',
  touches: 'files',
  forPeople: {
    title: 'List a folder',
    text: 'Shows what is in a folder you granted: the names, sizes and dates of what it holds.',
  },
  pathArgs: { path: 'existing' },
  describe(args) {
    return {
      title: 'List a folder',
      summary: `See the names, sizes and dates of what is in ${shownArg(args.path)}.`,
      details: [{ label: 'Folder', value: shownArg(args.path) }],
    };
  },
  summarize: summarizer<ListFolderArgs>((r) => {
    const folder = asText(r.folder);
    const entries = asObjects(r.entries);
    if (folder === undefined || entries === undefined) return null;
    const where = shownPath(folder);
    if (entries.length === 0 && r.total === 0) return `${where} is empty.`;
    const names = entries.map((e) => asText(e.name)).filter((n): n is string => n !== undefined);
    const kinds = kindCounts(entries.map((e) => e.kind));
    const total = asCount(r.total);
    if (total !== undefined && total <= entries.length) {
      const first = series(
        names.map((n) => plain(n, 40)),
        total,
      );
      return `${kinds} in ${where}${names.length > 0 ? `: ${first}` : ''}.`;
    }
    const all = total !== undefined ? plural(total, 'item') : 'More items than could be counted';
    return `${all} in ${where}; the first ${formatNumber(entries.length)} shown are ${kinds}.`;
  }),
  async run(args, ctx): Promise<ToolOutcome> {
    const limit = intArg(args.limit, LIST_MAX_ENTRIES, 1, LIST_MAX_ENTRIES);
    const { root, path: folder } = await resolveExisting(ctx.roots, args.path);
    let open: ConfinedFolder;
    try {
      // Opened down from the granted folder without following a link; names and sizes come from that open folder.
      open = await openFolderAt(root, folder);
    } catch (err) {
      if (err instanceof ToolError && err.code === 'NOT_A_FOLDER') {
        throw new ToolError(
          'NOT_A_FOLDER',
          `${showPath(args.path)} is a file, not a folder; use read_text to read it.`,
        );
      }
      throw fsError(err, args.path);
    }
    const found: Array<{ name: string; folder: boolean }> = [];
    const shown: Array<{ name: string; kind: string; size?: number; modified: string }> = [];
    let moreThanScanned = false;
    try {
      try {
        for await (const dirent of await open.opendir()) {
          if (found.length >= LIST_SCAN_LIMIT) {
            moreThanScanned = true;
            break; // leaving the loop closes the directory
          }
          found.push({ name: dirent.name, folder: dirent.isDirectory() });
        }
      } catch (err) {
        throw fsError(err, args.path);
      }
      found.sort((a, b) => Number(b.folder) - Number(a.folder) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

      for (const { name } of found.slice(0, limit)) {
        ctx.signal.throwIfAborted();
        // lstat: a link is shown as a link; where it points is not looked at (it may lead outside).
        const stats = await open.lstat(name).catch(() => undefined);
        if (stats === undefined) continue; // removed between listing and stat: leave it out
        const kind = kindOf(stats);
        shown.push({
          name,
          kind,
          ...(kind === 'file' ? { size: Number(stats.size) } : {}),
          modified: stats.mtime.toISOString(),
        });
      }
    } finally {
      await open.close();
    }
    const result: { [key: string]: JsonValue } = {
      folder,
      total: moreThanScanned ? `more than ${LIST_SCAN_LIMIT}` : found.length,
      entries: shown,
    };
    if (limit < found.length || moreThanScanned) {
      result.note = `Only the first ${shown.length} entries are shown. Use search_files to find something specific.`;
    }
    return { result, ...(root.untrusted ? { untrustedSource: folder } : {}) };
  },
};

/** "3 files and 1 folder", from the entries' kinds. */
function kindCounts(kinds: readonly unknown[]): string {
  const count = (kind: string) => kinds.filter((k) => k === kind).length;
  const others = kinds.length - count('folder') - count('file') - count('link');
  const parts = [
    [count('file'), 'file'],
    [count('folder'), 'folder'],
    [count('link'), 'link'],
    [others, 'other item'],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, word]) => plural(n, word));
  return said.length > 0 ? series(said, said.length, said.length) : 'Nothing';
}
