import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretStore, type SecretCipher } from '../../privacy/secretStore.js';
import { openStore } from '../../store/store.js';
import { PackSettingsService } from './packSettingsService.js';

function setup(offline = false) {
  const dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'hb-packs-')));
  const store = openStore(':memory:');
  const notices: string[] = [];
  const secrets = new SecretStore({ dataDir, notice: (m) => notices.push(m) });
  const service = new PackSettingsService({ settings: store.settings, secrets, dataDir, offline: () => offline });
  return { dataDir, store, service, notices };
}

describe('PackSettingsService', () => {
  it('uses folders inside the data folder until the user chooses others, and creates them', () => {
    const { dataDir, service } = setup(true);
    const config = service.config();
    expect(config.calendarDir).toBe(join(dataDir, 'calendar'));
    expect(config.notesDir).toBe(join(dataDir, 'notes'));
    expect(existsSync(config.mailDir)).toBe(true);
    expect(config.remindersFile).toBe(join(dataDir, 'reminders', 'reminders.json'));
    expect(config.offline).toBe(true);
    expect(config.timeZone).not.toBe('');
    const chosen = join(dataDir, 'elsewhere', 'Calendar');
    expect(service.set({ calendarDir: chosen }).resolved.calendarDir).toBe(chosen);
    expect(service.config().calendarDir).toBe(chosen);
  });

  it('keeps passwords write-only: the view says whether one is set, the tool config carries it', () => {
    const { service, store } = setup();
    const smtp = { host: '127.0.0.1', port: 2525, secure: false, user: 'me', from: 'me@example.org' };
    const view = service.set({ smtp, smtpPassword: 'hunter2' });
    expect(view.smtpPasswordSet).toBe(true);
    expect(JSON.stringify(view)).not.toContain('hunter2');
    expect(JSON.stringify(store.settings.get('packs.settings'))).not.toContain('hunter2');
    expect(JSON.stringify(store.settings.get('packs.sealedSecrets'))).not.toContain('hunter2');
    expect(store.settings.get('packs.sealedSecrets')).toMatchObject({ smtpPassword: expect.stringMatching(/^hbk1:/) });
    expect(service.config().smtp).toEqual({ ...smtp, password: 'hunter2' });
    // Absent keeps it; null removes it.
    expect(service.set({ timeZone: 'Europe/Lisbon' }).smtpPasswordSet).toBe(true);
    expect(service.set({ smtpPassword: null }).smtpPasswordSet).toBe(false);
    expect(service.config().smtp?.password).toBeNull();
  });

  it('refuses a relative folder, an unknown time zone, IMAP without a server, and a folder that is a file', () => {
    const { service, dataDir } = setup();
    expect(() => service.set({ notesDir: 'notes' })).toThrow(
      /notes folder "notes" is a relative path; give a full path/,
    );
    expect(() => service.set({ mailSource: { kind: 'mbox', path: 'mail/inbox' } })).toThrow(
      /mail source "mail\/inbox" is a relative path/,
    );
    expect(() => service.set({ timeZone: 'Mars/Olympus' })).toThrow(/"Mars\/Olympus" is not a time zone/);
    expect(() => service.set({ mailSource: { kind: 'imap' } })).toThrow(/needs the IMAP server settings/);
    const file = join(dataDir, 'a-file');
    writeFileSync(file, 'x');
    expect(() => service.set({ contactsDir: file })).toThrow(/contacts folder .* cannot be used/);
    // Nothing of the refused changes was kept.
    expect(service.view()).toMatchObject({ notesDir: '', timeZone: '', mailSource: { kind: 'none' }, contactsDir: '' });
  });

  it('seals a password an older version kept in clear, and deletes the clear copy', () => {
    const { service, store } = setup();
    const smtp = { host: '127.0.0.1', port: 2525, secure: false, user: 'me', from: 'me@example.org' };
    store.settings.set('packs.settings', { smtp });
    store.settings.set('packs.secrets', { smtpPassword: 'hunter2', imapPassword: null });
    // Usable before the move too.
    expect(service.config().smtp?.password).toBe('hunter2');
    expect(service.sealStoredSecrets()).toBe(true);
    expect(store.settings.get('packs.secrets')).toBeUndefined();
    expect(JSON.stringify(store.settings.get('packs.sealedSecrets'))).not.toContain('hunter2');
    expect(service.config().smtp?.password).toBe('hunter2');
    expect(service.view()).toMatchObject({ smtpPasswordSet: true, imapPasswordSet: false });
    expect(service.sealStoredSecrets()).toBe(false);
    // An older version run on this folder again writes in clear: that newer password wins, sealed at the next start.
    store.settings.set('packs.secrets', { smtpPassword: 'newer', imapPassword: null });
    expect(service.sealStoredSecrets()).toBe(true);
    expect(store.settings.get('packs.secrets')).toBeUndefined();
    expect(service.config().smtp?.password).toBe('newer');
  });

  it('seals again with the OS keychain what the key file sealed, once the keychain is there', () => {
    const { service, store, dataDir } = setup();
    service.set({ imapPassword: 'letmein' });
    const keychainCipher: SecretCipher = {
      kind: 'os-keychain',
      encrypt: (plain) => Buffer.from(plain).reverse(),
      decrypt: (sealed) => Buffer.from(sealed).reverse().toString(),
    };
    const desktop = new PackSettingsService({
      settings: store.settings,
      secrets: new SecretStore({ dataDir, keychain: { available: true, cipher: keychainCipher, backend: 'test' } }),
      dataDir,
      offline: () => false,
    });
    expect(desktop.sealStoredSecrets()).toBe(true);
    expect(store.settings.get('packs.sealedSecrets')).toMatchObject({ imapPassword: expect.stringMatching(/^hbo1:/) });
    expect(desktop.sealStoredSecrets()).toBe(false);
    expect(desktop.view().imapPasswordSet).toBe(true);
  });

  it('reads a password it can no longer decrypt as not set, with a notice, and keeps the others', () => {
    const { service, dataDir, notices } = setup();
    const smtp = { host: '127.0.0.1', port: 2525, secure: false, user: 'me', from: 'me@example.org' };
    service.set({ smtp, smtpPassword: 'hunter2' });
    rmSync(join(dataDir, 'secret.key'));
    expect(service.view().smtpPasswordSet).toBe(false);
    expect(service.config().smtp).toEqual({ ...smtp, password: null });
    expect(notices).toEqual([
      expect.stringMatching(/^The SMTP password could not be decrypted \(the key .* is gone\)/),
    ]);
    // Setting the other password does not need the lost one, and a new key seals it.
    expect(service.set({ imapPassword: 'letmein' })).toMatchObject({ imapPasswordSet: true, smtpPasswordSet: false });
    expect(service.set({ smtpPassword: 'again' }).smtpPasswordSet).toBe(true);
  });
});
