import path from 'node:path';
import { resolveForCreate } from '../../sandbox/pathGuard.js';
import type { BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { objectSchema, shownArg } from '../files/common.js';
import { lstatOrNull } from '../files/fsHelpers.js';
import { writePackFile } from '../packFileWrite.js';
import { NOTE_LIMITS, fileNameFor, findNote, notesRoots, readNoteText, titleOf } from './notesFolder.js';
import { asText, plural, quoted, summarizer } from '../summaryText.js';

export type NoteWriteArgs = { title: string; text: string };

const PREVIEW_CHARS = 300;
const MAX_TEXT = 100_000;

export const noteWrite: BuiltinToolDefinition<NoteWriteArgs> = {
  name: 'note_write',
  description:
    "Save text in the user's notes: creates a note with this title, or adds the text at the end of the note with this title.",
  parameters: objectSchema(
    {
      title: { type: 'string', minLength: 1, maxLength: 200, description: 'The note\'s title, e.g. "Shopping list".' },
      text: { type: 'string', minLength: 1, maxLength: MAX_TEXT, description: 'The text to write (Markdown).' },
    },
    ['title', 'text'],
  ),
  risk: 'write',
  touches: 'notes',
  forPeople: {
    title: 'Write a note',
    text: 'Saves text in your notes: as a new note, or at the end of one you already have.',
  },
  provenance: { writes: [{ key: { field: 'file', prefix: 'note:' } }] },
  describe(args) {
    const text = typeof args.text === 'string' ? args.text : '';
    return {
      title: 'Write a note',
      summary: `Add ${text.length} characters to the note "${shownArg(args.title)}" (created if it does not exist).`,
      details: [
        { label: 'Note', value: shownArg(args.title) },
        { label: 'Text', value: text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text },
      ],
    };
  },
  summarize: summarizer<NoteWriteArgs>((r, args) => {
    const title = asText(r.title);
    if (title === undefined) return null;
    if (r.created === true) return `Created the note ${quoted(title)}.`;
    if (r.appended !== true) return null;
    const added = typeof args.text === 'string' ? ` ${plural(args.text.trim().length, 'character')}` : '';
    return `Added${added} to the end of the note ${quoted(title)}.`;
  }),
  async run(args, ctx): Promise<ToolOutcome> {
    const found = await findNote(ctx, args.title);
    // A title with no note yet may still name a file that exists (a heading that differs): add to it, never replace.
    const { path: file } = await resolveForCreate(notesRoots(ctx), found?.path ?? fileNameFor(args.title));
    const name = path.relative(ctx.packs.notesDir, file).split(path.sep).join('/');
    const present = await lstatOrNull(file);
    if (present === undefined) {
      const undo = await writePackFile(ctx, file, `# ${args.title.trim()}\n\n${args.text.trim()}\n`);
      return { result: { title: args.title.trim(), file: name, created: true }, undo };
    }
    // Read again right before writing: the listing's copy may be cut at the read limit.
    const before = await readNoteText(file);
    if (Buffer.byteLength(before, 'utf8') >= NOTE_LIMITS.maxBytes) {
      throw new ToolError('TOO_LARGE', `The note "${args.title}" is too long to add to here; start a new note.`);
    }
    const undo = await writePackFile(ctx, file, `${before.replace(/\s*$/, '')}\n\n${args.text.trim()}\n`);
    return { result: { title: titleOf(name, before), file: name, appended: true }, undo };
  },
};
