/** Reading the INBOX of an IMAP account (imapflow), after the egress guard allowed the connection. */
import type { ImapFlow, MessageAddressObject } from 'imapflow';
import type { ToolContext } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { MAX_MESSAGE_BYTES, MAX_SCAN } from './localMail.js';
import { messageOf, type MailMessage, type MailSummary } from './mailMessage.js';
import { loadMailparser } from './mailLibraries.js';

const TIMEOUT_MS = 15_000;

function addressList(list: MessageAddressObject[] | undefined): string {
  return (list ?? []).map((a) => (a.name ? `${a.name} <${a.address ?? ''}>` : (a.address ?? ''))).join(', ');
}

/** The server's own words when it refused (imapflow keeps them in responseText). */
function remoteError(err: unknown, host: string): ToolError {
  if (err instanceof ToolError) return err;
  const e = err as { responseText?: string; message?: string; authenticationFailed?: boolean };
  const said = e.responseText || e.message || String(err);
  const what = e.authenticationFailed ? 'refused the login' : 'failed';
  return new ToolError('REMOTE_ERROR', `The IMAP server ${host} ${what}: ${said}`);
}

/** Connects (egress first), opens the INBOX, runs `work`, and always logs out. */
async function withInbox<T>(ctx: ToolContext, work: (client: ImapFlow) => Promise<T>): Promise<T> {
  const imap = ctx.packs.imap;
  if (!imap) {
    throw new ToolError('NOT_CONFIGURED', 'Reading mail over IMAP needs the IMAP server settings (host, port, user).');
  }
  if (imap.password === null) {
    throw new ToolError('NOT_CONFIGURED', `No password is set for the IMAP account ${imap.user}@${imap.host}.`);
  }
  await ctx.services.egress(`${imap.secure ? 'imaps' : 'imap'}://${imap.host}:${imap.port}`, 'mail', 'read mail');
  const { ImapFlow } = await import('imapflow');
  const client = new ImapFlow({
    host: imap.host,
    port: imap.port,
    secure: imap.secure,
    auth: { user: imap.user, pass: imap.password },
    logger: false,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  // A dropped connection is reported through the awaited calls; the event must not crash the worker.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const lock = await client.getMailboxLock('INBOX');
    try {
      return await work(client);
    } finally {
      lock.release();
    }
  } catch (err) {
    throw remoteError(err, imap.host);
  } finally {
    await client.logout().catch(() => client.close());
  }
}

export function imapList(
  ctx: ToolContext,
  options: { limit: number; query?: string },
): Promise<{ messages: MailSummary[]; scanned: number }> {
  return withInbox(ctx, async (client) => {
    const query = options.query;
    const uids = query
      ? ((await client.search({ or: [{ from: query }, { subject: query }] }, { uid: true })) || []).slice(-MAX_SCAN)
      : undefined;
    const exists = client.mailbox ? client.mailbox.exists : 0;
    if (exists === 0 || (uids && uids.length === 0)) return { messages: [], scanned: 0 };
    const range = uids ? uids.slice(-options.limit).join(',') : `${Math.max(1, exists - options.limit + 1)}:*`;
    const messages: MailSummary[] = [];
    for await (const msg of client.fetch(range, { envelope: true, uid: true }, { uid: uids !== undefined })) {
      const env = msg.envelope;
      const date = env?.date ? new Date(env.date) : undefined;
      messages.push({
        id: `u${msg.uid}`,
        from: addressList(env?.from),
        subject: env?.subject ?? '',
        date: date && !Number.isNaN(date.getTime()) ? date.toISOString() : null,
      });
    }
    messages.sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''));
    return { messages: messages.slice(0, options.limit), scanned: messages.length };
  });
}

export function imapRead(ctx: ToolContext, id: string): Promise<MailMessage> {
  const uid = /^u(\d{1,10})$/.exec(id)?.[1];
  if (!uid) throw new ToolError('NOT_FOUND', `"${id}" is not an id from this IMAP inbox (they look like u123).`);
  return withInbox(ctx, async (client) => {
    const msg = await client.fetchOne(uid, { source: { maxLength: MAX_MESSAGE_BYTES }, size: true }, { uid: true });
    if (!msg || !msg.source) throw new ToolError('NOT_FOUND', `No message has the id "${id}" in the IMAP inbox.`);
    const parsed = await (await loadMailparser()).simpleParser(msg.source, { skipTextToHtml: true });
    return messageOf(id, parsed, (msg.size ?? 0) > MAX_MESSAGE_BYTES);
  });
}
