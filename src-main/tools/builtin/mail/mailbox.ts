/**
 * The user's incoming mail, wherever the settings say it is: a Maildir, an mbox file, or an IMAP account. Answers
 * short summaries for a listing and one message's text, both cut to sizes a small model can take.
 */
import type { ParsedMail } from 'mailparser';
import type { ToolContext } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { DEFAULT_FOLDER, imapFolders, imapList, imapRead, type MailFolder } from './imapMail.js';
import { loadMailparser } from './mailLibraries.js';
import { maildirMessageById, maildirMessages, mboxMessageById, mboxMessages, type RawMessage } from './localMail.js';
import {
  byDateNewestFirst,
  messageOf,
  summaryOf,
  withText,
  type MailMessage,
  type MailSummary,
} from './mailMessage.js';

/** The longest folder name a tool takes (IMAP names are rarely longer than a hundred characters). */
export const MAX_FOLDER_CHARS = 200;
/** The longest message id: a Maildir file's unique name, or an IMAP folder with two numbers. */
export const MAX_ID_CHARS = 260;

/** What the settings name as the source, in words for messages and the taint note. */
export function sourceLabel(ctx: ToolContext): string {
  const source = ctx.packs.mailSource;
  switch (source.kind) {
    case 'none':
      return 'no mail source';
    case 'maildir':
      return `the Maildir ${source.path}`;
    case 'mbox':
      return `the mbox file ${source.path}`;
    case 'imap':
      return ctx.packs.imap ? `the IMAP account ${ctx.packs.imap.user}@${ctx.packs.imap.host}` : 'IMAP';
    default:
      return source satisfies never;
  }
}

function notConfigured(): ToolError {
  return new ToolError(
    'NOT_CONFIGURED',
    'No mail source is set up. In the mail settings, choose a Maildir folder, an mbox file, or an IMAP account to read mail from.',
  );
}

async function localMessages(ctx: ToolContext): Promise<RawMessage[]> {
  const source = ctx.packs.mailSource;
  if (source.kind === 'maildir') return maildirMessages(source.path);
  if (source.kind === 'mbox') return mboxMessages(source.path, ctx.signal);
  throw notConfigured();
}

async function localMessageById(ctx: ToolContext, id: string): Promise<RawMessage> {
  const source = ctx.packs.mailSource;
  if (source.kind === 'maildir') return maildirMessageById(source.path, id);
  if (source.kind === 'mbox') return mboxMessageById(source.path, id, ctx.signal);
  throw notConfigured();
}

/** A folder other than the inbox names an IMAP folder; a Maildir or mbox source is one folder. */
function checkLocalFolder(ctx: ToolContext, folder: string | undefined): void {
  if (folder === undefined || folder.toUpperCase() === 'INBOX') return;
  throw new ToolError(
    'INVALID_INPUT',
    `${sourceLabel(ctx)} is one folder; folders (like "${folder}") are for an IMAP account. Leave folder out.`,
  );
}

async function parseHeaders(raw: RawMessage): Promise<ParsedMail | undefined> {
  try {
    return await (
      await loadMailparser()
    ).simpleParser((await raw.read('headers')).bytes, { skipHtmlToText: true, skipTextToHtml: true });
  } catch {
    // One unreadable message must not hide the others.
    return undefined;
  }
}

function matches(summary: MailSummary, query: string | undefined): boolean {
  if (!query) return true;
  const q = query.toLowerCase();
  return summary.from.toLowerCase().includes(q) || summary.subject.toLowerCase().includes(q);
}

/**
 * The newest messages (optionally only those whose sender or subject contains `query`), newest first by their Date;
 * those whose date is unknown come last.
 */
export async function listMail(
  ctx: ToolContext,
  options: { limit: number; query?: string; folder?: string },
): Promise<{ messages: MailSummary[]; scanned: number; folder?: string }> {
  const source = ctx.packs.mailSource;
  if (source.kind === 'none') throw notConfigured();
  if (source.kind === 'imap') return imapList(ctx, options);
  checkLocalFolder(ctx, options.folder);
  const raws = await localMessages(ctx);
  const found: MailSummary[] = [];
  let scanned = 0;
  for (const raw of raws) {
    if (ctx.signal.aborted) break;
    scanned++;
    const parsed = await parseHeaders(raw);
    if (!parsed) continue;
    const summary = summaryOf('', parsed);
    if (!matches(summary, options.query)) continue;
    found.push({ ...summary, id: await raw.id() });
    if (found.length >= options.limit) break;
  }
  found.sort(byDateNewestFirst);
  return { messages: found, scanned };
}

/** One message by the id a listing gave; NOT_FOUND when no message has it. */
export async function readMail(ctx: ToolContext, id: string): Promise<MailMessage> {
  const source = ctx.packs.mailSource;
  if (source.kind === 'none') throw notConfigured();
  if (source.kind === 'imap') return imapRead(ctx, id);
  const raw = await localMessageById(ctx, id);
  const { bytes, truncated } = await raw.read('all');
  let parsed: ParsedMail;
  try {
    parsed = await withText(await (await loadMailparser()).simpleParser(bytes, { skipTextToHtml: true }));
  } catch (err) {
    throw new ToolError('INVALID_INPUT', `The message ${id} could not be read: ${(err as Error).message}`);
  }
  // A message found again after the mbox changed answers the id it has now.
  return messageOf(await raw.id(), parsed, truncated);
}

/** The folders mail can be listed from: an IMAP account's, or the one folder a Maildir or mbox source is. */
export async function listFolders(ctx: ToolContext): Promise<MailFolder[]> {
  const source = ctx.packs.mailSource;
  switch (source.kind) {
    case 'none':
      throw notConfigured();
    case 'imap':
      return imapFolders(ctx);
    case 'maildir':
    case 'mbox':
      return [{ folder: DEFAULT_FOLDER, specialUse: '\\Inbox', messages: null, unseen: null }];
    default:
      return source satisfies never;
  }
}

/**
 * What a reply points at: a Message-ID given as is (<abc@example.org>), or the id of a message in the mail source,
 * whose Message-ID and References thread the reply in the recipient's mail program.
 */
export async function replyTarget(
  ctx: ToolContext,
  inReplyTo: string | undefined,
): Promise<{ inReplyTo: string; references: string[] } | undefined> {
  if (inReplyTo === undefined) return undefined;
  if (/^<[^\s<>]+>$/.test(inReplyTo)) return { inReplyTo, references: [] };
  const original = await readMail(ctx, inReplyTo);
  if (!original.messageId) {
    throw new ToolError('INVALID_INPUT', `The message ${inReplyTo} has no Message-ID, so a reply cannot point at it.`);
  }
  return { inReplyTo: original.messageId, references: [...original.references] };
}
