import { z } from 'zod';

/**
 * Settings of the built-in tool packs (calendar, contacts, notes and reminders, mail, web). Folders are where each
 * pack keeps its files in open formats (iCalendar, vCard, Markdown, RFC 5322), so other apps can read them; an empty
 * folder setting means the default one inside Homebody's data folder.
 *
 * Passwords are write-only: the Host keeps them and never sends them back; the view says only whether one is set.
 */
const Folder = z.string().max(4096);
const Host = z.string().trim().min(1).max(253);
const Port = z.number().int().min(1).max(65_535);

export const SmtpSettingsSchema = z.object({
  host: Host,
  port: Port,
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  secure: z.boolean(),
  user: z.string().max(320),
  /** The From address of sent mail. */
  from: z.string().min(3).max(320),
});
export type SmtpSettings = z.infer<typeof SmtpSettingsSchema>;

export const ImapSettingsSchema = z.object({
  host: Host,
  port: Port,
  secure: z.boolean(),
  user: z.string().max(320),
});
export type ImapSettings = z.infer<typeof ImapSettingsSchema>;

/** Where mail is read from: nothing, a local Maildir or mbox, or an IMAP account. */
export const MailSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('maildir'), path: Folder.min(1) }),
  z.object({ kind: z.literal('mbox'), path: Folder.min(1) }),
  z.object({ kind: z.literal('imap') }),
]);
export type MailSource = z.infer<typeof MailSourceSchema>;

export const PackSettingsSchema = z.object({
  calendarDir: Folder,
  contactsDir: Folder,
  notesDir: Folder,
  /** Drafts are saved here as .eml files; sent mail is copied here too. */
  mailDir: Folder,
  mailSource: MailSourceSchema,
  smtp: SmtpSettingsSchema.nullable(),
  imap: ImapSettingsSchema.nullable(),
  /** A SearXNG-style search endpoint (`https://host/search`), answered as JSON; null: web search is off. */
  searchEndpoint: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable(),
  /** IANA time zone for calendar and reminders; empty means the system's. */
  timeZone: z.string().max(64),
});
export type PackSettings = z.infer<typeof PackSettingsSchema>;

export const PackSettingsViewSchema = PackSettingsSchema.extend({
  /** The folders actually used (defaults filled in), realpaths. */
  resolved: z.object({ calendarDir: z.string(), contactsDir: z.string(), notesDir: z.string(), mailDir: z.string() }),
  smtpPasswordSet: z.boolean(),
  imapPasswordSet: z.boolean(),
});
export type PackSettingsView = z.infer<typeof PackSettingsViewSchema>;

const Password = z.string().max(1024);

export const packsApiSchemas = {
  'packs.settings': { request: z.object({}).strict(), response: PackSettingsViewSchema },
  /** Merges what is given; a password of null removes the stored one, an absent one keeps it. */
  'packs.setSettings': {
    request: PackSettingsSchema.partial()
      .extend({ smtpPassword: Password.nullable().optional(), imapPassword: Password.nullable().optional() })
      .strict(),
    response: PackSettingsViewSchema,
  },
} as const;
