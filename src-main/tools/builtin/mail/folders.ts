import { objectSchema } from '../files/common.js';
import type { BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { listFolders, sourceLabel } from './mailbox.js';
import { summarizeFolders } from './mailSummary.js';
import { summarizer } from '../summaryText.js';

export type MailFoldersArgs = Record<string, never>;

export const mailFolders: BuiltinToolDefinition<MailFoldersArgs> = {
  name: 'mail_folders',
  description:
    'List the mail folders (IMAP: INBOX, Sent, Archive and the others, with how many messages each holds), ' +
    'to list one of them with mail_inbox.',
  parameters: objectSchema({}, []),
  risk: 'read',
  touches: 'mail',
  forPeople: { title: 'List mail folders', text: 'Lists your mail folders and how many messages each one holds.' },
  needsNetwork: true, // an IMAP source
  // Folder names are the user's own or the server's, never a sender's: nothing here is someone else's text.
  describe() {
    return { title: 'List mail folders', summary: 'List your mail folders.', details: [] };
  },
  summarize: summarizer<MailFoldersArgs>(summarizeFolders),
  async run(_args, ctx): Promise<ToolOutcome> {
    const folders = await listFolders(ctx);
    return {
      result: {
        folders: folders.map((f) => ({ ...f })),
        ...(ctx.packs.mailSource.kind === 'imap'
          ? {}
          : { note: `${sourceLabel(ctx)} is one folder: list it with mail_inbox, without a folder.` }),
      },
    };
  },
};
