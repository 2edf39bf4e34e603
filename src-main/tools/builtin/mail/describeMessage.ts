import type { ToolDescription } from '../../toolTypes.js';
import type { MailFields } from './compose.js';

/** The permission prompt and the approval queue show every field of the message exactly, body included. */
export function describeMessage(fields: MailFields, words: { title: string; summary: string }): ToolDescription {
  return {
    title: words.title,
    summary: words.summary,
    details: [
      { label: 'To', value: fields.to },
      ...(fields.cc ? [{ label: 'Cc', value: fields.cc }] : []),
      { label: 'Subject', value: fields.subject },
      { label: 'Body', value: fields.body },
      ...(fields.inReplyTo ? [{ label: 'In reply to', value: fields.inReplyTo }] : []),
    ],
  };
}
