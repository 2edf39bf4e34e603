import type { JsonValue, BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { objectSchema, shownArg } from '../files/common.js';
import { matchScore } from './contactMatch.js';
import type { Contact, FileProblem } from './vcards.js';
import { readContactsFolder } from './vcards.js';
import { asCount, asObjects, asText, asTexts, plain, plural, quoted, series, summarizer } from '../summaryText.js';
import type { JsonObject } from '../summaryText.js';

export type ContactFindArgs = { query: string };

export const FIND_MAX_CONTACTS = 10;

/**
 * A contact as the model reads it: emails and phones as plain strings, and beside them, when the card gives any,
 * their types in the same order ("work", "cell", "pref"; an entry without one has []).
 */
export function contactView(c: Contact): JsonValue {
  const view: { [key: string]: JsonValue } = { name: c.name };
  if (c.nicknames.length > 0) view.nicknames = [...c.nicknames];
  if (c.emails.length > 0) {
    view.emails = c.emails.map((e) => e.value);
    if (c.emails.some((e) => e.types.length > 0)) view.emailTypes = c.emails.map((e) => [...e.types]);
  }
  if (c.phones.length > 0) {
    view.phones = c.phones.map((p) => p.value);
    if (c.phones.some((p) => p.types.length > 0)) view.phoneTypes = c.phones.map((p) => [...p.types]);
  }
  if (c.organization) view.organization = c.organization;
  if (c.title) view.title = c.title;
  view.file = c.file;
  return view;
}

/** Cards and files that could not be read, at most this many named in one answer. */
export const FIND_MAX_PROBLEMS = 20;

function problemView(p: FileProblem): JsonValue {
  return {
    file: p.file,
    ...(p.card !== undefined ? { card: p.card } : {}),
    ...(p.line !== undefined ? { line: p.line } : {}),
    problem: p.problem,
  };
}

export const contactFind: BuiltinToolDefinition<ContactFindArgs> = {
  name: 'contact_find',
  description:
    "Find people in the user's contacts (address book) by name, email or phone number; names may be misspelt.",
  parameters: objectSchema(
    {
      query: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description: 'A name, an email address or a phone number.',
      },
    },
    ['query'],
  ),
  risk: 'read',
  touches: 'contacts',
  forPeople: {
    title: 'Find a contact',
    text: 'Looks people up in your contacts by name, email address or phone number.',
  },
  // Address books are imported from elsewhere (a phone, a mail account): the cards are other people's words.
  untrustedOutput: { what: 'contact cards (vCards)', fields: ['contacts'] },
  describe(args) {
    return {
      title: 'Look up your contacts',
      summary: `Find contacts matching "${shownArg(args.query)}".`,
      details: [{ label: 'Search for', value: shownArg(args.query) }],
    };
  },
  summarize: summarizer<ContactFindArgs>((r, args) => {
    const contacts = asObjects(r.contacts);
    if (contacts === undefined) return null;
    const total = contacts.length + (asCount(r.more) ?? 0);
    const query = asText(args.query);
    if (total === 0) return query !== undefined ? `No contact matches ${quoted(query, 60)}.` : 'No contact matches.';
    const [only] = contacts;
    if (total === 1 && only !== undefined) {
      const name = contactName(only);
      const ways = contactWays(only);
      return `Found ${name}${ways !== '' ? ` (${ways})` : ''}.`;
    }
    return `Found ${plural(total, 'contact')}: ${series(contacts.map(contactName), total)}.`;
  }),
  async run(args, ctx): Promise<ToolOutcome> {
    const query = typeof args.query === 'string' ? args.query.trim() : '';
    if (query === '') throw new ToolError('INVALID_INPUT', 'Say whom to look for: a name, an email or a phone number.');
    const { contacts, problems } = await readContactsFolder(ctx.packs.contactsDir, ctx.signal);
    if (contacts.length === 0 && problems.length > 0) {
      throw new ToolError(
        'INVALID_INPUT',
        `No contacts file could be read: ${problems
          .slice(0, 5)
          .map((p) => p.problem)
          .join(' ')}`,
      );
    }
    const found = contacts
      .map((contact) => ({ contact, score: matchScore(contact, query) }))
      .filter((m) => m.score > 0)
      .sort((a, b) => b.score - a.score || a.contact.name.localeCompare(b.contact.name));
    return {
      result: {
        contacts: found.slice(0, FIND_MAX_CONTACTS).map((m) => contactView(m.contact)),
        ...(found.length > FIND_MAX_CONTACTS ? { more: found.length - FIND_MAX_CONTACTS } : {}),
        ...(problems.length > 0 ? { unreadable: problems.slice(0, FIND_MAX_PROBLEMS).map(problemView) } : {}),
        ...(problems.length > FIND_MAX_PROBLEMS ? { moreUnreadable: problems.length - FIND_MAX_PROBLEMS } : {}),
      },
    };
  },
};

/** A contact's name for a line ("someone with no name" when the card has none). */
export function contactName(view: JsonObject): string {
  const name = asText(view.name);
  return name !== undefined ? plain(name, 60) : 'someone with no name';
}

/** Their first email and phone number, as a card lists them: "ana@example.org, +351 912 345 678". */
export function contactWays(view: JsonObject): string {
  const [email] = asTexts(view.emails);
  const [phone] = asTexts(view.phones);
  return [email, phone]
    .filter((way): way is string => way !== undefined)
    .map((way) => plain(way, 60))
    .join(', ');
}
