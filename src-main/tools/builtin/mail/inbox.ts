import { intArg, objectSchema, optionalString } from '../files/common.js';
import type { BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { listMail, MAX_FOLDER_CHARS, sourceLabel } from './mailbox.js';
import { senderAddress, type MailSummary } from './mailMessage.js';
import { summarizeInbox } from './mailSummary.js';
import { summarizer } from '../summaryText.js';

export type MailInboxArgs = { limit?: number; query?: string; folder?: string };

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;

export const mailInbox: BuiltinToolDefinition<MailInboxArgs> = {
  name: 'mail_inbox',
  description:
    'List recent emails received, newest first (id, from, subject, date; date null when unknown), e.g. to find one ' +
    'to read or reply to. Optionally only those whose sender or subject contains query, or those of another ' +
    'folder (IMAP; see mail_folders).',
  parameters: objectSchema(
    {
      limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `How many (default ${DEFAULT_LIMIT}).` },
      query: { type: 'string', maxLength: 200, description: 'Optional: a word of the sender or subject.' },
      folder: {
        type: 'string',
        maxLength: MAX_FOLDER_CHARS,
        description: 'Optional: the IMAP folder to list, as mail_folders names it (default INBOX).',
      },
    },
    [],
  ),
  risk: 'read',
  touches: 'mail',
  forPeople: {
    title: 'List your email',
    text: 'Lists the newest email you received, in your inbox or another mail folder.',
  },
  needsNetwork: true, // an IMAP source
  untrustedOutput: { what: 'email list', always: true, from: 'messages[].from' },
  describe(args) {
    const query = optionalString(args.query);
    const folder = optionalString(args.folder);
    const where = folder ? ` in the folder "${folder}"` : '';
    return {
      title: 'List recent emails',
      summary: query ? `List recent emails from or about "${query}"${where}.` : `List your recent emails${where}.`,
      details: [
        { label: 'How many', value: String(intArg(args.limit, DEFAULT_LIMIT, 1, MAX_LIMIT)) },
        ...(query ? [{ label: 'Matching', value: query }] : []),
        ...(folder ? [{ label: 'Folder', value: folder }] : []),
      ],
    };
  },
  summarize: summarizer<MailInboxArgs>(summarizeInbox),
  async run(args, ctx): Promise<ToolOutcome> {
    const query = optionalString(args.query);
    const folder = optionalString(args.folder);
    const listed = await listMail(ctx, {
      limit: intArg(args.limit, DEFAULT_LIMIT, 1, MAX_LIMIT),
      ...(query ? { query } : {}),
      ...(folder ? { folder } : {}),
    });
    const { messages } = listed;
    return {
      result: {
        ...(listed.folder !== undefined ? { folder: listed.folder } : {}),
        messages,
        ...(messages.length === 0 ? { note: 'No matching email.' } : {}),
      },
      // Senders and subjects are written by whoever sent the mail: the prompt names who.
      untrustedSource: `email list from ${sourceLabel(ctx)}${sendersNote(messages)}`,
    };
  },
};

const NAMED_SENDERS = 3;

/** " (from eve@example.com, ana@example.org and 2 more)": who wrote what the listing showed. */
export function sendersNote(messages: readonly Pick<MailSummary, 'from'>[]): string {
  const senders = [...new Set(messages.map((m) => senderAddress(m)))];
  if (senders.length === 0) return '';
  const named = senders.slice(0, NAMED_SENDERS).join(', ');
  const more = senders.length - NAMED_SENDERS;
  return ` (from ${named}${more > 0 ? ` and ${more} more` : ''})`;
}
