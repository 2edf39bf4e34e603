import { HomebodyError } from '../../src-shared/contract/index.js';
import type { OsKeychain, SecretCipher } from '../privacy/secretStore.js';

/** The part of Electron's safeStorage Homebody uses (the fakes in tests implement the same). */
export interface SafeStorageApi {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: which keyring Chromium's OSCrypt chose. */
  getSelectedStorageBackend?(): string;
}

/** A short probe value: sealing and opening it proves the keychain answers before any secret depends on it. */
const PROBE = 'homebody-keychain-probe';

/**
 * The OS keychain through Electron's safeStorage (Keychain on macOS, DPAPI on Windows, libsecret or KWallet on
 * Linux), or why it cannot be used. On Linux without a keyring, Chromium falls back to `basic_text`: a password
 * written in its source code, so the keychain would only pretend; then Homebody's own key file is used instead.
 * Call it after Electron's `ready` (before, Linux reports no backend).
 */
export function osKeychainFrom(safeStorage: SafeStorageApi, platform: NodeJS.Platform = process.platform): OsKeychain {
  let backend = platform === 'darwin' ? 'macOS Keychain' : platform === 'win32' ? 'Windows DPAPI' : 'OS keychain';
  try {
    if (!safeStorage.isEncryptionAvailable())
      return { available: false, reason: 'Electron reports that OS encryption is not available on this system.' };
    if (platform === 'linux') {
      const selected = safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
      if (selected === 'basic_text' || selected === 'unknown') {
        return {
          available: false,
          reason:
            `no keyring (GNOME Keyring, KWallet) was found, and Electron's fallback (${selected}) uses a password ` +
            'built into Chromium, which protects nothing.',
        };
      }
      backend = selected;
    }
    if (safeStorage.decryptString(safeStorage.encryptString(PROBE)) !== PROBE)
      return { available: false, reason: 'the OS keychain gave back something else than it was given.' };
  } catch (error) {
    return { available: false, reason: `the OS keychain failed: ${(error as Error).message}` };
  }
  const cipher: SecretCipher = {
    kind: 'os-keychain',
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (sealed) => {
      try {
        return safeStorage.decryptString(sealed);
      } catch {
        // Electron's own message names nothing the user can act on.
        throw new HomebodyError(
          'SECRET_STORE_ERROR',
          'the OS keychain refused it: it was altered, or sealed by another user or another copy of the app',
        );
      }
    },
  };
  return { available: true, cipher, backend };
}
