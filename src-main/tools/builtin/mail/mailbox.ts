/**
 * The user's incoming mail, wherever the settings say it is: a Maildir, an mbox file, or an IMAP account. Answers
 * short summaries for a listing and one message's text, both cut to sizes a small model can take.
 */
import type { ParsedMail } from 'mailparser';
import type { ToolContext } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { imapList, imapRead } from './imapMail.js';
import { loadMailparser } from './mailLibraries.js';
import { maildirMessages, mboxMessages, shortId, type RawMessage } from './localMail.js';
import { messageOf, summaryOf, type MailMessage, type MailSummary } from './mailMessage.js';

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
  if (source.kind === 'mbox') return mboxMessages(source.path);
  throw notConfigured();
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

const idOf = (raw: RawMessage, parsed: ParsedMail) => shortId(parsed.messageId ?? raw.key);

function matches(summary: MailSummary, query: string | undefined): boolean {
  if (!query) return true;
  const q = query.toLowerCase();
  return summary.from.toLowerCase().includes(q) || summary.subject.toLowerCase().includes(q);
}

/** The newest messages (optionally only those whose sender or subject contains `query`), newest first. */
export async function listMail(
  ctx: ToolContext,
  options: { limit: number; query?: string },
): Promise<{ messages: MailSummary[]; scanned: number }> {
  const source = ctx.packs.mailSource;
  if (source.kind === 'none') throw notConfigured();
  if (source.kind === 'imap') return imapList(ctx, options);
  const raws = await localMessages(ctx);
  const found: MailSummary[] = [];
  let scanned = 0;
  for (const raw of raws) {
    if (ctx.signal.aborted) break;
    scanned++;
    const parsed = await parseHeaders(raw);
    if (!parsed) continue;
    const summary = summaryOf(idOf(raw, parsed), parsed);
    if (matches(summary, options.query)) found.push(summary);
    if (found.length >= options.limit) break;
  }
  found.sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''));
  return { messages: found, scanned };
}

/** One message by the id a listing gave; NOT_FOUND when no message has it. */
export async function readMail(ctx: ToolContext, id: string): Promise<MailMessage> {
  const source = ctx.packs.mailSource;
  if (source.kind === 'none') throw notConfigured();
  if (source.kind === 'imap') return imapRead(ctx, id);
  for (const raw of await localMessages(ctx)) {
    if (ctx.signal.aborted) break;
    const headers = await parseHeaders(raw);
    if (!headers || idOf(raw, headers) !== id) continue;
    const { bytes, truncated } = await raw.read('all');
    let parsed: ParsedMail;
    try {
      parsed = await (await loadMailparser()).simpleParser(bytes, { skipTextToHtml: true });
    } catch (err) {
      throw new ToolError('INVALID_INPUT', `The message ${id} could not be read: ${(err as Error).message}`);
    }
    return messageOf(id, parsed, truncated);
  }
  throw new ToolError(
    'NOT_FOUND',
    `No message has the id "${id}" in ${sourceLabel(ctx)}. Use an id from mail_inbox's list.`,
  );
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
