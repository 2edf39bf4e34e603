import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import type { ToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { createPackFile, fileNameFor } from '../calendar/calendarWrites.js';
import { objectSchema, shownArg } from '../files/common.js';
import { contactView } from './contactFind.js';
import { fold } from './contactMatch.js';
import { contactFromCard, readContactsFolder } from './vcards.js';

export type ContactAddArgs = { name: string; email?: string; phone?: string; organization?: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[\d\s().-]{3,40}$/;

export const contactAdd: ToolDefinition<ContactAddArgs> = {
  name: 'contact_add',
  description: 'Add a person to the contacts (address book) with an email and/or phone number.',
  parameters: objectSchema(
    {
      name: { type: 'string', minLength: 1, maxLength: 200, description: 'Full name, e.g. "Ana Souza".' },
      email: { type: 'string', minLength: 3, maxLength: 320, description: 'Email address (optional).' },
      phone: { type: 'string', minLength: 3, maxLength: 40, description: 'Phone number (optional).' },
      organization: { type: 'string', maxLength: 200, description: 'Company (optional).' },
    },
    ['name'],
  ),
  risk: 'write',
  provenance: { writes: [{ key: { field: 'added.file', prefix: 'contact:' } }] },
  describe(args) {
    const details = [{ label: 'Name', value: shownArg(args.name) }];
    if (args.email) details.push({ label: 'Email', value: shownArg(args.email) });
    if (args.phone) details.push({ label: 'Phone', value: shownArg(args.phone) });
    if (args.organization) details.push({ label: 'Company', value: shownArg(args.organization) });
    return { title: 'Add a contact', summary: `Add ${shownArg(args.name)} to your contacts.`, details };
  },
  async run(args, ctx): Promise<ToolOutcome> {
    const name = typeof args.name === 'string' ? args.name.trim() : '';
    if (name === '') throw new ToolError('INVALID_INPUT', 'The contact needs a name.');
    const email = args.email?.trim();
    const phone = args.phone?.trim();
    if (email && !EMAIL.test(email)) throw new ToolError('INVALID_INPUT', `"${email}" is not an email address.`);
    if (phone && !PHONE.test(phone)) throw new ToolError('INVALID_INPUT', `"${phone}" is not a phone number.`);

    // The same email twice is almost always the same person: say where it is rather than add a copy.
    if (email) {
      const { contacts } = await readContactsFolder(ctx.packs.contactsDir, ctx.signal);
      const same = contacts.find((c) => c.emails.some((e) => fold(e) === fold(email)));
      if (same) {
        throw new ToolError(
          'ALREADY_EXISTS',
          `${same.name} (${same.file}) already has the email ${email}; nothing was added.`,
        );
      }
    }

    const uid = randomUUID();
    const card = new ICAL.Component('vcard');
    card.addPropertyWithValue('version', '4.0');
    card.addPropertyWithValue('prodid', '-//Homebody//Homebody Contacts 1.0//EN');
    card.addPropertyWithValue('uid', `urn:uuid:${uid}`);
    card.addPropertyWithValue('fn', name);
    const parts = name.split(/\s+/);
    const family = parts.length > 1 ? (parts.pop() as string) : '';
    card.addPropertyWithValue('n', [family, parts.join(' '), '', '', '']);
    if (email) card.addPropertyWithValue('email', email);
    if (phone) card.addPropertyWithValue('tel', phone);
    if (args.organization?.trim()) card.addPropertyWithValue('org', args.organization.trim());
    const text = card.toString().replace(/\r?\n/g, '\r\n') + '\r\n';

    const file = fileNameFor(name, uid, '.vcf');
    const undo = await createPackFile(ctx, ctx.packs.contactsDir, file, text);
    return { result: { added: contactView(contactFromCard(card, file)) }, undo };
  },
};
