import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { intArg, objectSchema, shownArg } from '../files/common.js';
import { listNotes } from './notesFolder.js';
import { asCount, asObjects, asText, plural, quoted, series, summarizer } from '../summaryText.js';

export type NoteSearchArgs = { query?: string; maxResults?: number };

const SNIPPET_CHARS = 160;
const DEFAULT_RESULTS = 20;

function snippetAround(text: string, word: string | undefined): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const at = word ? flat.toLowerCase().indexOf(word) : -1;
  const start = Math.max(0, at - SNIPPET_CHARS / 4);
  const piece = flat.slice(start, start + SNIPPET_CHARS);
  return `${start > 0 ? '…' : ''}${piece}${start + SNIPPET_CHARS < flat.length ? '…' : ''}`;
}

export const noteSearch: BuiltinToolDefinition<NoteSearchArgs> = {
  name: 'note_search',
  description:
    "Find the user's notes whose title or text contains all the given words (any case). Without words, lists the newest notes.",
  parameters: objectSchema(
    {
      query: { type: 'string', maxLength: 500, description: 'Words to look for, e.g. "dentist phone".' },
      maxResults: {
        type: 'integer',
        minimum: 1,
        maximum: 100,
        description: `At most this many (default ${DEFAULT_RESULTS}).`,
      },
    },
    [],
  ),
  risk: 'read',
  touches: 'notes',
  forPeople: {
    title: 'Search your notes',
    text: 'Finds your notes by words in their title or text, or lists the newest ones.',
  },
  provenance: { reads: [{ field: 'notes[].file', prefix: 'note:' }] },
  describe(args) {
    const query = typeof args.query === 'string' && args.query.trim() !== '' ? shownArg(args.query) : '';
    return {
      title: 'Search notes',
      summary: query ? `Look for notes containing "${query}".` : 'List the newest notes.',
      details: [{ label: 'Words', value: query || '(none: newest notes)' }],
    };
  },
  summarize: summarizer<NoteSearchArgs>((r, args) => {
    const notes = asObjects(r.notes);
    if (notes === undefined) return null;
    const total = asCount(r.found) ?? notes.length;
    const query = asText(args.query);
    const titles = notes.map((n) => asText(n.title)).filter((t): t is string => t !== undefined);
    const named = series(
      titles.map((t) => quoted(t, 40)),
      Math.max(total, titles.length),
    );
    if (query === undefined) {
      if (total === 0) return 'You have no notes yet.';
      if (total === 1) return `Your only note: ${named}.`;
      return `Your ${plural(total, 'note')}, the newest first: ${named}.`;
    }
    if (total === 0) return `No note contains ${quoted(query, 60)}.`;
    return `${plural(total, 'note')} ${total === 1 ? 'contains' : 'contain'} ${quoted(query, 40)}: ${named}.`;
  }),
  async run(args, ctx) {
    const words = (typeof args.query === 'string' ? args.query : '')
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w !== '');
    const max = intArg(args.maxResults, DEFAULT_RESULTS, 1, 100);
    const notes = await listNotes(ctx);
    const matches = notes.filter((n) => {
      const haystack = `${n.title}\n${n.text}`.toLowerCase();
      return words.every((w) => haystack.includes(w));
    });
    return {
      result: {
        found: matches.length,
        notes: matches.slice(0, max).map((n) => ({
          title: n.title,
          file: n.name,
          modified: n.modified.toISOString(),
          snippet: snippetAround(n.text, words[0]),
        })),
      },
    };
  },
};
