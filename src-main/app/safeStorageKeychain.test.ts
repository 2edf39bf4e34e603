import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretStore } from '../privacy/secretStore.js';
import { osKeychainFrom, type SafeStorageApi } from './safeStorageKeychain.js';

/** Like Electron's safeStorage: a reversible transform, refusing bytes it did not make. */
function fakeSafeStorage(options: { available?: boolean; backend?: string; broken?: boolean } = {}) {
  const calls: string[] = [];
  const api: SafeStorageApi = {
    isEncryptionAvailable: () => options.available ?? true,
    encryptString: (plain) => {
      calls.push('encrypt');
      if (options.broken) throw new Error('Encryption failed.');
      return Buffer.from(`v10${Buffer.from(plain).toString('base64')}`);
    },
    decryptString: (encrypted) => {
      calls.push('decrypt');
      const text = encrypted.toString();
      if (!text.startsWith('v10')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.');
      return Buffer.from(text.slice(3), 'base64').toString();
    },
    ...(options.backend === undefined ? {} : { getSelectedStorageBackend: () => options.backend! }),
  };
  return { api, calls };
}

describe('the OS keychain through safeStorage', () => {
  it('is used where safeStorage has a real keyring, and seals the secret store with it', () => {
    const { api } = fakeSafeStorage({ backend: 'gnome_libsecret' });
    const keychain = osKeychainFrom(api, 'linux');
    expect(keychain).toMatchObject({ available: true, backend: 'gnome_libsecret' });
    const secrets = new SecretStore({ dataDir: mkdtempSync(join(tmpdir(), 'hb-keychain-')), keychain });
    expect(secrets.protection).toBe('os-keychain');
    const sealed = secrets.seal('Bearer s3cr3t');
    expect(sealed).toMatch(/^hbo1:/);
    expect(secrets.openOrThrow(sealed)).toBe('Bearer s3cr3t');
    expect(osKeychainFrom(fakeSafeStorage().api, 'darwin')).toMatchObject({
      available: true,
      backend: 'macOS Keychain',
    });
    expect(osKeychainFrom(fakeSafeStorage().api, 'win32')).toMatchObject({ available: true, backend: 'Windows DPAPI' });
  });

  it('is not used on Linux when Chromium fell back to basic_text (or has not chosen), nor when unavailable', () => {
    expect(osKeychainFrom(fakeSafeStorage({ backend: 'basic_text' }).api, 'linux')).toEqual({
      available: false,
      reason: expect.stringContaining('(basic_text) uses a password built into Chromium'),
    });
    expect(osKeychainFrom(fakeSafeStorage({ backend: 'unknown' }).api, 'linux')).toMatchObject({ available: false });
    expect(osKeychainFrom(fakeSafeStorage({}).api, 'linux')).toMatchObject({ available: false });
    expect(osKeychainFrom(fakeSafeStorage({ available: false }).api, 'darwin')).toEqual({
      available: false,
      reason: expect.stringContaining('not available'),
    });
    expect(osKeychainFrom(fakeSafeStorage({ broken: true, backend: 'kwallet5' }).api, 'linux')).toEqual({
      available: false,
      reason: 'the OS keychain failed: Encryption failed.',
    });
  });

  it('refuses clearly what it did not seal', () => {
    const keychain = osKeychainFrom(fakeSafeStorage().api, 'darwin');
    if (!keychain.available) throw new Error('expected the keychain');
    expect(() => keychain.cipher.decrypt(Buffer.from('garbage'))).toThrow(/the OS keychain refused it: it was altered/);
  });
});
