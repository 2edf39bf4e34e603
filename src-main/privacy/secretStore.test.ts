import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY_FILE, SecretStore, sealedKind, type OsKeychain, type SecretCipher } from './secretStore.js';

const MARKER = 'pw-9f31c7e2-never-in-clear';

function setup(keychain?: OsKeychain) {
  const dataDir = mkdtempSync(join(tmpdir(), 'hb-secrets-'));
  const notices: string[] = [];
  const secrets = new SecretStore({ dataDir, notice: (m) => notices.push(m), ...(keychain ? { keychain } : {}) });
  return { dataDir, notices, secrets, keyFile: join(dataDir, KEY_FILE) };
}

/** Stands in for Electron's safeStorage: reversible, and refuses what it did not seal. */
const fakeKeychainCipher: SecretCipher = {
  kind: 'os-keychain',
  encrypt: (plain) => Buffer.from(`os:${Buffer.from(plain).toString('hex')}`),
  decrypt: (sealed) => {
    const text = sealed.toString();
    if (!text.startsWith('os:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.');
    return Buffer.from(text.slice(3), 'hex').toString();
  },
};

describe('SecretStore with the key file', () => {
  it('seals with a fresh IV each time, never in clear, and opens what it sealed', () => {
    const { secrets, keyFile } = setup();
    expect(secrets.protection).toBe('key-file');
    const a = secrets.seal(MARKER);
    const b = secrets.seal(MARKER);
    expect(a).toMatch(/^hbk1:[A-Za-z0-9+/]+=*$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain(MARKER);
    expect(Buffer.from(a.slice(5), 'base64').toString('latin1')).not.toContain(MARKER);
    expect(secrets.openOrThrow(a)).toBe(MARKER);
    expect(secrets.open(b, 'The SMTP password')).toBe(MARKER);
    expect(secrets.isCurrent(a)).toBe(true);
    expect(sealedKind(MARKER)).toBeNull();
    // The key: 32 random bytes that only the owner may read.
    expect(readFileSync(keyFile)).toHaveLength(32);
    if (process.platform !== 'win32') expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  });

  it('refuses a tampered value clearly, and reads it as not set with a notice', () => {
    const { secrets, notices } = setup();
    const sealed = secrets.seal(MARKER);
    const bytes = Buffer.from(sealed.slice(5), 'base64');
    bytes[bytes.length - 1]! ^= 0x01;
    const tampered = `hbk1:${bytes.toString('base64')}`;
    expect(() => secrets.openOrThrow(tampered)).toThrow(/was altered, or sealed with another key/);
    expect(secrets.open(tampered, 'The IMAP password')).toBeNull();
    expect(notices).toEqual([expect.stringMatching(/^The IMAP password could not be decrypted \(the stored value/)]);
    expect(notices.join()).not.toContain(MARKER);
    expect(() => secrets.openOrThrow('hbk1:AAAA')).toThrow(/cut short/);
  });

  it('makes a new key when the key file is gone; what the old key sealed reads as not set, never a crash', () => {
    const { secrets, keyFile, notices } = setup();
    const before = secrets.seal(MARKER);
    const oldKey = readFileSync(keyFile);
    rmSync(keyFile);
    expect(secrets.open(before, 'The SMTP password')).toBeNull();
    expect(notices[0]).toMatch(/The SMTP password could not be decrypted \(the key it was sealed with .* is gone\)/);
    const after = secrets.seal('new one');
    expect(readFileSync(keyFile).equals(oldKey)).toBe(false);
    expect(secrets.openOrThrow(after)).toBe('new one');
    expect(secrets.open(before, 'The SMTP password')).toBeNull();
  });

  it('makes a key file that others could read private again, and says so', () => {
    const { secrets, keyFile, notices } = setup();
    const sealed = secrets.seal(MARKER);
    chmodSync(keyFile, 0o644);
    expect(secrets.openOrThrow(sealed)).toBe(MARKER);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(notices).toEqual([expect.stringContaining('could be read by other users of this computer (mode 644)')]);
  });

  it('refuses a key file that is a link or not a key', () => {
    const { secrets, keyFile, dataDir, notices } = setup();
    const elsewhere = join(dataDir, 'elsewhere.key');
    writeFileSync(elsewhere, Buffer.alloc(32, 7), { mode: 0o600 });
    symlinkSync(elsewhere, keyFile);
    expect(() => secrets.seal(MARKER)).toThrow(/is not a plain file/);
    rmSync(keyFile);
    writeFileSync(keyFile, 'short', { mode: 0o600 });
    expect(() => secrets.seal(MARKER)).toThrow(/is not a Homebody key \(5 bytes; a key has 32\)/);
    expect(secrets.open('hbk1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'The SMTP password')).toBeNull();
    expect(notices[0]).toMatch(/is not a Homebody key/);
  });

  it('cannot open what the desktop app sealed with the OS keychain, and says why', () => {
    const { secrets, notices } = setup();
    const fromDesktop = `hbo1:${fakeKeychainCipher.encrypt(MARKER).toString('base64')}`;
    expect(secrets.open(fromDesktop, 'The header Authorization of the MCP server "remote"')).toBeNull();
    expect(notices[0]).toContain('sealed with the OS keychain by the desktop app');
  });

  it('describes honestly what the key file protects against and what it does not', () => {
    const { secrets, keyFile } = setup();
    const report = secrets.report();
    expect(report.protection).toBe('key-file');
    expect(report.description).toContain(keyFile);
    expect(report.description).toContain('any program running as your user can read the key file');
  });
});

describe('SecretStore with the OS keychain', () => {
  it('seals with the keychain, still opens values the key file sealed, and leaves no key file behind', () => {
    const keychain: OsKeychain = { available: true, cipher: fakeKeychainCipher, backend: 'gnome_libsecret' };
    const browser = setup();
    const fromBrowser = browser.secrets.seal(MARKER);
    const desktop = new SecretStore({ dataDir: browser.dataDir, keychain });
    expect(desktop.protection).toBe('os-keychain');
    expect(desktop.openOrThrow(fromBrowser)).toBe(MARKER);
    expect(desktop.isCurrent(fromBrowser)).toBe(false);
    const sealed = desktop.seal(MARKER);
    expect(sealed.startsWith('hbo1:')).toBe(true);
    expect(desktop.isCurrent(sealed)).toBe(true);
    expect(desktop.openOrThrow(sealed)).toBe(MARKER);
    expect(desktop.report()).toMatchObject({
      protection: 'os-keychain',
      description: expect.stringContaining('keychain'),
    });

    const fresh = setup(keychain);
    fresh.secrets.seal(MARKER);
    expect(() => statSync(fresh.keyFile)).toThrow(/ENOENT/);
  });

  it('uses the key file when the shell says the keychain cannot be used, and the report says why', () => {
    const { secrets } = setup({ available: false, reason: 'no keyring was found (basic_text)' });
    expect(secrets.protection).toBe('key-file');
    expect(secrets.seal(MARKER)).toMatch(/^hbk1:/);
    expect(secrets.report().description).toContain('The OS keychain is not used: no keyring was found (basic_text)');
  });
});
