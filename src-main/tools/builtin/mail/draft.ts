import { objectSchema } from '../files/common.js';
import type { BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { composeMessage, fieldsFromArgs, messageProperties } from './compose.js';
import { describeMessage } from './describeMessage.js';
import { saveMessage } from './mailFolder.js';
import { replyTarget } from './mailbox.js';
import { summarizeDraft } from './mailSummary.js';
import { summarizer } from '../summaryText.js';

export type MailDraftArgs = Record<string, unknown>;

export const mailDraft: BuiltinToolDefinition<MailDraftArgs> = {
  name: 'mail_draft',
  description:
    'Write an email or a reply and save it as a draft; nothing is sent. ' +
    'To answer a message, set inReplyTo to its id from mail_inbox.',
  parameters: objectSchema(messageProperties(), ['to', 'subject', 'body']),
  risk: 'write',
  touches: 'mail',
  forPeople: {
    title: 'Write an email draft',
    text: 'Writes an email or a reply and saves it as a draft, without sending anything.',
  },
  needsNetwork: true, // a reply reads its original, from IMAP when that is the source
  provenance: { writes: [{ key: { field: 'path', prefix: 'file:' } }] },
  describe(args) {
    const fields = fieldsFromArgs(args);
    return describeMessage(fields, {
      title: 'Save an email draft',
      summary: `Save a draft to ${fields.to} in the mail folder; nothing is sent.`,
    });
  },
  summarize: summarizer<MailDraftArgs>(summarizeDraft),
  async run(args, ctx): Promise<ToolOutcome> {
    const fields = fieldsFromArgs(args);
    const reply = await replyTarget(ctx, fields.inReplyTo);
    const from = ctx.packs.smtp?.from;
    const { raw, messageId } = await composeMessage(
      { ...fields, ...(reply ? { inReplyTo: reply.inReplyTo, references: reply.references } : {}) },
      { draft: true, ...(from ? { from } : {}) },
    );
    const saved = await saveMessage(ctx, 'drafts', raw);
    return {
      result: {
        draftId: saved.id,
        path: saved.path,
        to: fields.to,
        ...(fields.cc ? { cc: fields.cc } : {}),
        subject: fields.subject,
        body: fields.body,
        messageId,
        ...(reply ? { inReplyTo: reply.inReplyTo } : {}),
        note: 'Saved as a draft, not sent. To send it, call mail_send with the same to, subject and body.',
      },
      undo: { kind: 'remove-created', path: saved.path },
    };
  },
};
