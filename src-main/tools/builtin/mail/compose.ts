/** Builds RFC 5322 messages from the mail tools' arguments, with nodemailer's MailComposer. */
import addressparser from 'nodemailer/lib/addressparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { JsonSchema } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';

// Not 2000: node-llama-cpp 3.21 fails to parse the grammar of a string of at most exactly 2000 characters.
export const MAX_ADDRESSES_CHARS = 1000;
export const MAX_SUBJECT_CHARS = 300;
export const MAX_BODY_CHARS = 20_000;
export const MAX_MESSAGE_ID_CHARS = 300;

/** What a message says, as the model (or the user, editing a queued call) gives it. */
export interface MailFields {
  readonly to: string;
  readonly cc?: string;
  readonly subject: string;
  readonly body: string;
  /** The Message-ID (angle brackets included) of the mail this answers. */
  readonly inReplyTo?: string;
  readonly references?: readonly string[];
}

/** The parameters mail_draft and mail_send share: the whole message, so the user sees exactly what goes out. */
export function messageProperties(): Record<string, JsonSchema> {
  return {
    to: {
      type: 'string',
      minLength: 3,
      maxLength: MAX_ADDRESSES_CHARS,
      description: 'Recipient email addresses, separated by commas, e.g. "Ana <ana@example.org>".',
    },
    cc: {
      type: 'string',
      maxLength: MAX_ADDRESSES_CHARS,
      description: 'Optional copy recipients, separated by commas.',
    },
    subject: { type: 'string', maxLength: MAX_SUBJECT_CHARS, description: 'The subject line.' },
    body: { type: 'string', maxLength: MAX_BODY_CHARS, description: 'The message text.' },
    inReplyTo: {
      type: 'string',
      maxLength: MAX_MESSAGE_ID_CHARS,
      description: 'Optional: the id (from mail_inbox) of the email this replies to.',
    },
  };
}

/** The mailboxes of an address list; refuses anything that is not a plain list of addresses. */
export function parseAddresses(field: string, value: string | undefined): Array<{ name: string; address: string }> {
  if (value === undefined || value.trim() === '') return [];
  if (/[\r\n]/.test(value)) throw new ToolError('INVALID_INPUT', `${field} must be on one line.`);
  const boxes = addressparser(value, { flatten: true });
  for (const box of boxes) {
    if (!/^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/.test(box.address)) {
      throw new ToolError(
        'INVALID_INPUT',
        `${field}: "${box.address || box.name}" is not an email address (like ana@example.org).`,
      );
    }
  }
  return boxes;
}

/** Checks a message's fields before anything is composed or sent; answers the recipients. */
export function checkFields(fields: MailFields): { to: string[]; cc: string[] } {
  const to = parseAddresses('to', fields.to).map((b) => b.address);
  const cc = parseAddresses('cc', fields.cc).map((b) => b.address);
  if (to.length === 0) throw new ToolError('INVALID_INPUT', 'to must name at least one email address.');
  if (/[\r\n]/.test(fields.subject)) throw new ToolError('INVALID_INPUT', 'The subject must be on one line.');
  if (fields.inReplyTo !== undefined && !/^<[^\s<>]+>$/.test(fields.inReplyTo))
    throw new ToolError('INVALID_INPUT', `"${fields.inReplyTo}" is not a Message-ID like <abc@example.org>.`);
  return { to, cc };
}

/** The message as bytes, with its Message-ID; `from` is absent for a draft when no SMTP account is set up. */
export async function composeMessage(
  fields: MailFields,
  options: { from?: string; draft?: boolean } = {},
): Promise<{ raw: Buffer; messageId: string }> {
  checkFields(fields);
  const composer = new MailComposer({
    ...(options.from ? { from: options.from } : {}),
    to: fields.to,
    ...(fields.cc?.trim() ? { cc: fields.cc } : {}),
    subject: fields.subject,
    // RFC 5322 lines end in CRLF; the server would get them so anyway, and the saved copy must be the same bytes.
    text: fields.body.replace(/\r\n|\r|\n/g, '\r\n'),
    ...(fields.inReplyTo ? { inReplyTo: fields.inReplyTo } : {}),
    ...(fields.inReplyTo ? { references: [...(fields.references ?? []), fields.inReplyTo] } : {}),
    // Mail clients (Thunderbird, Outlook) open a file marked so as a draft to edit and send.
    ...(options.draft ? { headers: { 'X-Unsent': '1' } } : {}),
    // The tools never attach files or fetch URLs: nothing outside the message can leak into it.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const node = composer.compile();
  const raw = await node.build();
  return { raw, messageId: node.messageId() };
}

/** The message fields read back from validated arguments (the schema has checked types and sizes). */
export function fieldsFromArgs(args: Record<string, unknown>): MailFields {
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const optional = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const cc = optional(args.cc);
  const inReplyTo = optional(args.inReplyTo);
  return {
    to: text(args.to),
    ...(cc !== undefined ? { cc } : {}),
    subject: text(args.subject),
    body: text(args.body),
    ...(inReplyTo !== undefined ? { inReplyTo } : {}),
  };
}
