/**
 * The mail tools' lines for people (summarize()). Senders, subjects and folder names come from a server or from
 * whoever wrote the mail: subjects are quoted, and everything is put on one line and cut short.
 */
import type { JsonObject, LooseArgs } from '../summaryText.js';
import { asCount, asObjects, asText, asTexts, momentDate, plain, plural, quoted, series } from '../summaryText.js';

const ADDRESS = /[^\s<>,;:"'()[\]]+@[^\s<>,;:"'()[\]]+/g;

/** Who sent it, as people call them: the display name of "Ana Sousa <ana@example.org>", else the address. */
export function senderName(from: unknown): string {
  const text = asText(from);
  if (text === undefined) return 'an unknown sender';
  const named = /^\s*"?([^"<]*?)"?\s*<[^<>]+>\s*$/.exec(text)?.[1]?.trim();
  if (named) return plain(named, 50);
  return plain(/<([^<>]+)>/.exec(text)?.[1] ?? text, 60);
}

/** The addresses of a recipient list ("tom@example.com and 2 more"); the text itself when it holds none. */
export function recipientsText(to: readonly string[] | string): string {
  const addresses = typeof to === 'string' ? (to.match(ADDRESS) ?? []) : to.flatMap((t) => t.match(ADDRESS) ?? []);
  if (addresses.length === 0) return plain(typeof to === 'string' ? to : to.join(', '), 60);
  const unique = [...new Set(addresses)];
  return series(
    unique.map((a) => plain(a, 60)),
    unique.length,
    2,
  );
}

/** A subject in quotes, or "with no subject". */
function subjectText(subject: unknown): string | undefined {
  const text = asText(subject);
  return text !== undefined ? quoted(text, 60) : undefined;
}

export function summarizeInbox(r: JsonObject, args: LooseArgs<{ query?: string; folder?: string }>): string | null {
  const messages = asObjects(r.messages);
  if (messages === undefined) return null;
  const query = asText(args.query);
  const folder = asText(r.folder) ?? asText(args.folder);
  const about = query !== undefined ? ` from or about ${quoted(query, 40)}` : '';
  const where = folder !== undefined && folder.toUpperCase() !== 'INBOX' ? ` in ${plain(folder, 40)}` : '';
  const [newest] = messages;
  if (newest === undefined) return `No email${about}${where}.`;
  const subject = subjectText(newest.subject);
  const said = subject !== undefined ? `: ${subject}` : ', with no subject';
  if (messages.length === 1) return `One message${about}${where}, from ${senderName(newest.from)}${said}.`;
  return `${plural(messages.length, 'message')}${about}${where}, the newest from ${senderName(newest.from)}${said}.`;
}

export function summarizeFolders(r: JsonObject): string | null {
  const folders = asObjects(r.folders);
  if (folders === undefined) return null;
  const named = folders
    .map((f) => {
      const name = asText(f.folder);
      if (name === undefined) return undefined;
      const messages = asCount(f.messages);
      const unseen = asCount(f.unseen);
      const counts = [
        ...(messages !== undefined ? [plural(messages, 'message')] : []),
        ...(unseen !== undefined && unseen > 0 ? [`${unseen.toLocaleString('en-US')} unread`] : []),
      ];
      return `${plain(name, 40)}${counts.length > 0 ? ` (${counts.join(', ')})` : ''}`;
    })
    .filter((f): f is string => f !== undefined);
  if (named.length === 0) return 'No mail folders.';
  // A Maildir or mbox source is one folder (the tool then says so in a note).
  if (named.length === 1 && typeof r.note === 'string') return `Your mail is one folder, ${named[0]}.`;
  return `${plural(folders.length, 'mail folder')}: ${series(named, folders.length)}.`;
}

export function summarizeRead(r: JsonObject): string | null {
  if (typeof r.from !== 'string' || typeof r.subject !== 'string') return null;
  const subject = subjectText(r.subject) ?? 'with no subject';
  const date = momentDate(r.date);
  const attachments = asTexts(r.attachments).length;
  const extra = attachments > 0 ? `, with ${plural(attachments, 'attachment')}` : '';
  return `Mail from ${senderName(r.from)}, ${subject}${date !== undefined ? `, ${date}` : ''}${extra}.`;
}

export function summarizeDraft(r: JsonObject): string | null {
  const to = asText(r.to);
  if (to === undefined || (asText(r.draftId) === undefined && asText(r.path) === undefined)) return null;
  const subject = subjectText(r.subject);
  const cc = asText(r.cc);
  const copy = cc !== undefined ? ` (copy to ${recipientsText(cc)})` : '';
  const reply = asText(r.inReplyTo) !== undefined ? 'a reply' : 'a draft';
  return `Saved ${reply} to ${recipientsText(to)}${copy}${subject !== undefined ? `: ${subject}` : ', with no subject'}; nothing was sent.`;
}

export function summarizeSent(r: JsonObject): string | null {
  if (r.sent !== true) return null;
  const accepted = asTexts(r.accepted);
  const to = asText(r.to);
  if (accepted.length === 0 && to === undefined) return null;
  const subject = subjectText(r.subject) ?? 'an email with no subject';
  const rejected = asTexts(r.rejected);
  const refused = rejected.length > 0 ? ` The server refused ${recipientsText(rejected)}.` : '';
  const copy = 'sentCopyError' in r ? ' No copy could be kept in your sent mail.' : '';
  return `Sent ${subject} to ${recipientsText(accepted.length > 0 ? accepted : (to ?? ''))}.${refused}${copy}`;
}
