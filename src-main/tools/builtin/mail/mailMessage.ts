/** A message as the mail tools hand it to the model: a few header fields, and its text cut to a size. */
import type { AddressObject, ParsedMail } from 'mailparser';

/** Characters of a message's text given to the model. */
export const MAX_TEXT_CHARS = 12_000;
const MAX_FIELD_CHARS = 300;

export type MailSummary = {
  readonly id: string;
  readonly from: string;
  readonly subject: string;
  /** ISO 8601, or null when the message has no readable Date header. */
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

function isoDate(date: Date | string | undefined): string | null {
  if (date === undefined) return null;
  const parsed = date instanceof Date ? date : new Date(date);
  return Number.isNaN(parsed.getTime()) ? null : parsed.toISOString();
}

export function summaryOf(id: string, parsed: Pick<ParsedMail, 'from' | 'subject' | 'date'>): MailSummary {
  return { id, from: addressText(parsed.from), subject: clip(parsed.subject ?? ''), date: isoDate(parsed.date) };
}

export function references(parsed: Pick<ParsedMail, 'references'>): string[] {
  const refs = parsed.references;
  return refs === undefined ? [] : Array.isArray(refs) ? refs : [refs];
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
