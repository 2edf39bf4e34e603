import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { packsApiSchemas } from '../../../src-shared/contract/index.js';
import {
  HomebodyError,
  PackSettingsSchema,
  TrustedCertificateSchema,
  type MailAccount,
  type PackSettings,
  type PackSettingsView,
  type TrustedCertificate,
} from '../../../src-shared/contract/index.js';
import type { SecretStore } from '../../privacy/secretStore.js';
import type { SettingsRepo } from '../../store/repos/settingsRepo.js';
import type { PackConfig } from '../../tools/toolTypes.js';
import { userPath } from '../../util/userPath.js';

const SETTINGS_KEY = 'packs.settings';
/**
 * The passwords, sealed by the secret store, kept apart from the settings so that no view or export of them can
 * carry one by mistake.
 */
const SEALED_SECRETS_KEY = 'packs.sealedSecrets';
/** Where versions before sealing kept the passwords in clear; moved to the sealed key at start. */
const CLEAR_SECRETS_KEY = 'packs.secrets';

/** The certificate the user trusted for each mail account's server, with the certificate itself (PEM). */
const TRUSTED_CERTIFICATES_KEY = 'packs.trustedCertificates';
const StoredTrustSchema = TrustedCertificateSchema.extend({ pem: z.string().max(64 * 1024) });
type StoredTrust = z.infer<typeof StoredTrustSchema>;
const StoredTrustsSchema = z.object({ imap: StoredTrustSchema.nullable(), smtp: StoredTrustSchema.nullable() });
type StoredTrusts = z.infer<typeof StoredTrustsSchema>;

const SecretsSchema = z.object({ smtpPassword: z.string().nullable(), imapPassword: z.string().nullable() });
/** The passwords in clear, or, under SEALED_SECRETS_KEY, as the secret store sealed them. */
type Secrets = z.infer<typeof SecretsSchema>;
const SECRET_LABELS: Readonly<Record<keyof Secrets, string>> = {
  smtpPassword: 'The SMTP password',
  imapPassword: 'The IMAP password',
};

export type PackSettingsPatch = z.infer<(typeof packsApiSchemas)['packs.setSettings']['request']>;

export const DEFAULT_PACK_SETTINGS: PackSettings = {
  calendarDir: '',
  contactsDir: '',
  notesDir: '',
  mailDir: '',
  mailSource: { kind: 'none' },
  smtp: null,
  imap: null,
  searchEndpoint: null,
  timeZone: '',
};

export const FOLDERS = ['calendarDir', 'contactsDir', 'notesDir', 'mailDir'] as const;
/** Each pack folder's name in the data folder, where it is when the user chose none. */
export const DEFAULT_FOLDER: Record<(typeof FOLDERS)[number], string> = {
  calendarDir: 'calendar',
  contactsDir: 'contacts',
  notesDir: 'notes',
  mailDir: 'mail',
};

function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The tool packs' settings: stored in the settings table, checked when set (absolute folders, a known time zone),
 * and handed to each tool call as a PackConfig with the default folders created inside the data folder.
 */
export class PackSettingsService {
  constructor(
    private readonly deps: {
      readonly settings: SettingsRepo;
      /** Seals the passwords before they reach the database. */
      readonly secrets: SecretStore;
      readonly dataDir: string;
      readonly offline: () => boolean;
    },
  ) {}

  current(): PackSettings {
    const stored = PackSettingsSchema.safeParse({
      ...DEFAULT_PACK_SETTINGS,
      ...asObject(this.deps.settings.get(SETTINGS_KEY)),
    });
    // A stored value that no longer parses (written by a newer version) falls back to the defaults, not a crash.
    return stored.success ? stored.data : DEFAULT_PACK_SETTINGS;
  }

  view(): PackSettingsView {
    const settings = this.current();
    const secrets = this.secrets();
    const resolved = this.folders(settings);
    return {
      ...settings,
      resolved,
      smtpPasswordSet: secrets.smtpPassword !== null,
      imapPasswordSet: secrets.imapPassword !== null,
      trustedCertificates: {
        imap: withoutPem(this.trustFor('imap', settings)),
        smtp: withoutPem(this.trustFor('smtp', settings)),
      },
    };
  }

  /**
   * Trusts exactly `certificate` for the account's server as it is set now; null stops trusting one. The caller
   * (packs.trustCertificate) has shown the user this certificate from a check of that server.
   */
  setTrustedCertificate(account: MailAccount, certificate: (TrustedCertificate & { pem: string }) | null): void {
    this.deps.settings.set(TRUSTED_CERTIFICATES_KEY, { ...this.storedTrusts(), [account]: certificate });
  }

  /** The trusted certificate of the account, only while the account still names the host and port it was for. */
  private trustFor(account: MailAccount, settings: PackSettings): StoredTrust | null {
    const server = settings[account];
    const trust = this.storedTrusts()[account];
    return server && trust && trust.host === server.host && trust.port === server.port ? trust : null;
  }

  private storedTrusts(): StoredTrusts {
    const stored = StoredTrustsSchema.safeParse(this.deps.settings.get(TRUSTED_CERTIFICATES_KEY));
    return stored.success ? stored.data : { imap: null, smtp: null };
  }

  set(patch: PackSettingsPatch): PackSettingsView {
    const { smtpPassword, imapPassword, ...rest } = patch;
    const next: PackSettings = { ...this.current(), ...rest };
    // `~` is the user's home folder; a relative path is refused (it would be the Host's working folder's).
    for (const key of FOLDERS) {
      const value = next[key];
      if (value !== '') next[key] = userPath(value, `The ${label(key)}`);
    }
    if (next.mailSource.kind === 'maildir' || next.mailSource.kind === 'mbox')
      next.mailSource = { ...next.mailSource, path: userPath(next.mailSource.path, 'The mail source') };
    if (next.mailSource.kind === 'imap' && next.imap === null)
      throw new HomebodyError('INVALID_REQUEST', 'Reading mail over IMAP needs the IMAP server settings first.');
    if (next.timeZone !== '' && !validTimeZone(next.timeZone))
      throw new HomebodyError('INVALID_REQUEST', `"${next.timeZone}" is not a time zone (try e.g. Europe/Lisbon).`);
    // Check the folders can be made before anything is saved.
    this.folders(next);
    this.deps.settings.set(SETTINGS_KEY, next);
    // A trust was for one server: an account moved to another host or port (or removed) drops it.
    const trusts = this.storedTrusts();
    const kept = { imap: this.trustFor('imap', next), smtp: this.trustFor('smtp', next) };
    if (kept.imap !== trusts.imap || kept.smtp !== trusts.smtp) this.deps.settings.set(TRUSTED_CERTIFICATES_KEY, kept);
    if (smtpPassword !== undefined || imapPassword !== undefined) {
      // A password not given keeps its sealed value as it is, even one that cannot be opened now.
      const sealed = this.sealedSecrets();
      const seal = (plain: string | null) => (plain === null ? null : this.deps.secrets.seal(plain));
      this.saveSealed({
        smtpPassword: smtpPassword === undefined ? sealed.smtpPassword : seal(smtpPassword),
        imapPassword: imapPassword === undefined ? sealed.imapPassword : seal(imapPassword),
      });
    }
    return this.view();
  }

  /**
   * At start: passwords an older version kept in clear are sealed and the clear copy deleted (secure_delete zeroes
   * it), and those sealed otherwise than the secret store seals now (the key file, once the OS keychain is there)
   * are sealed again. Answers whether anything was written, so the caller can checkpoint the WAL.
   */
  sealStoredSecrets(): boolean {
    const { secrets, settings } = this.deps;
    const hadClear = settings.get(CLEAR_SECRETS_KEY) !== undefined;
    const sealed = this.sealedSecrets();
    let resealed = false;
    const next = { ...sealed };
    for (const key of Object.keys(SECRET_LABELS) as Array<keyof Secrets>) {
      const value = sealed[key];
      if (value === null || secrets.isCurrent(value)) continue;
      const plain = secrets.open(value, SECRET_LABELS[key]);
      // One that cannot be opened is kept: it may open again if the key comes back.
      if (plain === null) continue;
      next[key] = secrets.seal(plain);
      resealed = true;
    }
    if (hadClear || resealed) this.saveSealed(next);
    return hadClear || resealed;
  }

  /** What a tool call gets: real folders (made if missing), passwords, the zone and offline mode. */
  config(): PackConfig {
    const settings = this.current();
    const secrets = this.secrets();
    const remindersDir = join(this.deps.dataDir, 'reminders');
    mkdirSync(remindersDir, { recursive: true });
    return {
      ...this.folders(settings),
      remindersFile: join(realpathSync(remindersDir), 'reminders.json'),
      mailSource: settings.mailSource,
      smtp: settings.smtp
        ? { ...settings.smtp, password: secrets.smtpPassword, ...pinned(this.trustFor('smtp', settings)) }
        : null,
      imap: settings.imap
        ? { ...settings.imap, password: secrets.imapPassword, ...pinned(this.trustFor('imap', settings)) }
        : null,
      searchEndpoint: settings.searchEndpoint,
      timeZone: settings.timeZone || systemTimeZone(),
      offline: this.deps.offline(),
    };
  }

  private folders(settings: PackSettings): PackSettingsView['resolved'] {
    const out = {} as Record<(typeof FOLDERS)[number], string>;
    for (const key of FOLDERS) {
      const chosen = settings[key] || join(this.deps.dataDir, DEFAULT_FOLDER[key]);
      try {
        mkdirSync(chosen, { recursive: true });
        const real = realpathSync(resolve(chosen));
        if (!statSync(real).isDirectory()) throw new Error('not a folder');
        out[key] = real;
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw new HomebodyError('INVALID_REQUEST', `The ${label(key)} ${chosen} cannot be used: ${why}.`);
      }
    }
    return out;
  }

  /** The passwords in clear; one that cannot be opened reads as not set (the secret store tells the user). */
  private secrets(): Secrets {
    const sealed = this.sealedSecrets();
    const open = (key: keyof Secrets) => {
      const value = sealed[key];
      return value === null ? null : this.deps.secrets.open(value, SECRET_LABELS[key]);
    };
    return { smtpPassword: open('smtpPassword'), imapPassword: open('imapPassword') };
  }

  /**
   * The passwords as stored, sealed. Clear ones left by an older version are sealed on the way, and win over sealed
   * ones: every sealed write deletes the clear key, so a clear key still there was written later (by an older version
   * run on this data folder) or never moved.
   */
  private sealedSecrets(): Secrets {
    const clear = SecretsSchema.safeParse(this.deps.settings.get(CLEAR_SECRETS_KEY));
    if (clear.success) {
      const seal = (plain: string | null) => (plain === null ? null : this.deps.secrets.seal(plain));
      return { smtpPassword: seal(clear.data.smtpPassword), imapPassword: seal(clear.data.imapPassword) };
    }
    const stored = SecretsSchema.safeParse(this.deps.settings.get(SEALED_SECRETS_KEY));
    return stored.success ? stored.data : { smtpPassword: null, imapPassword: null };
  }

  private saveSealed(sealed: Secrets): void {
    this.deps.settings.set(SEALED_SECRETS_KEY, sealed);
    this.deps.settings.delete(CLEAR_SECRETS_KEY);
  }
}

function withoutPem(trust: StoredTrust | null): TrustedCertificate | null {
  if (!trust) return null;
  const { pem: _pem, ...shown } = trust;
  return shown;
}

/** The tool config's pin: present only when a certificate is trusted, so configs without one stay as they were. */
function pinned(trust: StoredTrust | null): { pinned?: { sha256: string; pem: string } } {
  return trust ? { pinned: { sha256: trust.sha256, pem: trust.pem } } : {};
}

function asObject(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function label(key: (typeof FOLDERS)[number]): string {
  return {
    calendarDir: 'calendar folder',
    contactsDir: 'contacts folder',
    notesDir: 'notes folder',
    mailDir: 'mail folder',
  }[key];
}
