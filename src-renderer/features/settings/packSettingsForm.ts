import type { ApiRequest, PackSettingsView } from '../../../src-shared/contract/index.js';

export type PackSettingsPatch = ApiRequest<'packs.setSettings'>;
export type MailKind = 'none' | 'maildir' | 'mbox' | 'imap';
export type FolderKey = 'calendarDir' | 'contactsDir' | 'notesDir' | 'mailDir';

export const FOLDER_FIELDS: readonly { key: FolderKey; label: string }[] = [
  { key: 'calendarDir', label: 'Calendar folder (.ics files)' },
  { key: 'contactsDir', label: 'Contacts folder (.vcf files)' },
  { key: 'notesDir', label: 'Notes folder (Markdown files)' },
  { key: 'mailDir', label: 'Mail folder (drafts and sent mail, .eml files)' },
];

/** A mail server's fields as typed; the password is write-only: empty keeps the saved one. */
export interface ServerInputs {
  enabled: boolean;
  host: string;
  port: string;
  secure: boolean;
  user: string;
  password: string;
  /** Remove the saved password on the next save. */
  clearPassword: boolean;
}

/** Everything the form shows, as the user typed it (strings, so nothing typed is lost to parsing). */
export interface PackInputs {
  folders: Record<FolderKey, string>;
  timeZone: string;
  searchEndpoint: string;
  mailKind: MailKind;
  mailPath: string;
  smtp: ServerInputs & { from: string };
  imap: ServerInputs;
}

/** Problems found before anything is sent, by field id (e.g. "smtp.port"). */
export type PackProblems = Partial<Record<string, string>>;

function serverInputs(
  saved: { host: string; port: number; secure: boolean; user: string } | null,
  defaultPort: number,
): ServerInputs {
  return {
    enabled: saved !== null,
    host: saved?.host ?? '',
    port: String(saved?.port ?? defaultPort),
    secure: saved?.secure ?? true,
    user: saved?.user ?? '',
    password: '',
    clearPassword: false,
  };
}

/** The form's fields for what the Host holds; passwords always start empty. */
export function inputsFromView(view: PackSettingsView): PackInputs {
  const source = view.mailSource;
  return {
    folders: {
      calendarDir: view.calendarDir,
      contactsDir: view.contactsDir,
      notesDir: view.notesDir,
      mailDir: view.mailDir,
    },
    timeZone: view.timeZone,
    searchEndpoint: view.searchEndpoint ?? '',
    mailKind: source.kind,
    mailPath: source.kind === 'maildir' || source.kind === 'mbox' ? source.path : '',
    smtp: { ...serverInputs(view.smtp, 465), from: view.smtp?.from ?? '' },
    imap: serverInputs(view.imap, 993),
  };
}

function port(raw: string, field: string, problems: PackProblems): number {
  const value = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || value < 1 || value > 65_535) problems[field] = 'A port is a number from 1 to 65535.';
  return value;
}

function password(server: ServerInputs): { value?: string | null } {
  if (server.clearPassword) return { value: null };
  return server.password === '' ? {} : { value: server.password };
}

/**
 * The whole settings request for the typed fields. Only what the request itself needs is checked here (a port is a
 * number, a server has a host); everything else (absolute folders, a known time zone, a valid URL) is the Host's to
 * judge, and its answer is shown as it comes.
 */
export function patchFromInputs(inputs: PackInputs): { patch: PackSettingsPatch; problems: PackProblems } {
  const problems: PackProblems = {};
  const patch: PackSettingsPatch = {
    calendarDir: inputs.folders.calendarDir.trim(),
    contactsDir: inputs.folders.contactsDir.trim(),
    notesDir: inputs.folders.notesDir.trim(),
    mailDir: inputs.folders.mailDir.trim(),
    timeZone: inputs.timeZone.trim(),
    searchEndpoint: inputs.searchEndpoint.trim() === '' ? null : inputs.searchEndpoint.trim(),
  };
  if (inputs.mailKind === 'maildir' || inputs.mailKind === 'mbox') {
    const path = inputs.mailPath.trim();
    if (path === '')
      problems['mail.path'] = `Enter the path of the ${inputs.mailKind === 'mbox' ? 'mbox file' : 'Maildir folder'}.`;
    patch.mailSource = { kind: inputs.mailKind, path };
  } else {
    patch.mailSource = { kind: inputs.mailKind };
  }
  const { smtp, imap } = inputs;
  if (smtp.enabled) {
    if (smtp.host.trim() === '') problems['smtp.host'] = 'Enter the SMTP server, e.g. smtp.example.org.';
    patch.smtp = {
      host: smtp.host.trim(),
      port: port(smtp.port, 'smtp.port', problems),
      secure: smtp.secure,
      user: smtp.user.trim(),
      from: smtp.from.trim(),
    };
  } else patch.smtp = null;
  if (imap.enabled) {
    if (imap.host.trim() === '') problems['imap.host'] = 'Enter the IMAP server, e.g. imap.example.org.';
    patch.imap = {
      host: imap.host.trim(),
      port: port(imap.port, 'imap.port', problems),
      secure: imap.secure,
      user: imap.user.trim(),
    };
  } else patch.imap = null;
  const smtpPassword = password(smtp);
  if ('value' in smtpPassword) patch.smtpPassword = smtpPassword.value ?? null;
  const imapPassword = password(imap);
  if ('value' in imapPassword) patch.imapPassword = imapPassword.value ?? null;
  return { patch, problems };
}

/** Host messages name the field they refuse (a schema path, or the setting's own words): which field to point at. */
const HOST_FIELDS: readonly [RegExp, string][] = [
  [/\bsearchEndpoint\b|search endpoint/i, 'searchEndpoint'],
  [/\btimeZone\b|time zone/i, 'timeZone'],
  [/\bcalendarDir\b|calendar folder/i, 'calendarDir'],
  [/\bcontactsDir\b|contacts folder/i, 'contactsDir'],
  [/\bnotesDir\b|notes folder/i, 'notesDir'],
  [/\bmailDir\b|mail folder/i, 'mailDir'],
  [/\bmailSource\b|mail source/i, 'mail.path'],
  [/IMAP server settings/i, 'imap.host'],
];

/** The field a Host error is about ("smtp.from", "timeZone", ...), or null when it names none. */
export function fieldOfHostError(message: string): string | null {
  const path = /\b(smtp|imap)\.(host|port|user|from)\b/.exec(message);
  if (path) return `${path[1]}.${path[2]}`;
  return HOST_FIELDS.find(([pattern]) => pattern.test(message))?.[1] ?? null;
}
