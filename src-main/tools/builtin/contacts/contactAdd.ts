import { randomUUID } from 'node:crypto';
import type { BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { createPackFile, fileNameFor } from '../calendar/calendarWrites.js';
import { objectSchema, shownArg } from '../files/common.js';
import { openAddressBook, replaceAddressBook } from './addressBookFile.js';
import { contactName, contactView, contactWays } from './contactFind.js';
import { fold } from './contactMatch.js';
import { parseVcfBytes, readContactsFolder } from './vcards.js';
import type { NewCard } from './vcardWrite.js';
import { appendCard, serializeCard } from './vcardWrite.js';
import { asObject, asText, lastPart, summarizer } from '../summaryText.js';

export type ContactAddArgs = { name: string; email?: string; phone?: string; organization?: string; file?: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[\d\s().-]{3,40}$/;

export const contactAdd: BuiltinToolDefinition<ContactAddArgs> = {
  name: 'contact_add',
  description: 'Add a person to the contacts (address book) with an email and/or phone number.',
  parameters: objectSchema(
    {
      name: { type: 'string', minLength: 1, maxLength: 200, description: 'Full name, e.g. "Ana Souza".' },
      email: { type: 'string', minLength: 3, maxLength: 320, description: 'Email address (optional).' },
      phone: { type: 'string', minLength: 3, maxLength: 40, description: 'Phone number (optional).' },
      organization: { type: 'string', maxLength: 200, description: 'Company (optional).' },
      file: {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        description:
          'An address book already in the contacts folder to add the card to, e.g. "contacts.vcf" (optional; ' +
          'without it the contact gets a file of its own).',
      },
    },
    ['name'],
  ),
  risk: 'write',
  touches: 'contacts',
  forPeople: {
    title: 'Add a contact',
    text: 'Adds a person to your contacts, with their email address or phone number.',
  },
  provenance: { writes: [{ key: { field: 'added.file', prefix: 'contact:' } }] },
  describe(args) {
    const details = [{ label: 'Name', value: shownArg(args.name) }];
    if (args.email) details.push({ label: 'Email', value: shownArg(args.email) });
    if (args.phone) details.push({ label: 'Phone', value: shownArg(args.phone) });
    if (args.organization) details.push({ label: 'Company', value: shownArg(args.organization) });
    if (args.file) details.push({ label: 'Address book', value: shownArg(args.file) });
    const where = args.file ? ` (in ${shownArg(args.file)})` : '';
    return { title: 'Add a contact', summary: `Add ${shownArg(args.name)} to your contacts${where}.`, details };
  },
  summarize: summarizer<ContactAddArgs>((r, args) => {
    const added = asObject(r.added);
    if (added === undefined) return null;
    const ways = contactWays(added);
    const file = asText(added.file);
    const book = asText(args.file) !== undefined && file !== undefined ? ` (in ${lastPart(file)})` : '';
    return `Added ${contactName(added)} to your contacts${ways !== '' ? `: ${ways}` : ''}${book}.`;
  }),
  async run(args, ctx): Promise<ToolOutcome> {
    const name = typeof args.name === 'string' ? args.name.trim() : '';
    if (name === '') throw new ToolError('INVALID_INPUT', 'The contact needs a name.');
    const email = args.email?.trim();
    const phone = args.phone?.trim();
    const organization = args.organization?.trim();
    if (email && !EMAIL.test(email)) throw new ToolError('INVALID_INPUT', `"${email}" is not an email address.`);
    if (phone && !PHONE.test(phone)) throw new ToolError('INVALID_INPUT', `"${phone}" is not a phone number.`);

    // The same email twice is almost always the same person: say where it is rather than add a copy.
    if (email) {
      const { contacts } = await readContactsFolder(ctx.packs.contactsDir, ctx.signal);
      const same = contacts.find((c) => c.emails.some((e) => fold(e.value) === fold(email)));
      if (same) {
        throw new ToolError(
          'ALREADY_EXISTS',
          `${same.name} (${same.file}) already has the email ${email}; nothing was added.`,
        );
      }
    }

    const uid = randomUUID();
    const card: NewCard = {
      name,
      uid,
      ...(email ? { email } : {}),
      ...(phone ? { phone } : {}),
      ...(organization ? { organization } : {}),
    };

    if (args.file !== undefined) {
      // Into an address book the user has: in its own vCard version, appended, every other byte as it was.
      const book = await openAddressBook(ctx, args.file.trim());
      const appended = appendCard(book.bytes, parseVcfBytes(book.bytes, book.name), card, book.name);
      const undo = await replaceAddressBook(ctx, book, appended.bytes);
      return { result: { added: contactView(appended.added), version: appended.version }, undo };
    }

    const text = serializeCard(card, '4.0');
    const file = fileNameFor(name, uid, '.vcf');
    const undo = await createPackFile(ctx, ctx.packs.contactsDir, file, text);
    const [added] = parseVcfBytes(Buffer.from(text, 'utf8'), file).contacts;
    if (added === undefined) throw new Error('A card Homebody wrote did not read back.');
    return { result: { added: contactView(added) }, undo };
  },
};
