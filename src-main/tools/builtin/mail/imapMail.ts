/**
 * Reading an IMAP account (imapflow), after the egress guard allowed the connection: its folders, and the messages
 * of one folder (INBOX unless another is named). A message's id is its folder, the folder's UIDVALIDITY and its UID
 * ("INBOX:1700000000:42"): the server keeps a UID for the message as long as UIDVALIDITY stays, so an id from before
 * the server renumbered the folder is an error, never another message. Headers go through mailparser as local mail
 * does, so a date, a sender or a subject reads the same from every source.
 */
import type { ImapFlow, ListResponse } from 'imapflow';
import type { ToolContext } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { MAX_MESSAGE_BYTES, MAX_SCAN } from './localMail.js';
import {
  byDateNewestFirst,
  messageOf,
  summaryOf,
  withText,
  type MailMessage,
  type MailSummary,
} from './mailMessage.js';
import { loadMailparser } from './mailLibraries.js';
import { certificateError, tlsOptions } from './serverTls.js';

const TIMEOUT_MS = 15_000;
export const DEFAULT_FOLDER = 'INBOX';

/** One folder of the account, as mail_folders lists it. */
export interface MailFolder {
  readonly folder: string;
  /** \Sent, \Drafts, \Trash, \Junk, \Archive, \All, \Flagged, or null. */
  readonly specialUse: string | null;
  readonly messages: number | null;
  readonly unseen: number | null;
}

/** The server's own words when it refused (imapflow keeps them in responseText). */
function remoteError(err: unknown, ctx: ToolContext): ToolError {
  if (err instanceof ToolError) return err;
  const imap = ctx.packs.imap!;
  const certificate = certificateError(err, { kind: 'IMAP', host: imap.host, pinned: imap.pinned });
  if (certificate) return certificate;
  const e = err as { responseText?: string; message?: string; authenticationFailed?: boolean };
  const said = e.responseText || e.message || String(err);
  const what = e.authenticationFailed ? 'refused the login' : 'failed';
  return new ToolError('REMOTE_ERROR', `The IMAP server ${imap.host} ${what}: ${said}`);
}

/** Connects (egress first), runs `work`, and always logs out. */
async function withAccount<T>(ctx: ToolContext, work: (client: ImapFlow) => Promise<T>): Promise<T> {
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
    tls: tlsOptions(imap.pinned),
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
    return await work(client);
  } catch (err) {
    throw remoteError(err, ctx);
  } finally {
    await client.logout().catch(() => client.close());
  }
}

function folderNames(folders: readonly ListResponse[]): string {
  const names = folders.map((f) => `"${f.path}"`);
  return names.length > 12 ? `${names.slice(0, 12).join(', ')} and ${names.length - 12} more` : names.join(', ');
}

/** Opens `folder` read-only; a folder the account does not have is NOT_FOUND, naming those it has. */
async function withFolder<T>(ctx: ToolContext, folder: string, work: (client: ImapFlow) => Promise<T>): Promise<T> {
  return withAccount(ctx, async (client) => {
    let lock: { release(): void };
    try {
      lock = await client.getMailboxLock(folder, { readOnly: true });
    } catch (err) {
      const folders = await client.list().catch(() => [] as ListResponse[]);
      if (!folders.some((f) => f.path === folder || (folder.toUpperCase() === 'INBOX' && f.specialUse === '\\Inbox'))) {
        const imap = ctx.packs.imap!;
        throw new ToolError(
          'NOT_FOUND',
          `The IMAP account ${imap.user}@${imap.host} has no folder "${folder}". Its folders: ${folderNames(folders)}. ` +
            'Use a name from mail_folders.',
        );
      }
      throw err;
    }
    try {
      return await work(client);
    } finally {
      lock.release();
    }
  });
}

function uidValidityOf(client: ImapFlow): string {
  return client.mailbox ? String(client.mailbox.uidValidity) : '0';
}

/** "INBOX:1700000000:42": the folder first, so the two numbers at the end can always be read back. */
export function imapId(folder: string, uidValidity: string, uid: number): string {
  return `${folder}:${uidValidity}:${uid}`;
}

export function parseImapId(id: string): { folder: string; uidValidity: string; uid: number } | undefined {
  const match = /^(.+):(\d{1,20}):(\d{1,10})$/s.exec(id);
  return match ? { folder: match[1]!, uidValidity: match[2]!, uid: Number(match[3]) } : undefined;
}

export function imapFolders(ctx: ToolContext): Promise<MailFolder[]> {
  return withAccount(ctx, async (client) => {
    const folders = await client.list({ statusQuery: { messages: true, unseen: true } });
    return folders
      .filter((f) => !f.flags.has('\\Noselect') && !f.flags.has('\\NonExistent'))
      .map((f) => ({
        folder: f.path,
        specialUse: f.specialUse ?? null,
        messages: f.status?.messages ?? null,
        unseen: f.status?.unseen ?? null,
      }));
  });
}

export function imapList(
  ctx: ToolContext,
  options: { limit: number; query?: string; folder?: string },
): Promise<{ messages: MailSummary[]; scanned: number; folder: string }> {
  const folder = options.folder ?? DEFAULT_FOLDER;
  return withFolder(ctx, folder, async (client) => {
    const query = options.query;
    const uids = query
      ? ((await client.search({ or: [{ from: query }, { subject: query }] }, { uid: true })) || []).slice(-MAX_SCAN)
      : undefined;
    const exists = client.mailbox ? client.mailbox.exists : 0;
    if (exists === 0 || (uids && uids.length === 0)) return { messages: [], scanned: 0, folder };
    const range = uids ? uids.slice(-options.limit).join(',') : `${Math.max(1, exists - options.limit + 1)}:*`;
    const uidValidity = uidValidityOf(client);
    const fetched: Array<{ uid: number; headers: Buffer }> = [];
    for await (const msg of client.fetch(range, { uid: true, headers: true }, { uid: uids !== undefined })) {
      fetched.push({ uid: msg.uid, headers: msg.headers ?? Buffer.alloc(0) });
    }
    const { simpleParser } = await loadMailparser();
    const messages: MailSummary[] = [];
    // Oldest first as fetched; newest first once sorted (unknown dates last, newest arrival first among them).
    for (const { uid, headers } of fetched.reverse()) {
      const id = imapId(folder, uidValidity, uid);
      try {
        messages.push(summaryOf(id, await simpleParser(headers, { skipHtmlToText: true, skipTextToHtml: true })));
      } catch {
        messages.push({ id, from: '', subject: '', date: null });
      }
    }
    messages.sort(byDateNewestFirst);
    return { messages: messages.slice(0, options.limit), scanned: messages.length, folder };
  });
}

export function imapRead(ctx: ToolContext, id: string): Promise<MailMessage> {
  const parsedId = parseImapId(id);
  if (!parsedId) {
    throw new ToolError(
      'NOT_FOUND',
      `"${id}" is not an id from this IMAP account (they look like INBOX:1700000000:42). Use an id from mail_inbox's list.`,
    );
  }
  const { folder, uidValidity, uid } = parsedId;
  return withFolder(ctx, folder, async (client) => {
    if (uidValidityOf(client) !== uidValidity) {
      throw new ToolError(
        'NOT_FOUND',
        `The id ${id} is out of date: the server renumbered the folder "${folder}" since it was listed ` +
          `(its UIDVALIDITY changed). List the mail again with mail_inbox and use the new id.`,
      );
    }
    const msg = await client.fetchOne(
      String(uid),
      { source: { maxLength: MAX_MESSAGE_BYTES }, size: true },
      { uid: true },
    );
    if (!msg || !msg.source) {
      throw new ToolError(
        'NOT_FOUND',
        `No message has the id "${id}" in the folder "${folder}" (it may have been deleted or moved). ` +
          "Use an id from mail_inbox's list.",
      );
    }
    const parsed = await withText(await (await loadMailparser()).simpleParser(msg.source, { skipTextToHtml: true }));
    return messageOf(id, parsed, (msg.size ?? 0) > MAX_MESSAGE_BYTES);
  });
}
