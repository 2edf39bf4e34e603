import { constants } from 'node:fs';
import { assertOnlyName, withParent } from '../../sandbox/confinedFs.js';
import { resolveExisting, showPath } from '../../sandbox/pathGuard.js';
import type { BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { intArg, objectSchema, pathParam, shownArg } from './common.js';
import { formatBytes } from './fsHelpers.js';
import { asCount, asText, formatSize, lastPart, lineCount, plural, summarizer } from '../summaryText.js';

export type ReadTextArgs = { path: string; maxBytes?: number };

/**
 * Largest read. A file up to this size is read whole; a larger one is refused with TOO_LARGE
 * (giving its size) unless the call passes `maxBytes`, and then only its first `maxBytes` bytes
 * are read. Either way no more than READ_MAX_BYTES bytes are ever read from disk.
 */
export const READ_MAX_BYTES = 256 * 1024;
/** How much of the start is checked for NUL bytes (the usual "is it binary" test). */
const SNIFF_BYTES = 8192;

/**
 * For the packs that read their own files by path: O_NOFOLLOW refuses a link swapped in since the path was checked;
 * O_NONBLOCK keeps a named pipe from hanging the worker (it is then refused as not a regular file).
 */
export const READ_OPEN_FLAGS =
  constants.O_RDONLY | (process.platform === 'win32' ? 0 : constants.O_NOFOLLOW | constants.O_NONBLOCK);

export const readText: BuiltinToolDefinition<ReadTextArgs> = {
  name: 'read_text',
  description:
    `Read a text file (UTF-8) and return its content. Files up to ${READ_MAX_BYTES / 1024} KiB are read whole. ` +
    'For a larger file, pass maxBytes to read only its beginning. Binary files (images, PDFs, archives) cannot be read.',
  parameters: objectSchema(
    {
      path: pathParam('The file to read: a full path, or a path relative to the first granted folder.'),
      maxBytes: {
        type: 'integer',
        minimum: 1,
        maximum: READ_MAX_BYTES,
        description: `Read only the first this many bytes (at most ${READ_MAX_BYTES}). Needed for files larger than that.`,
      },
    },
    ['path'],
  ),
  risk: 'read',
  touches: 'files',
  forPeople: { title: 'Read a text file', text: 'Reads the text of a file in the folders you granted.' },
  pathArgs: { path: 'existing' },
  provenance: { reads: [{ field: 'path', prefix: 'file:' }] },
  describe(args) {
    const details = [{ label: 'File', value: shownArg(args.path) }];
    if (args.maxBytes !== undefined) details.push({ label: 'First bytes only', value: String(args.maxBytes) });
    return {
      title: 'Read a file',
      summary: `Read the text of ${shownArg(args.path)}.`,
      details,
    };
  },
  summarize: summarizer<ReadTextArgs>((r) => {
    const file = asText(r.path);
    const size = asCount(r.size);
    if (file === undefined || size === undefined || typeof r.content !== 'string') return null;
    const name = lastPart(file);
    const lines = lineCount(r.content);
    if (r.truncated === true) {
      const read = asCount(r.bytesRead) ?? Buffer.byteLength(r.content, 'utf8');
      return `Read the first ${formatSize(read)} of ${name} (${formatSize(size)} in all): ${plural(lines, 'line')}.`;
    }
    if (r.content === '') return `Read ${name}: it is empty.`;
    return `Read ${name}: ${plural(lines, 'line')}, ${formatSize(size)}.`;
  }),
  async run(args, ctx): Promise<ToolOutcome> {
    const explicit = args.maxBytes === undefined ? undefined : intArg(args.maxBytes, READ_MAX_BYTES, 1, READ_MAX_BYTES);
    const place = await resolveExisting(ctx.roots, args.path);
    const { root, path: file } = place;
    if (file === root.path) {
      throw new ToolError('NOT_A_FILE', `${showPath(args.path)} is a folder; use list_folder to see inside it.`);
    }
    // Opened once, relative to its checked folder, and checked to be that file before a byte is read (confinedFs).
    return withParent(place, async (folder, name) => {
      const { handle, stats } = await folder.openFile(name);
      try {
        assertOnlyName(stats, file, 'read');
        const size = Number(stats.size);
        if (explicit === undefined && size > READ_MAX_BYTES) {
          throw new ToolError(
            'TOO_LARGE',
            `${showPath(args.path)} is ${formatBytes(size)} (${size} bytes), more than the ${READ_MAX_BYTES / 1024} KiB ` +
              `that can be read at once. Pass maxBytes (up to ${READ_MAX_BYTES}) to read only its beginning.`,
          );
        }
        const want = Math.min(size, explicit ?? READ_MAX_BYTES);
        const buffer = Buffer.alloc(want);
        let got = 0;
        while (got < want) {
          ctx.signal.throwIfAborted();
          const { bytesRead } = await handle.read(buffer, got, want - got, got);
          if (bytesRead === 0) break; // the file shrank meanwhile
          got += bytesRead;
        }
        const bytes = buffer.subarray(0, got);
        if (bytes.subarray(0, SNIFF_BYTES).includes(0)) {
          throw new ToolError(
            'NOT_A_FILE',
            `${showPath(args.path)} looks like a binary file, not text; it was not read.`,
          );
        }
        const truncated = got < size;
        let text: string;
        try {
          // stream: true keeps a multi-byte character cut at the end of a partial read from counting as invalid.
          text = new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: truncated });
        } catch {
          throw new ToolError(
            'NOT_A_FILE',
            `${showPath(args.path)} is not UTF-8 text (it may be binary or use another encoding); it was not read.`,
          );
        }
        return {
          result: {
            path: file,
            size,
            ...(truncated ? { truncated: true, bytesRead: got } : {}),
            content: text,
          },
          ...(root.untrusted ? { untrustedSource: file } : {}),
        };
      } finally {
        await handle.close();
      }
    });
  },
};
