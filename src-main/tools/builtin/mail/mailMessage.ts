/** A message as the mail tools hand it to the model: a few header fields, and its text cut to a size. */
import type { AddressObject, ParsedMail } from 'mailparser';
import { parseMailDate, rawDateHeader } from './mailDate.js';

/** Characters of a message's text given to the model. */
export const MAX_TEXT_CHARS = 12_000;
const MAX_FIELD_CHARS = 300;

export type MailSummary = {
  readonly id: string;
  readonly from: string;
  readonly subject: string;
  /** ISO 8601 (UTC), or null: the message has no Date header, or one that names no moment (shown as unknown). */
  readonly date: string | null;
};

export type MailMessage = MailSummary & {
  readonly to: string;
  readonly cc: string;
  readonly messageId: string | null;
  references: string[];
  readonly text: string;
  /** The text was cut at MAX_TEXT_CHARS, or the message at the size read. */
  readonly truncated: boolean;
  attachments: string[];
};

/** Who the content came from, for the taint note ("mail from ana@example.org"). */
export function senderAddress(message: Pick<MailMessage, 'from'>): string {
  return /<([^<>]+)>/.exec(message.from)?.[1] ?? (message.from || 'an unknown sender');
}

function clip(text: string, max = MAX_FIELD_CHARS): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

export function addressText(value: AddressObject | AddressObject[] | undefined): string {
  if (!value) return '';
  return clip((Array.isArray(value) ? value : [value]).map((a) => a.text).join(', '));
}

/**
 * The date from the raw header, not mailparser's `date`: mailparser makes an unreadable Date the moment of parsing,
 * which would sort a broken message (often spam) first.
 */
export function summaryOf(id: string, parsed: Pick<ParsedMail, 'from' | 'subject' | 'headerLines'>): MailSummary {
  return {
    id,
    from: addressText(parsed.from),
    subject: clip(parsed.subject ?? ''),
    date: parseMailDate(rawDateHeader(parsed.headerLines)),
  };
}

/** Newest first; an unknown date sorts after every known one, in the order the source gave. */
export function byDateNewestFirst(a: Pick<MailSummary, 'date'>, b: Pick<MailSummary, 'date'>): number {
  if (a.date === b.date) return 0;
  if (a.date === null) return 1;
  if (b.date === null) return -1;
  return a.date < b.date ? 1 : -1;
}

export function references(parsed: Pick<ParsedMail, 'references'>): string[] {
  const refs = parsed.references;
  return refs === undefined ? [] : Array.isArray(refs) ? refs : [refs];
}

/** The message with a text: its HTML's when mailparser made none from it (an alternative without a plain part). */
export async function withText(parsed: ParsedMail): Promise<ParsedMail> {
  if ((parsed.text ?? '').trim() !== '' || typeof parsed.html !== 'string' || parsed.html.trim() === '') return parsed;
  const { htmlText } = await import('./htmlText.js');
  return Object.assign(parsed, { text: await htmlText(parsed.html) });
}

/** A parsed message as the model gets it. */
export function messageOf(id: string, parsed: ParsedMail, cut: boolean): MailMessage {
  const text = (parsed.text ?? '').trim();
  return {
    ...summaryOf(id, parsed),
    to: addressText(parsed.to),
    cc: addressText(parsed.cc),
    messageId: parsed.messageId ?? null,
    references: references(parsed).slice(-20),
    text: text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}…` : text,
    truncated: cut || text.length > MAX_TEXT_CHARS,
    attachments: parsed.attachments.slice(0, 50).map((a) => clip(a.filename ?? a.contentType, 120)),
  };
}
