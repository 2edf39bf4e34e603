import type * as Mailparser from 'mailparser';

/**
 * The mail libraries load on the first mail tool call, not with the tool list that the app and every tool worker
 * read at start (mailparser and imapflow take 0.7 s each to load on a 2-core machine, nodemailer 0.2 s).
 */
export function loadMailparser(): Promise<typeof Mailparser> {
  return import('mailparser');
}
