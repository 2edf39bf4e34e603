import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { objectSchema, shownArg } from '../files/common.js';
import { NOTE_LIMITS, findNote } from './notesFolder.js';
import { asText, plural, quoted, summarizer, wordCount } from '../summaryText.js';

export type NoteReadArgs = { title: string };

export const noteRead: BuiltinToolDefinition<NoteReadArgs> = {
  name: 'note_read',
  description: "Read one of the user's notes, by its title (as note_search shows it).",
  parameters: objectSchema(
    { title: { type: 'string', minLength: 1, maxLength: 300, description: "The note's title or file name." } },
    ['title'],
  ),
  risk: 'read',
  touches: 'notes',
  forPeople: { title: 'Read a note', text: 'Reads one of your notes.' },
  provenance: { reads: [{ field: 'file', prefix: 'note:' }] },
  describe(args) {
    return {
      title: 'Read a note',
      summary: `Read the note "${shownArg(args.title)}".`,
      details: [{ label: 'Note', value: shownArg(args.title) }],
    };
  },
  summarize: summarizer<NoteReadArgs>((r) => {
    const title = asText(r.title);
    if (title === undefined || typeof r.text !== 'string') return null;
    const words = wordCount(r.text);
    const cut = typeof r.truncated === 'string' ? ' (only its beginning: it is long)' : '';
    return `Read the note ${quoted(title)}: ${plural(words, 'word')}${cut}.`;
  }),
  async run(args, ctx) {
    const note = await findNote(ctx, args.title);
    if (!note) {
      throw new ToolError('NOT_FOUND', `There is no note titled "${args.title}". Use note_search to find its title.`);
    }
    const truncated = Buffer.byteLength(note.text, 'utf8') >= NOTE_LIMITS.maxBytes;
    return {
      result: {
        title: note.title,
        file: note.name,
        modified: note.modified.toISOString(),
        text: note.text,
        ...(truncated ? { truncated: `Only the first ${NOTE_LIMITS.maxBytes / 1024} KiB were read.` } : {}),
      },
    };
  },
};
