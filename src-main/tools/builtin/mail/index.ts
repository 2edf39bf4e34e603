import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { mailDraft } from './draft.js';
import { mailFolders } from './folders.js';
import { mailInbox } from './inbox.js';
import { mailRead } from './read.js';
import { mailSend } from './send.js';

/**
 * Mail: read the inbox (Maildir, mbox or IMAP, any IMAP folder), save drafts as .eml files, send over SMTP after
 * approval.
 */
export const MAIL_TOOLS: BuiltinToolDefinition[] = [mailInbox, mailFolders, mailRead, mailDraft, mailSend];
