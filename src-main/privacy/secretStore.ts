import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { HomebodyError } from '../../src-shared/contract/index.js';

/** How secrets are kept: sealed by the OS keychain (the desktop app), or with Homebody's own key file. */
export type SecretProtection = 'os-keychain' | 'key-file';

/** Encrypts and decrypts small strings; a decrypt that fails (altered data, another key) throws. */
export interface SecretCipher {
  readonly kind: SecretProtection;
  encrypt(plain: string): Buffer;
  decrypt(sealed: Buffer): string;
}

/** What the desktop shell offers: the OS keychain, or why it cannot be used (then the key file is). */
export type OsKeychain =
  | { readonly available: true; readonly cipher: SecretCipher; readonly backend: string }
  | { readonly available: false; readonly reason: string };

/** The key file's name in the data folder. */
export const KEY_FILE = 'secret.key';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The prefix of a sealed value says who sealed it and in which format, so either can change later. */
const PREFIX: Readonly<Record<SecretProtection, string>> = { 'key-file': 'hbk1:', 'os-keychain': 'hbo1:' };
const KEY_FILE_AAD = Buffer.from(PREFIX['key-file']);

const unreadable = (message: string) => new HomebodyError('SECRET_STORE_ERROR', message);

/**
 * AES-256-GCM with a random key in a file only its owner may read: a fresh 12-byte IV for every value, and the
 * tag checked on decrypt, so an altered value is refused rather than read as something else. The key is read at
 * every use, so a key file deleted with the user's data is not kept alive in memory.
 */
export class KeyFileCipher implements SecretCipher {
  readonly kind = 'key-file';

  constructor(
    readonly path: string,
    /** The key file was readable by others and has been made private: the user should hear of it. */
    private readonly onModeFixed: (message: string) => void = () => {},
  ) {}

  encrypt(plain: string): Buffer {
    const key = this.key() ?? this.createKey();
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(KEY_FILE_AAD);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  decrypt(sealed: Buffer): string {
    const key = this.key();
    if (!key) throw unreadable(`the key it was sealed with (${this.path}) is gone`);
    if (sealed.length < IV_BYTES + TAG_BYTES) throw unreadable('the stored value is cut short');
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
    decipher.setAAD(KEY_FILE_AAD);
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw unreadable(`the stored value was altered, or sealed with another key than ${this.path}`);
    }
  }

  /** The key, or null when there is no key file; a key file that is unsafe and cannot be made safe throws. */
  key(): Buffer | null {
    let stats: Stats;
    try {
      stats = lstatSync(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw unreadable(`the key file ${this.path} cannot be read: ${(error as Error).message}`);
    }
    if (!stats.isFile()) throw unreadable(`the key file ${this.path} is not a plain file (a link or a folder)`);
    if (process.platform !== 'win32') {
      const uid = process.getuid?.();
      if (uid !== undefined && stats.uid !== uid)
        throw unreadable(`the key file ${this.path} belongs to another user (uid ${stats.uid})`);
      if ((stats.mode & 0o077) !== 0) this.makePrivate(stats.mode);
    }
    const key = readFileSync(this.path);
    if (key.length !== KEY_BYTES)
      throw unreadable(`the key file ${this.path} is not a Homebody key (${key.length} bytes; a key has ${KEY_BYTES})`);
    return key;
  }

  private makePrivate(mode: number): void {
    const was = (mode & 0o777).toString(8);
    try {
      chmodSync(this.path, 0o600);
    } catch (error) {
      throw unreadable(
        `the key file ${this.path} may be read by other users (mode ${was}) and could not be made private: ` +
          `${(error as Error).message}; run chmod 600 on it`,
      );
    }
    if ((lstatSync(this.path).mode & 0o077) !== 0)
      throw unreadable(`the key file ${this.path} may be read by other users (mode ${was}); run chmod 600 on it`);
    this.onModeFixed(
      `The key file that protects your passwords and tokens (${this.path}) could be read by other users of this ` +
        `computer (mode ${was}); Homebody made it private (600). If others use this computer, consider changing ` +
        'those passwords.',
    );
  }

  /**
   * Writes a new key through a private temp file and a hard link, which fails if the name exists: two processes
   * on one data folder end up with the same key, and no one ever reads a half-written file.
   */
  private createKey(): Buffer {
    mkdirSync(dirname(this.path), { recursive: true });
    const temp = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, randomBytes(KEY_BYTES));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(temp, this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temp);
    }
    const key = this.key();
    if (!key) throw unreadable(`the key file ${this.path} vanished as it was made`);
    return key;
  }
}

export interface SecretStoreOptions {
  readonly dataDir: string;
  /** The desktop shell's OS keychain; absent in browser mode and the CLI. */
  readonly keychain?: OsKeychain;
  /** Something the user must be told: a value that reads as not set, and why; a key file made private. */
  readonly notice?: (message: string) => void;
}

/**
 * Seals the secrets Homebody keeps (mail passwords, MCP tokens) before they reach the database, and opens them
 * for the code that uses them. Sealed values are text: a prefix naming who sealed them, then base64.
 *
 * With the OS keychain (the desktop app), the key never touches the disk in a form Homebody could read alone.
 * Without it (browser mode, the CLI, a Linux desktop with no keyring), the key is a file in the data folder that
 * only its owner may read: that keeps secrets out of the database file, its exports and backups of it alone, and
 * logs, but any program running as the same user can read the key.
 *
 * A value that can no longer be opened (the key file deleted with the user's data, a value altered, one sealed
 * by the desktop app's keychain read in browser mode) reads as not set, with a notice; never a crash.
 */
export class SecretStore {
  readonly protection: SecretProtection;
  /** Where the key file is (or would be); the storage report lists it. */
  readonly keyFile: string;
  private readonly primary: SecretCipher;
  private readonly keyFileCipher: KeyFileCipher;
  private readonly keychain: OsKeychain | undefined;
  private readonly told = new Set<string>();

  constructor(private readonly options: SecretStoreOptions) {
    this.keyFile = join(options.dataDir, KEY_FILE);
    this.keychain = options.keychain;
    this.keyFileCipher = new KeyFileCipher(this.keyFile, (message) => this.tell(message));
    this.primary = options.keychain?.available ? options.keychain.cipher : this.keyFileCipher;
    this.protection = this.primary.kind;
  }

  seal(plain: string): string {
    return PREFIX[this.primary.kind] + this.primary.encrypt(plain).toString('base64');
  }

  /** The plain text; throws a clear SECRET_STORE_ERROR when the value cannot be opened. */
  openOrThrow(sealed: string): string {
    const kind = sealedKind(sealed);
    if (!kind) throw unreadable('it is not a sealed value');
    const body = Buffer.from(sealed.slice(PREFIX[kind].length), 'base64');
    if (kind === 'key-file') return this.keyFileCipher.decrypt(body);
    if (!this.keychain?.available) {
      throw unreadable(
        'it was sealed with the OS keychain by the desktop app, which browser mode and the command line cannot use',
      );
    }
    return this.keychain.cipher.decrypt(body);
  }

  /** The plain text, or null when it cannot be opened: then it reads as not set and the user is told why. */
  open(sealed: string, what: string): string | null {
    try {
      return this.openOrThrow(sealed);
    } catch (error) {
      const why = error instanceof HomebodyError ? error.message : 'it could not be decrypted';
      this.tell(`${what} could not be decrypted (${why}), so it reads as not set: enter it again in Settings.`);
      return null;
    }
  }

  /** Whether a stored value was sealed by the cipher in use now; a value sealed otherwise is sealed again at start. */
  isCurrent(sealed: string): boolean {
    return sealedKind(sealed) === this.primary.kind;
  }

  /** For the Privacy page's storage report (StorageReport['secrets']). */
  report(): { protection: SecretProtection; description: string } {
    if (this.protection === 'os-keychain') {
      const backend = this.keychain?.available ? ` (${this.keychain.backend})` : '';
      return {
        protection: 'os-keychain',
        description:
          `Mail passwords and MCP server tokens are encrypted with your operating system's keychain${backend} ` +
          'before they are written to the database; the database, its exports and the logs never hold them in clear.',
      };
    }
    const why =
      this.keychain && !this.keychain.available ? ` The OS keychain is not used: ${this.keychain.reason}` : '';
    return {
      protection: 'key-file',
      description:
        `Mail passwords and MCP server tokens are encrypted (AES-256-GCM) with a key kept in ${this.keyFile}, which ` +
        'only your user may read. This keeps them out of the database file, its exports and backups of it alone, ' +
        'and the logs; but any program running as your user can read the key file. The desktop app uses the OS ' +
        `keychain instead where one is available.${why}`,
    };
  }

  private tell(message: string): void {
    if (this.told.has(message)) return;
    this.told.add(message);
    this.options.notice?.(message);
  }
}

/** Who sealed a stored value, or null when it is not a sealed value (clear text from before sealing). */
export function sealedKind(value: string): SecretProtection | null {
  if (value.startsWith(PREFIX['key-file'])) return 'key-file';
  if (value.startsWith(PREFIX['os-keychain'])) return 'os-keychain';
  return null;
}
