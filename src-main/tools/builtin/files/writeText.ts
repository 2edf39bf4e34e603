import { withParent } from '../../sandbox/confinedFs.js';
import { fsError, resolveForCreate, showPath } from '../../sandbox/pathGuard.js';
import type { BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { boolArg, objectSchema, pathParam, shownArg } from './common.js';
import { discardTrashSlot, errnoCode, formatBytes, keepOldVersion } from './fsHelpers.js';
import { asCount, asText, formatSize, shownPath, summarizer } from '../summaryText.js';

export type WriteTextArgs = { path: string; content: string; overwrite: boolean };

/** Largest text written in one call (characters). */
export const WRITE_MAX_CHARS = 1024 * 1024;
const PREVIEW_CHARS = 300;

export const writeText: BuiltinToolDefinition<WriteTextArgs> = {
  name: 'write_text',
  description:
    'Create a text file, or replace the whole content of an existing one. The folder must already exist. ' +
    'Set overwrite to false to create a new file (it fails if the file exists). ' +
    'Set overwrite to true only to replace an existing file on purpose; the old version is kept so it can be undone.',
  parameters: objectSchema(
    {
      path: pathParam('The file to write: a full path, or a path relative to the first granted folder.'),
      content: {
        type: 'string',
        maxLength: WRITE_MAX_CHARS,
        description: 'The complete text to put in the file (UTF-8).',
      },
      overwrite: {
        type: 'boolean',
        description: 'true: replace the file if it exists. false: only create a new file.',
      },
    },
    ['path', 'content', 'overwrite'],
  ),
  risk: 'write',
  touches: 'files',
  forPeople: {
    title: 'Write a text file',
    text: 'Creates a text file or replaces its text; a replaced file can be brought back with Undo.',
  },
  pathArgs: { path: 'create' },
  provenance: { writes: [{ key: { field: 'path', prefix: 'file:' } }] },
  describe(args) {
    const content = typeof args.content === 'string' ? args.content : '';
    const preview = content.length > PREVIEW_CHARS ? `${content.slice(0, PREVIEW_CHARS)}…` : content;
    const replacing = args.overwrite === true;
    return {
      title: replacing ? 'Write a file (may replace it)' : 'Create a file',
      summary: replacing
        ? `Write ${content.length} characters to ${shownArg(args.path)}, replacing it if it exists (the old version is kept for undo).`
        : `Create the new file ${shownArg(args.path)} with ${content.length} characters.`,
      details: [
        { label: 'File', value: shownArg(args.path) },
        { label: 'Replace if it exists', value: replacing ? 'yes' : 'no' },
        { label: 'Size', value: formatBytes(Buffer.byteLength(content, 'utf8')) },
        { label: 'Content', value: preview },
      ],
    };
  },
  summarize: summarizer<WriteTextArgs>((r) => {
    const file = asText(r.path);
    const bytes = asCount(r.bytes);
    if (file === undefined || bytes === undefined) return null;
    const what = `${shownPath(file)} (${formatSize(bytes)})`;
    if (r.created === true) return `Created ${what}.`;
    return r.replaced === true ? `Replaced ${what}; Undo brings back the old version.` : null;
  }),
  async run(args, ctx): Promise<ToolOutcome> {
    if (typeof args.content !== 'string') throw new ToolError('INVALID_PATH', 'content must be text.');
    if (args.content.length > WRITE_MAX_CHARS) {
      throw new ToolError('TOO_LARGE', `The content is longer than ${WRITE_MAX_CHARS} characters.`);
    }
    const overwrite = boolArg(args.overwrite);
    const content = args.content;
    const place = await resolveForCreate(ctx.roots, args.path);
    const file = place.path;
    // Everything below names the file relative to its open, checked folder (confinedFs): nothing is followed.
    return withParent(place, async (folder, name): Promise<ToolOutcome> => {
      const existing = await folder.lstat(name);
      if (existing === undefined) {
        try {
          await folder.writeNewFile(name, content);
        } catch (err) {
          if (errnoCode(err) === 'EEXIST') {
            throw new ToolError('ALREADY_EXISTS', `${showPath(args.path)} was created by something else just now.`);
          }
          throw fsError(err, args.path);
        }
        return {
          result: { path: file, created: true, bytes: Buffer.byteLength(content, 'utf8') },
          undo: { kind: 'remove-created', path: file },
        };
      }

      if (existing.isDirectory()) {
        throw new ToolError('NOT_A_FILE', `${showPath(args.path)} is a folder; give a file name inside it.`);
      }
      if (existing.isSymbolicLink()) {
        throw new ToolError(
          'INVALID_PATH',
          `${showPath(args.path)} is a link; Homebody does not write through links. Remove or rename the link first.`,
        );
      }
      if (!existing.isFile()) throw new ToolError('NOT_A_FILE', `${showPath(args.path)} is not a regular file.`);
      if (!overwrite) {
        throw new ToolError(
          'ALREADY_EXISTS',
          `${showPath(args.path)} already exists and was not changed. To replace it, call write_text again with overwrite true; ` +
            'to keep it, choose another file name.',
        );
      }

      // Keep the old version first; only then replace the file in one rename (another hard link keeps its content).
      let backup: string;
      try {
        backup = await keepOldVersion(ctx, folder, name, existing);
      } catch (err) {
        throw fsError(err, args.path);
      }
      try {
        await folder.replaceFile(name, content, Number(existing.mode & 0o7777n));
      } catch (err) {
        await discardTrashSlot(ctx, backup).catch(() => undefined);
        throw fsError(err, args.path);
      }
      return {
        result: { path: file, replaced: true, bytes: Buffer.byteLength(content, 'utf8') },
        undo: { kind: 'restore-file', path: file, backup },
      };
    });
  },
};
