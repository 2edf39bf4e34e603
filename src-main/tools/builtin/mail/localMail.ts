/**
 * Reading mail from local files other apps keep: a Maildir (cur/ and new/, one file per message) or an mbox file
 * (messages one after the other, each starting with a "From " line). Everything read here is untrusted content.
 */
import { createHash } from 'node:crypto';
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fsError } from '../../sandbox/pathGuard.js';
import { ToolError } from '../../toolTypes.js';

/** How many messages a listing looks at, newest first: enough for "recent", bounded for a huge mailbox. */
export const MAX_SCAN = 2000;
/** Bytes read of one message (the rest is cut, and the reader says so). */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/** Bytes of an mbox file read, from its end (where the newest messages are). */
export const MAX_MBOX_BYTES = 64 * 1024 * 1024;
/** The header block of a message is looked for in this many first bytes. */
const HEADER_BYTES = 64 * 1024;

/** One message found in a local source, before it is parsed. */
export interface RawMessage {
  /** Stable across calls when the message has a Message-ID, else derived from where it is. */
  readonly key: string;
  /** Reads the message's bytes: only its header block, or all of it (up to MAX_MESSAGE_BYTES). */
  read(part: 'headers' | 'all'): Promise<{ bytes: Buffer; truncated: boolean }>;
}

/** A short id the model can copy: 10 hex digits of a hash. */
export function shortId(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 10);
}

/** The header block (up to and including the blank line), or the bytes as they are when none ends in them. */
export function headerBlock(bytes: Buffer): Buffer {
  const crlf = bytes.indexOf('\r\n\r\n');
  const lf = bytes.indexOf('\n\n');
  const ends = [crlf >= 0 ? crlf + 4 : -1, lf >= 0 ? lf + 2 : -1].filter((n) => n >= 0);
  return ends.length ? bytes.subarray(0, Math.min(...ends)) : bytes;
}

async function readStart(file: string, max: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const length = Math.min(size, max);
    const bytes = Buffer.alloc(length);
    await handle.read(bytes, 0, length, 0);
    return { bytes, truncated: size > max };
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

/** The messages of a Maildir, newest delivery first (file times; Maildir keeps no other order). */
export async function maildirMessages(folder: string): Promise<RawMessage[]> {
  const entries: Array<{ file: string; name: string; mtime: number }> = [];
  let foundSubfolder = false;
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
      const file = path.join(folder, sub, name);
      const stats = await stat(file).catch(() => undefined);
      if (stats?.isFile()) entries.push({ file, name, mtime: stats.mtimeMs });
    }
  }
  if (!foundSubfolder) {
    const exists = await stat(folder).catch(() => undefined);
    if (!exists) throw notFound(folder);
    throw new ToolError('INVALID_INPUT', `${folder} is not a Maildir: it has no cur/ or new/ folder.`);
  }
  entries.sort((a, b) => b.mtime - a.mtime);
  return entries.slice(0, MAX_SCAN).map(({ file, name }) => ({
    // The part before ":2,flags" names the message for good; the flags change as it is read or answered.
    key: `maildir:${name.split(':')[0]}`,
    read: async (part) => {
      const { bytes, truncated } = await readStart(file, part === 'headers' ? HEADER_BYTES : MAX_MESSAGE_BYTES);
      return part === 'headers' ? { bytes: headerBlock(bytes), truncated: false } : { bytes, truncated };
    },
  }));
}

/** mboxrd escapes body lines that start with "From " as ">From "; one ">" comes off again. */
function unescapeMbox(text: string): string {
  return text.replace(/^>(>*From )/gm, '$1');
}

/** The messages of an mbox file, last first (mail programs append new mail at the end). */
export async function mboxMessages(file: string): Promise<RawMessage[]> {
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
  const start = Math.max(0, size - MAX_MBOX_BYTES);
  const handle = await open(file, 'r');
  let text: string;
  try {
    const bytes = Buffer.alloc(size - start);
    await handle.read(bytes, 0, bytes.length, start);
    // latin1 keeps every byte as one character, so the messages go back to bytes unchanged for the parser.
    text = bytes.toString('latin1');
  } finally {
    await handle.close();
  }
  // Read from the middle of a big file: the first whole message starts at the first separator.
  if (start > 0) {
    const first = text.indexOf('\nFrom ');
    text = first >= 0 ? text.slice(first + 1) : '';
  }
  if (text.trim() !== '' && !text.startsWith('From ')) {
    throw new ToolError('INVALID_INPUT', `${file} is not an mbox file: it does not start with a "From " line.`);
  }
  const parts = text.split(/\r?\n(?=From )/).filter((p) => p.startsWith('From '));
  return parts
    .map((part) => {
      const body = unescapeMbox(part.slice(part.indexOf('\n') + 1));
      const bytes = Buffer.from(body, 'latin1');
      return {
        key: `mbox:${createHash('sha256').update(bytes.subarray(0, 4096)).digest('hex')}`,
        read: async (which: 'headers' | 'all') => {
          if (which === 'headers') return { bytes: headerBlock(bytes.subarray(0, HEADER_BYTES)), truncated: false };
          const truncated = bytes.length > MAX_MESSAGE_BYTES;
          return { bytes: truncated ? bytes.subarray(0, MAX_MESSAGE_BYTES) : bytes, truncated };
        },
      };
    })
    .reverse()
    .slice(0, MAX_SCAN);
}
