import { objectSchema, shownArg } from '../files/common.js';
import type { BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { MAX_ID_CHARS, readMail } from './mailbox.js';
import { senderAddress } from './mailMessage.js';
import { summarizeRead } from './mailSummary.js';
import { summarizer } from '../summaryText.js';

export type MailReadArgs = { id: string };

export const mailRead: BuiltinToolDefinition<MailReadArgs> = {
  name: 'mail_read',
  description: 'Read one email received: its sender, recipients, subject, date and text. Give the id from mail_inbox.',
  parameters: objectSchema(
    { id: { type: 'string', minLength: 1, maxLength: MAX_ID_CHARS, description: 'The email id from mail_inbox.' } },
    ['id'],
  ),
  risk: 'read',
  touches: 'mail',
  forPeople: { title: 'Read an email', text: 'Reads one email you received.' },
  needsNetwork: true, // an IMAP source
  untrustedOutput: { what: 'mail', always: true, from: 'from' },
  describe(args) {
    return {
      title: 'Read an email',
      summary: `Read the email ${shownArg(args.id)}.`,
      details: [{ label: 'Email id', value: shownArg(args.id) }],
    };
  },
  summarize: summarizer<MailReadArgs>(summarizeRead),
  async run(args, ctx): Promise<ToolOutcome> {
    const message = await readMail(ctx, args.id);
    return { result: { ...message }, untrustedSource: `mail from ${senderAddress(message)}` };
  },
};
