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

/** A SHA-256 fingerprint as certificate viewers show it: 32 upper-case hex pairs joined by colons. */
export const CertificateFingerprintSchema = z.string().regex(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);

/** A mail server's TLS certificate, as the user sees it before trusting it. */
export const ServerCertificateSchema = z.object({
  subject: z.string().max(4096),
  issuer: z.string().max(4096),
  /** The names it is for (subjectAltName), as the certificate lists them. */
  altNames: z.string().max(4096),
  /** ISO 8601. */
  validFrom: z.string().max(64),
  validTo: z.string().max(64),
  sha256: CertificateFingerprintSchema,
});
export type ServerCertificate = z.infer<typeof ServerCertificateSchema>;

/** The mail accounts a certificate can be trusted for. */
export const MailAccountSchema = z.enum(['imap', 'smtp']);
export type MailAccount = z.infer<typeof MailAccountSchema>;

/** A certificate the user trusted for one account's server: only this exact certificate, only on this host and port. */
export const TrustedCertificateSchema = ServerCertificateSchema.extend({ host: Host, port: Port });
export type TrustedCertificate = z.infer<typeof TrustedCertificateSchema>;

/**
 * What checking an account's server found: its certificate and whether this computer trusts it (`system`: by the
 * certificate authorities it knows; `pinned`: it is the one the user trusted for the account; `untrusted`: neither;
 * `unavailable`: no certificate was seen: no connection, or a server that offers no TLS). `problem` says why, in words.
 */
export const CertificateCheckSchema = z.object({
  account: MailAccountSchema,
  host: Host,
  port: Port,
  certificate: ServerCertificateSchema.nullable(),
  trust: z.enum(['system', 'pinned', 'untrusted', 'unavailable']),
  problem: z.string().max(2000).nullable(),
});
export type CertificateCheck = z.infer<typeof CertificateCheckSchema>;

export const PackSettingsViewSchema = PackSettingsSchema.extend({
  /** The folders actually used (defaults filled in), realpaths. */
  resolved: z.object({ calendarDir: z.string(), contactsDir: z.string(), notesDir: z.string(), mailDir: z.string() }),
  smtpPasswordSet: z.boolean(),
  imapPasswordSet: z.boolean(),
  /** The certificate trusted for each account's server (packs.trustCertificate), or null. */
  trustedCertificates: z.object({
    imap: TrustedCertificateSchema.nullable(),
    smtp: TrustedCertificateSchema.nullable(),
  }),
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
  /** Connects to the saved account's server (asking the egress guard) only to see its certificate; sends nothing else. */
  'packs.checkCertificate': {
    request: z.object({ account: MailAccountSchema }).strict(),
    response: CertificateCheckSchema,
  },
  /**
   * Trusts, for that account, exactly the certificate its last check showed (the fingerprint must be that one's);
   * null stops trusting one. Changing the account's host or port drops the trust.
   */
  'packs.trustCertificate': {
    request: z.object({ account: MailAccountSchema, sha256: CertificateFingerprintSchema.nullable() }).strict(),
    response: PackSettingsViewSchema,
  },
} as const;
