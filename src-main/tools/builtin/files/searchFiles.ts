import type { Dirent } from 'node:fs';
import path from 'node:path';
import type { Anchor, ConfinedFolder } from '../../sandbox/confinedFs.js';
import { openFolderAt, withParent } from '../../sandbox/confinedFs.js';
import { findRoot, isInsideOrSame, resolveExisting, showPath } from '../../sandbox/pathGuard.js';
import type { JsonValue, BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { intArg, objectSchema, optionalString, pathParam, shownArg } from './common.js';
import {
  asCount,
  asObjects,
  asText,
  below,
  formatNumber,
  lastPart,
  plain,
  plural,
  quoted,
  series,
  shownPath,
  summarizer,
} from '../summaryText.js';

export type SearchFilesArgs = { folder: string; name?: string; contains?: string; maxResults?: number };

/** Caps that keep one search short whatever the folder holds. */
export const SEARCH_LIMITS = {
  /** Files and folders looked at. */
  maxVisited: 20_000,
  /** Files whose content is read (when `contains` is given). */
  maxContentFiles: 5_000,
  /** Bytes read from the start of one file for `contains`. */
  maxBytesPerFile: 1024 * 1024,
  /** Bytes read in all for one search. */
  maxBytesTotal: 64 * 1024 * 1024,
  /** Folder depth below the searched folder. */
  maxDepth: 32,
  /** Results returned (the model may ask for fewer). */
  maxResults: 200,
} as const;
const DEFAULT_RESULTS = 50;
const SNIPPET_CHARS = 200;

export const searchFiles: BuiltinToolDefinition<SearchFilesArgs> = {
  name: 'search_files',
  description:
    'Find files and folders under a folder (all subfolders included) by name, by content, or both. ' +
    'name: part of the name, any case ("report" finds "Q3 Report.pdf"), or a pattern with * and ? ("*.pdf"). ' +
    'contains: text that must appear inside the file (any case); only text files are searched. Give name, contains, or both.',
  parameters: objectSchema(
    {
      folder: pathParam('The folder to search in: a full path, or a path relative to the first granted folder.'),
      name: {
        type: 'string',
        minLength: 1,
        maxLength: 256,
        description: 'Part of the file name (any case), or a pattern like "*.txt" or "invoice-202?.pdf".',
      },
      contains: {
        type: 'string',
        minLength: 1,
        maxLength: 1000,
        description: 'Plain text that must appear inside the file (any case). Not a pattern.',
      },
      maxResults: {
        type: 'integer',
        minimum: 1,
        maximum: SEARCH_LIMITS.maxResults,
        description: `How many matches to return at most (default ${DEFAULT_RESULTS}).`,
      },
    },
    ['folder'],
  ),
  risk: 'read',
  touches: 'files',
  forPeople: {
    title: 'Search for files',
    text: 'Finds files by their name or by words inside them, in the folders you granted.',
  },
  pathArgs: { folder: 'existing' },
  provenance: { reads: [{ field: 'matches[].path', prefix: 'file:' }] },
  describe(args) {
    const details = [{ label: 'Folder', value: shownArg(args.folder) }];
    if (args.name !== undefined) details.push({ label: 'Name', value: shownArg(args.name) });
    if (args.contains !== undefined) details.push({ label: 'Containing', value: shownArg(args.contains) });
    const what = [
      args.name !== undefined ? `named like "${shownArg(args.name)}"` : '',
      args.contains !== undefined ? `containing "${shownArg(args.contains)}"` : '',
    ]
      .filter((s) => s !== '')
      .join(' and ');
    return {
      title: 'Search files',
      summary: `Look in ${shownArg(args.folder)} and its subfolders for files ${what || 'matching'}.`,
      details,
    };
  },
  summarize: summarizer<SearchFilesArgs>((r, args) => {
    const folder = asText(r.folder);
    const matches = asObjects(r.matches);
    if (folder === undefined || matches === undefined) return null;
    const name = asText(args.name);
    const contains = asText(args.contains);
    const what = [
      ...(name !== undefined ? [`named like ${quoted(name, 40)}`] : []),
      ...(contains !== undefined ? [`containing ${quoted(contains, 40)}`] : []),
    ].join(' and ');
    const where = shownPath(folder, 70);
    const more = typeof r.note === 'string' ? ' The search stopped early; there may be more.' : '';
    if (matches.length === 0) return `Nothing ${what || 'matching'} in ${where}.${more}`;
    const files = matches.filter((m) => m.kind === 'file').length;
    const folders = matches.filter((m) => m.kind === 'folder').length;
    const found = series([
      ...(files > 0 ? [plural(files, 'file')] : []),
      ...(folders > 0 ? [plural(folders, 'folder')] : []),
    ]);
    const names = matches
      .map((m) => {
        const at = asText(m.path);
        if (at === undefined) return undefined;
        const line = asCount(m.line);
        return `${plain(below(folder, at) ?? lastPart(at), 40)}${line !== undefined ? ` (line ${formatNumber(line)})` : ''}`;
      })
      .filter((n): n is string => n !== undefined);
    const head = `${found || plural(matches.length, 'match', 'matches')} ${what || 'found'} in ${where}`;
    return `${head}${names.length > 0 ? `: ${series(names, matches.length)}` : ''}.${more}`;
  }),
  async run(args, ctx): Promise<ToolOutcome> {
    const namePattern = optionalString(args.name);
    const needle = optionalString(args.contains);
    if (namePattern === undefined && needle === undefined) {
      throw new ToolError('INVALID_PATH', 'Give a name to look for, text the file contains, or both.');
    }
    const maxResults = intArg(args.maxResults, DEFAULT_RESULTS, 1, SEARCH_LIMITS.maxResults);
    const matchName = namePattern === undefined ? () => true : nameMatcher(namePattern);
    const needleLower = needle?.toLowerCase();

    const { root, path: base } = await resolveExisting(ctx.roots, args.folder);
    let top: ConfinedFolder;
    try {
      top = await openFolderAt(root, base);
    } catch (err) {
      if (err instanceof ToolError && err.code === 'NOT_A_FOLDER') {
        throw new ToolError('NOT_A_FOLDER', `${showPath(args.folder)} is a file, not a folder.`);
      }
      throw err;
    }

    const results: Array<{ [key: string]: JsonValue }> = [];
    let visited = 0;
    let contentFiles = 0;
    let bytesTotal = 0;
    let skippedLinks = 0;
    let skippedHardLinks = 0;
    let stoppedBy: string | undefined;
    // Names and snippets from an untrusted folder (the searched one, a nested one, or a link's) taint the task.
    let untrustedSource = root.untrusted ? base : undefined;
    // Breadth first, so shallow matches come first; each folder is opened again from the searched one, one name at a
    // time without following a link (confinedFs), so holding no more than a few descriptors at once.
    const pending: Array<{ dir: string; depth: number }> = [{ dir: base, depth: 0 }];

    const record = (item: { [key: string]: JsonValue }, contentPath: string): void => {
      results.push(item);
      const owner = findRoot(ctx.roots, contentPath);
      if (untrustedSource === undefined && owner?.untrusted === true) untrustedSource = owner.path;
    };

    try {
      search: while (pending.length > 0) {
        ctx.signal.throwIfAborted();
        const { dir, depth } = pending.shift() as { dir: string; depth: number };
        let folder: ConfinedFolder;
        let dirents: Dirent[];
        try {
          folder = await top.openDescendant(dir);
        } catch {
          continue; // vanished, unreadable, or changed into a link: search the rest
        }
        try {
          try {
            dirents = await folder.readdir();
          } catch {
            continue;
          }
          dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
          for (const dirent of dirents) {
            ctx.signal.throwIfAborted();
            if (visited >= SEARCH_LIMITS.maxVisited) {
              stoppedBy = `after looking at ${SEARCH_LIMITS.maxVisited} files and folders`;
              break search;
            }
            visited += 1;
            const entry = path.join(dir, dirent.name);
            // Homebody's own data folder is never searched, whatever folder above it was granted.
            if ((ctx.hidden ?? []).some((hidden) => isInsideOrSame(hidden, entry))) continue;
            let kind: 'file' | 'folder';
            // Where the content is read: the entry itself, or a link's target inside the granted folders.
            let content: { root: Anchor; path: string } = { root, path: entry };
            if (dirent.isSymbolicLink()) {
              // Followed only when it stays inside the granted folders; never descended into (no loops).
              let target: string;
              try {
                target = await folder.realpath(dirent.name);
              } catch {
                skippedLinks += 1;
                continue;
              }
              const targetRoot = findRoot(ctx.roots, target);
              if (targetRoot === undefined) {
                skippedLinks += 1;
                continue;
              }
              const targetKind = await kindAt(targetRoot, target);
              if (targetKind === undefined) continue;
              kind = targetKind;
              content = { root: targetRoot, path: target };
            } else if (dirent.isDirectory()) {
              kind = 'folder';
              if (depth + 1 <= SEARCH_LIMITS.maxDepth) pending.push({ dir: entry, depth: depth + 1 });
            } else if (dirent.isFile()) {
              kind = 'file';
            } else {
              continue;
            }

            if (!matchName(dirent.name)) continue;
            if (needleLower === undefined) {
              record({ path: entry, kind }, content.path);
            } else {
              if (kind !== 'file') continue;
              if (contentFiles >= SEARCH_LIMITS.maxContentFiles) {
                stoppedBy = `after reading ${SEARCH_LIMITS.maxContentFiles} files`;
                break search;
              }
              if (bytesTotal >= SEARCH_LIMITS.maxBytesTotal) {
                stoppedBy = `after reading ${SEARCH_LIMITS.maxBytesTotal / (1024 * 1024)} MiB`;
                break search;
              }
              contentFiles += 1;
              const found =
                content.path === entry
                  ? await findInFile(folder, dirent.name, needleLower, SEARCH_LIMITS.maxBytesPerFile)
                  : await withParent(content, (owner, name) =>
                      findInFile(owner, name, needleLower, SEARCH_LIMITS.maxBytesPerFile),
                    ).catch((): Found => ({ bytesRead: 0 }));
              bytesTotal += found.bytesRead;
              if (found.hardLinked) skippedHardLinks += 1;
              if (found.line === undefined) continue;
              record({ path: entry, kind, line: found.line, snippet: found.snippet ?? '' }, content.path);
            }
            if (results.length >= maxResults) {
              stoppedBy = `at ${maxResults} results`;
              break search;
            }
          }
        } finally {
          await folder.close();
        }
      }
    } finally {
      await top.close();
    }

    const result: { [key: string]: JsonValue } = { folder: base, matches: results };
    if (stoppedBy !== undefined) {
      result.note = `The search stopped ${stoppedBy}; there may be more. Search a smaller folder or a more specific name.`;
    }
    if (skippedLinks > 0) result.skippedLinks = skippedLinks;
    if (skippedHardLinks > 0) {
      result.skippedHardLinks = skippedHardLinks;
      result.hardLinkNote =
        `${skippedHardLinks} files with more than one name (hard links) were not searched inside: another of their ` +
        'names may lie outside the folders you granted.';
    }
    if (needleLower !== undefined) {
      result.contentNote = `Only the first ${SEARCH_LIMITS.maxBytesPerFile / (1024 * 1024)} MiB of each text file is searched.`;
    }
    return { result, ...(untrustedSource !== undefined ? { untrustedSource } : {}) };
  },
};

/** Case-insensitive: a glob when the pattern has * or ?, else a substring. */
export function nameMatcher(pattern: string): (name: string) => boolean {
  const lower = pattern.toLowerCase();
  if (/[*?]/.test(pattern)) {
    const glob = Array.from(lower);
    return (name) => globMatch(glob, Array.from(name.toLowerCase()));
  }
  return (name) => name.toLowerCase().includes(lower);
}

/** Wildcard match in O(pattern × name) time (a RegExp built from many `*` could backtrack for ages). */
function globMatch(pattern: readonly string[], name: readonly string[]): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let mark = 0;
  while (n < name.length) {
    const c = pattern[p];
    if (c !== undefined && (c === '?' || c === name[n])) {
      p += 1;
      n += 1;
    } else if (c === '*') {
      star = p;
      p += 1;
      mark = n;
    } else if (star !== -1) {
      p = star + 1;
      mark += 1;
      n = mark;
    } else {
      return false;
    }
  }
  while (pattern[p] === '*') p += 1;
  return p === pattern.length;
}

interface Found {
  bytesRead: number;
  line?: number;
  snippet?: string;
  /** Not read: a file with more than one name. */
  hardLinked?: boolean;
}

/** What a link inside the granted folders leads to: a folder, a regular file, or (anything else) undefined. */
async function kindAt(root: Anchor, target: string): Promise<'file' | 'folder' | undefined> {
  if (target === root.path) return 'folder';
  try {
    const stats = await withParent({ root, path: target }, (owner, name) => owner.lstat(name));
    if (stats?.isDirectory()) return 'folder';
    if (stats?.isFile()) return 'file';
  } catch {
    // Changed or unreadable: leave it out.
  }
  return undefined;
}

/** Looks for the text in the first `maxBytes` of the file `name`, opened once in its checked folder. */
async function findInFile(folder: ConfinedFolder, name: string, needleLower: string, maxBytes: number): Promise<Found> {
  let opened;
  try {
    opened = await folder.openFile(name);
  } catch {
    return { bytesRead: 0 }; // gone, not a regular file, or changed into a link: skip it
  }
  const { handle, stats } = opened;
  try {
    if (stats.nlink > 1n) return { bytesRead: 0, hardLinked: true };
    const want = Math.min(Number(stats.size), maxBytes);
    const buffer = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const { bytesRead } = await handle.read(buffer, got, want - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    const bytes = buffer.subarray(0, got);
    if (bytes.subarray(0, 8192).includes(0)) return { bytesRead: got }; // binary: not searched
    const text = new TextDecoder('utf-8').decode(bytes);
    const lower = text.toLowerCase();
    const at = lower.indexOf(needleLower);
    if (at < 0) return { bytesRead: got };
    // Lower-casing keeps line breaks, so the line index is the same in both texts.
    const lineIndex = lower.slice(0, at).split('\n').length - 1;
    const line = (text.split('\n')[lineIndex] ?? '').trim();
    const snippet = line.length > SNIPPET_CHARS ? `${line.slice(0, SNIPPET_CHARS)}…` : line;
    return { bytesRead: got, line: lineIndex + 1, snippet };
  } catch {
    return { bytesRead: 0 }; // unreadable now: search the rest
  } finally {
    await handle.close();
  }
}
