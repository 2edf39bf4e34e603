/**
 * Adding a card to an address book file that is already in the contacts folder: the path is confined to the folder
 * by the path guard, the old file is copied into the trash first (undo puts it back), and the new bytes replace it
 * in one rename. Bytes, not text: a file in a legacy charset or UTF-16 keeps every byte it had.
 */
import { constants } from 'node:fs';
import { copyFile, readFile, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { fsError, resolveForCreate, writeFileAtomically } from '../../sandbox/pathGuard.js';
import type { ToolContext, UndoRecord } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { packRoots } from '../calendar/calendarWrites.js';
import { lstatOrNull, trashSlot } from '../files/fsHelpers.js';
import { isVcfName, MAX_VCF_BYTES } from './vcards.js';

export interface AddressBookFile {
  /** The file's name in the contacts folder. */
  readonly name: string;
  /** Its confined absolute path. */
  readonly path: string;
  readonly mode: number;
  readonly bytes: Uint8Array;
}

/** The address book `name` in the contacts folder, read whole; refused when it is not a plain .vcf file there. */
export async function openAddressBook(ctx: ToolContext, name: string): Promise<AddressBookFile> {
  const dir = ctx.packs.contactsDir;
  if (name !== path.basename(name) || name.includes('\\') || !isVcfName(name)) {
    throw new ToolError(
      'INVALID_INPUT',
      `"${name}" is not the name of a .vcf file in the contacts folder (give just the file name, e.g. "contacts.vcf").`,
    );
  }
  const { path: file } = await resolveForCreate(packRoots(dir), path.join(dir, name));
  const info = await lstatOrNull(file);
  if (info === undefined) throw new ToolError('NOT_FOUND', `The contacts folder has no file ${name}.`);
  if (!info.isFile()) throw new ToolError('NOT_A_FILE', `${name} is not a regular file.`);
  if (info.size > MAX_VCF_BYTES) {
    throw new ToolError('TOO_LARGE', `${name} is larger than ${MAX_VCF_BYTES / (1024 * 1024)} MB; nothing was added.`);
  }
  const bytes = await readFile(file).catch((err: unknown) => {
    throw fsError(err, file);
  });
  return { name, path: file, mode: info.mode, bytes };
}

/**
 * Replaces the file with `bytes`, its old version copied into the trash first; refused when the file changed since
 * it was read (another app syncing it), so that nothing it wrote is lost.
 */
export async function replaceAddressBook(
  ctx: ToolContext,
  book: AddressBookFile,
  bytes: Uint8Array,
): Promise<UndoRecord> {
  const now = await readFile(book.path).catch((err: unknown) => {
    throw fsError(err, book.path);
  });
  if (!Buffer.from(now).equals(Buffer.from(book.bytes))) {
    throw new ToolError(
      'ALREADY_EXISTS',
      `${book.name} was changed by something else just now; nothing was added. Try again.`,
    );
  }
  const backup = await trashSlot(ctx, book.name);
  try {
    await copyFile(book.path, backup, constants.COPYFILE_EXCL);
  } catch (err) {
    await rmdir(path.dirname(backup)).catch(() => undefined);
    throw fsError(err, book.path);
  }
  try {
    await writeFileAtomically(book.path, bytes, { mode: book.mode & 0o7777 });
  } catch (err) {
    await rm(path.dirname(backup), { recursive: true, force: true }).catch(() => undefined);
    throw fsError(err, book.path);
  }
  return { kind: 'restore-file', path: book.path, backup };
}
