import { objectSchema } from '../files/common.js';
import type { PackConfig, BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { checkFields, composeMessage, fieldsFromArgs, messageProperties, parseAddresses } from './compose.js';
import { describeMessage } from './describeMessage.js';
import { saveMessage } from './mailFolder.js';
import { replyTarget } from './mailbox.js';
import { certificateError, tlsOptions } from './serverTls.js';
import { summarizeSent } from './mailSummary.js';
import { summarizer } from '../summaryText.js';

export type MailSendArgs = Record<string, unknown>;

const TIMEOUT_MS = 15_000;

/** The SMTP account, or what the user must set before mail can go out. */
function smtpAccount(packs: PackConfig): NonNullable<PackConfig['smtp']> {
  const smtp = packs.smtp;
  if (!smtp) {
    throw new ToolError(
      'NOT_CONFIGURED',
      'Sending mail needs an SMTP server. In the mail settings, set the server (host, port, TLS), the user, the password and the From address.',
    );
  }
  if (smtp.user !== '' && smtp.password === null) {
    throw new ToolError('NOT_CONFIGURED', `No password is set for the SMTP user ${smtp.user} on ${smtp.host}.`);
  }
  return smtp;
}

/** The server's own reply when it refused (nodemailer keeps it in `response`), else the connection's error. */
function remoteError(err: unknown, smtp: NonNullable<PackConfig['smtp']>): ToolError {
  const host = smtp.host;
  const certificate = certificateError(err, { kind: 'SMTP', host, pinned: smtp.pinned });
  if (certificate) return certificate;
  const e = err as { code?: string; response?: string; message?: string };
  const said = e.response || e.message || String(err);
  const what =
    e.code === 'EAUTH'
      ? 'refused the login'
      : e.code === 'EENVELOPE'
        ? 'refused the recipients'
        : e.code === 'EMESSAGE'
          ? 'refused the message'
          : 'could not be reached or failed';
  return new ToolError('REMOTE_ERROR', `The mail server ${host} ${what}; nothing was sent. The server said: ${said}`);
}

export const mailSend: BuiltinToolDefinition<MailSendArgs> = {
  name: 'mail_send',
  description:
    'Send an email now (waits for the user to approve it). Give the complete message: to, subject, body; ' +
    'to send a draft, repeat its fields.',
  parameters: objectSchema(messageProperties(), ['to', 'subject', 'body']),
  risk: 'irreversible',
  touches: 'mail',
  forPeople: {
    title: 'Send an email',
    text: 'Sends an email from your account, which cannot be taken back once it is sent.',
  },
  needsNetwork: true, // SMTP
  describe(args) {
    const fields = fieldsFromArgs(args);
    const cc = fields.cc ? ` (copy to ${fields.cc})` : '';
    return describeMessage(fields, {
      title: 'Send an email',
      summary: `Send this email to ${fields.to}${cc}. Once sent it cannot be taken back.`,
    });
  },
  summarize: summarizer<MailSendArgs>(summarizeSent),
  async run(args, ctx): Promise<ToolOutcome> {
    const fields = fieldsFromArgs(args);
    const recipients = checkFields(fields);
    const smtp = smtpAccount(ctx.packs);
    const sender = parseAddresses('the From address in the SMTP settings', smtp.from)[0];
    if (!sender) throw new ToolError('NOT_CONFIGURED', 'The SMTP settings have no From address.');
    const reply = await replyTarget(ctx, fields.inReplyTo);
    const { raw, messageId } = await composeMessage(
      { ...fields, ...(reply ? { inReplyTo: reply.inReplyTo, references: reply.references } : {}) },
      { from: smtp.from },
    );

    await ctx.services.egress(`${smtp.secure ? 'smtps' : 'smtp'}://${smtp.host}:${smtp.port}`, 'mail', 'send mail');
    const { createTransport } = await import('nodemailer');
    const transport = createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      tls: tlsOptions(smtp.pinned),
      ...(smtp.user !== '' ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    const abort = () => transport.close();
    ctx.signal.addEventListener('abort', abort, { once: true });
    let info: { accepted?: unknown[]; rejected?: unknown[]; response?: string };
    try {
      // The exact bytes composed above go out, so the copy kept in sent/ is the message the server received.
      info = (await transport.sendMail({
        envelope: { from: sender.address, to: [...recipients.to, ...recipients.cc] },
        raw,
      })) as typeof info;
    } catch (err) {
      throw remoteError(err, smtp);
    } finally {
      ctx.signal.removeEventListener('abort', abort);
      transport.close();
    }

    // The mail is gone: failing to keep a copy must not report the send as failed.
    let sentCopy: string | null = null;
    let copyProblem: string | null = null;
    try {
      sentCopy = (await saveMessage(ctx, 'sent', raw)).path;
    } catch (err) {
      copyProblem = err instanceof Error ? err.message : String(err);
    }
    const rejected = (info.rejected ?? []).map(String);
    return {
      result: {
        sent: true,
        messageId,
        to: fields.to,
        subject: fields.subject,
        accepted: (info.accepted ?? []).map(String),
        ...(rejected.length ? { rejected, note: `The server refused ${rejected.join(', ')}; the others got it.` } : {}),
        serverReply: info.response ?? '',
        ...(sentCopy ? { sentCopy } : { sentCopyError: copyProblem }),
      },
    };
  },
};
