/**
 * Reading mail from local files other apps keep: a Maildir (cur/ and new/, one file per message) or an mbox file
 * (messages one after the other, each starting with a "From " line). Everything read here is untrusted content.
 *
 * Each message has an id that names it alone and for good, whatever its headers say (real mailboxes repeat
 * Message-IDs): in a Maildir the file's unique name, the part before ":2,flags" (the flags change as the message is
 * read or answered; the name does not); in an mbox its place among the "From " lines and a hash of its bytes, so a
 * message is found again after the messages before it were removed, and an id whose message is gone is an error,
 * never another message.
 */
import { createHash } from 'node:crypto';
import { open, readdir, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { fsError } from '../../sandbox/pathGuard.js';
import { ToolError } from '../../toolTypes.js';

/** How many messages a listing looks at, newest first: enough for "recent", bounded for a huge mailbox. */
export const MAX_SCAN = 2000;
/** Bytes read of one message (the rest is cut, and the reader says so). */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/** The header block of a message is looked for in this many first bytes. */
const HEADER_BYTES = 64 * 1024;
/** An mbox file is scanned for its "From " lines in pieces of this size. */
const SCAN_CHUNK_BYTES = 4 * 1024 * 1024;

/** One message found in a local source, before it is parsed. */
export interface RawMessage {
  /** What mail_inbox lists and mail_read takes (an mbox message is hashed for it: asked only of what is shown). */
  id(): Promise<string>;
  /** Reads the message's bytes: only its header block, or all of it (up to MAX_MESSAGE_BYTES). */
  read(part: 'headers' | 'all'): Promise<{ bytes: Buffer; truncated: boolean }>;
}

/** The header block (up to and including the blank line), or the bytes as they are when none ends in them. */
export function headerBlock(bytes: Buffer): Buffer {
  const crlf = bytes.indexOf('\r\n\r\n');
  const lf = bytes.indexOf('\n\n');
  const ends = [crlf >= 0 ? crlf + 4 : -1, lf >= 0 ? lf + 2 : -1].filter((n) => n >= 0);
  return ends.length ? bytes.subarray(0, Math.min(...ends)) : bytes;
}

async function readRange(handle: FileHandle, start: number, length: number): Promise<Buffer> {
  const bytes = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(bytes, done, length - done, start + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return bytes.subarray(0, done);
}

async function readStart(file: string, max: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    return { bytes: await readRange(handle, 0, Math.min(size, max)), truncated: size > max };
  } finally {
    await handle.close();
  }
}

function notFound(source: string): ToolError {
  return new ToolError(
    'NOT_FOUND',
    `The mail source ${source} does not exist. Check the mail settings (the Maildir folder or mbox file).`,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Maildir

/** A Maildir file's unique name: its name without the ":2,flags" info part. */
export function maildirUniqueName(fileName: string): string {
  const colon = fileName.indexOf(':');
  return colon >= 0 ? fileName.slice(0, colon) : fileName;
}

interface MaildirEntry {
  readonly file: string;
  readonly id: string;
  readonly mtime: number;
}

async function maildirEntries(folder: string): Promise<MaildirEntry[]> {
  const entries: MaildirEntry[] = [];
  const seen = new Set<string>();
  let foundSubfolder = false;
  // new/ first: a message moved to cur/ while this runs is then still found once, under the same unique name.
  for (const sub of ['new', 'cur']) {
    let names: string[];
    try {
      names = await readdir(path.join(folder, sub));
      foundSubfolder = true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      throw fsError(err, path.join(folder, sub));
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const id = maildirUniqueName(name);
      if (seen.has(id)) continue;
      const file = path.join(folder, sub, name);
      const stats = await stat(file).catch(() => undefined);
      if (!stats?.isFile()) continue;
      seen.add(id);
      entries.push({ file, id, mtime: stats.mtimeMs });
    }
  }
  if (!foundSubfolder) {
    const exists = await stat(folder).catch(() => undefined);
    if (!exists) throw notFound(folder);
    throw new ToolError('INVALID_INPUT', `${folder} is not a Maildir: it has no cur/ or new/ folder.`);
  }
  return entries;
}

function maildirMessage({ file, id }: MaildirEntry): RawMessage {
  return {
    id: async () => id,
    read: async (part) => {
      const { bytes, truncated } = await readStart(file, part === 'headers' ? HEADER_BYTES : MAX_MESSAGE_BYTES);
      return part === 'headers' ? { bytes: headerBlock(bytes), truncated: false } : { bytes, truncated };
    },
  };
}

/** The messages of a Maildir, newest delivery first (file times; Maildir keeps no other order). */
export async function maildirMessages(folder: string): Promise<RawMessage[]> {
  const entries = await maildirEntries(folder);
  entries.sort((a, b) => b.mtime - a.mtime || (a.id < b.id ? -1 : 1));
  return entries.slice(0, MAX_SCAN).map(maildirMessage);
}

/** The Maildir message with this unique name; NOT_FOUND names the folder and what to do. */
export async function maildirMessageById(folder: string, id: string): Promise<RawMessage> {
  // Ids are compared with the names listed, never joined into a path: an id cannot name a file elsewhere.
  const entry = (await maildirEntries(folder)).find((e) => e.id === id);
  if (!entry) {
    throw new ToolError(
      'NOT_FOUND',
      `No message has the id "${id}" in the Maildir ${folder} (it may have been deleted or moved to another folder). ` +
        `Use an id from mail_inbox's list.`,
    );
  }
  return maildirMessage(entry);
}

// ---------------------------------------------------------------------------------------------------------------
// mbox

/** Where one message of an mbox file lies: from its "From " line up to (not including) the blank line before the next. */
export interface MboxEntry {
  readonly index: number;
  readonly start: number;
  readonly stop: number;
}

/**
 * The messages of an mbox file as Python's mailbox.mbox finds them: a message starts at every line that starts with
 * "From " and ends before the next one, without the one blank line that separates them.
 */
async function mboxToc(handle: FileHandle, size: number, signal?: AbortSignal): Promise<MboxEntry[]> {
  const starts: number[] = [];
  const stops: number[] = [];
  const found = (lineStart: number, emptyLineBefore: boolean) => {
    // The line before, when empty ("\n" alone), separates the two messages and belongs to neither.
    if (starts.length > stops.length) stops.push(emptyLineBefore ? lineStart - 1 : lineStart);
    starts.push(lineStart);
  };
  const SEPARATOR = '\nFrom ';
  // The last bytes of the piece before are kept in front of the next, so a separator across the border is found.
  const KEEP = SEPARATOR.length + 1;
  let kept = Buffer.alloc(0);
  for (let offset = 0; offset < size; offset += SCAN_CHUNK_BYTES) {
    if (signal?.aborted) throw new ToolError('IO_ERROR', 'Reading the mbox file was cancelled.');
    const chunk = await readRange(handle, offset, Math.min(SCAN_CHUNK_BYTES, size - offset));
    if (offset === 0 && chunk.subarray(0, 5).toString('latin1') === 'From ') found(0, false);
    const window = Buffer.concat([kept, chunk]);
    const base = offset - kept.length;
    for (let at = window.indexOf(SEPARATOR); at >= 0; at = window.indexOf(SEPARATOR, at + 1)) {
      // One wholly inside the kept bytes was found in the piece before.
      if (at + SEPARATOR.length <= kept.length) continue;
      const lineStart = base + at + 1;
      found(lineStart, lineStart === 1 || window[at - 1] === 0x0a);
    }
    kept = window.subarray(Math.max(0, window.length - KEEP));
  }
  if (starts.length > stops.length) {
    const tail = await readRange(handle, Math.max(0, size - 2), Math.min(2, size));
    // The file's last line is empty: it ends in "\n\n", or is one "\n" after the last "From " line's end.
    const emptyLast = tail.length === 2 && tail[0] === 0x0a && tail[1] === 0x0a && size - 1 > starts.at(-1)!;
    stops.push(emptyLast ? size - 1 : size);
  }
  return starts.map((start, index) => ({ index, start, stop: stops[index]! }));
}

/** The bytes of an mbox message that its hash covers: its length, and its first MAX_MESSAGE_BYTES bytes. */
async function mboxHash(handle: FileHandle, entry: MboxEntry): Promise<string> {
  const length = entry.stop - entry.start;
  const bytes = await readRange(handle, entry.start, Math.min(length, MAX_MESSAGE_BYTES));
  return createHash('sha256').update(`${length}\n`).update(bytes).digest('hex').slice(0, 10);
}

/** An mbox message's id: "m" and its place (0 for the first message of the file), "-", and its hash. */
export function mboxId(index: number, hash: string): string {
  return `m${index}-${hash}`;
}

/** mboxrd escapes body lines that start with "From " as ">From "; one ">" comes off again. */
function unescapeMbox(text: string): string {
  return text.replace(/^>(>*From )/gm, '$1');
}

/** The message without its "From " line, unescaped. */
function mboxMessageBytes(raw: Buffer): Buffer {
  const lineEnd = raw.indexOf(0x0a);
  const body = lineEnd >= 0 ? raw.subarray(lineEnd + 1) : Buffer.alloc(0);
  // latin1 keeps every byte as one character, so the message goes back to the same bytes for the parser.
  return Buffer.from(unescapeMbox(body.toString('latin1')), 'latin1');
}

interface OpenMbox {
  readonly handle: FileHandle;
  readonly entries: MboxEntry[];
}

async function openMbox(file: string, signal?: AbortSignal): Promise<OpenMbox> {
  let size: number;
  try {
    const stats = await stat(file);
    if (!stats.isFile()) throw new ToolError('INVALID_INPUT', `${file} is not an mbox file (it is not a file).`);
    size = stats.size;
  } catch (err) {
    if (err instanceof ToolError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(file);
    throw fsError(err, file);
  }
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    throw fsError(err, file);
  }
  try {
    const entries = await mboxToc(handle, size, signal);
    const preamble = await readRange(handle, 0, Math.min(entries[0]?.start ?? size, HEADER_BYTES));
    if (preamble.toString('latin1').trim() !== '') {
      throw new ToolError('INVALID_INPUT', `${file} is not an mbox file: it does not start with a "From " line.`);
    }
    return { handle, entries };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

function mboxMessage(file: string, entry: MboxEntry, knownId?: string): RawMessage {
  const withFile = async <T>(work: (handle: FileHandle) => Promise<T>): Promise<T> => {
    const handle = await open(file, 'r');
    try {
      return await work(handle);
    } finally {
      await handle.close();
    }
  };
  const length = entry.stop - entry.start;
  return {
    id: async () => knownId ?? mboxId(entry.index, await withFile((h) => mboxHash(h, entry))),
    read: (part) =>
      withFile(async (handle) => {
        if (part === 'headers') {
          const raw = await readRange(handle, entry.start, Math.min(length, HEADER_BYTES));
          return { bytes: headerBlock(mboxMessageBytes(raw)), truncated: false };
        }
        const raw = await readRange(handle, entry.start, Math.min(length, MAX_MESSAGE_BYTES));
        return { bytes: mboxMessageBytes(raw), truncated: length > MAX_MESSAGE_BYTES };
      }),
  };
}

/** The messages of an mbox file, last first (mail programs append new mail at the end). */
export async function mboxMessages(file: string, signal?: AbortSignal): Promise<RawMessage[]> {
  const { handle, entries } = await openMbox(file, signal);
  await handle.close();
  return entries
    .slice(-MAX_SCAN)
    .reverse()
    .map((entry) => mboxMessage(file, entry));
}

/**
 * The mbox message an id names: at its place when the bytes there still hash the same, else wherever a message with
 * that hash now is (the messages before it were removed). An id whose message is gone is NOT_FOUND, with what to do.
 */
export async function mboxMessageById(file: string, id: string, signal?: AbortSignal): Promise<RawMessage> {
  const match = /^m(\d{1,9})-([0-9a-f]{10})$/.exec(id);
  if (!match) {
    throw new ToolError(
      'NOT_FOUND',
      `"${id}" is not an id from the mbox file ${file} (they look like m12-3fa9c1d2e0). Use an id from mail_inbox's list.`,
    );
  }
  const index = Number(match[1]);
  const hash = match[2]!;
  const { handle, entries } = await openMbox(file, signal);
  try {
    const atPlace = entries[index];
    if (atPlace && (await mboxHash(handle, atPlace)) === hash) return mboxMessage(file, atPlace, id);
    // Nearest first: of two identical copies, the one closest to where the message was.
    const others = entries
      .filter((e) => e !== atPlace)
      .sort((a, b) => Math.abs(a.index - index) - Math.abs(b.index - index));
    for (const entry of others) {
      if (signal?.aborted) break;
      if ((await mboxHash(handle, entry)) === hash) return mboxMessage(file, entry, mboxId(entry.index, hash));
    }
  } finally {
    await handle.close();
  }
  throw new ToolError(
    'NOT_FOUND',
    `The message ${id} is no longer in the mbox file ${file}: the file changed since it was listed (the message was ` +
      `removed or rewritten). List the mail again with mail_inbox and use the new id.`,
  );
}
