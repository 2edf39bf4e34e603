/**
 * A new card as text, in the vCard version of the file it joins (2.1, 3.0 or 4.0) and with that file's line ending,
 * and the bytes that append it to the file without changing a byte that was there. 2.1 values that are not ASCII,
 * or too long for a line, are quoted-printable in UTF-8 (as Outlook and Android write them); 3.0 and 4.0 values
 * are escaped and folded at 75 octets.
 */
import { ToolError } from '../../toolTypes.js';
import type { AddressBook, Contact, VcardVersion } from './vcards.js';
import { parseVcfBytes } from './vcards.js';
import type { DecodedText } from './vcardText.js';
import { LINE_BREAK } from './vcardText.js';

export interface NewCard {
  readonly name: string;
  readonly email?: string;
  readonly phone?: string;
  readonly organization?: string;
  /** A UUID, without "urn:uuid:". */
  readonly uid: string;
}

export const PRODID = '-//Homebody//Homebody Contacts 1.0//EN';

/** Control characters (a new line in a name) would end the line: they become spaces. */
const clean = (text: string): string => text.replace(/\p{Cc}+/gu, ' ').trim();

const PREFIX = /^(?:mr|mrs|ms|mx|miss|dr|prof|sir|dame)\.?$/i;
const SUFFIX = /^(?:jr|sr|ii|iii|iv|v|phd|md|esq)\.?$/i;

/**
 * N's parts of a full name: "Maria João Silva" is given "Maria João", family "Silva"; "Silva, Maria" family first;
 * "Dr." a prefix, ", Jr." a suffix; one word is a given name.
 */
export function nameParts(name: string): { family: string; given: string; prefix: string; suffix: string } {
  let rest = name.trim();
  let suffix = '';
  let family: string | undefined;
  const comma = rest.indexOf(',');
  if (comma >= 0) {
    const before = rest.slice(0, comma).trim();
    const after = rest.slice(comma + 1).trim();
    if (after.split(/\s+/).every((w) => SUFFIX.test(w))) suffix = after;
    else family = before;
    rest = suffix ? before : after;
  }
  const words = rest.split(/\s+/).filter((w) => w !== '');
  const prefix = words.length > 1 && PREFIX.test(words[0] as string) ? (words.shift() as string) : '';
  if (family === undefined) family = words.length > 1 ? (words.pop() as string) : '';
  return { family, given: words.join(' '), prefix, suffix };
}

/** 3.0 and 4.0 text: backslash, comma and semicolon escaped (new lines are already spaces). */
const escapeText = (text: string): string => text.replace(/[\\,;]/g, (c) => `\\${c}`);

/** Cuts a content line into lines of at most 75 octets, each after the first starting with a space. */
export function foldLine(line: string): string[] {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    if (octets + size > 75) {
      out.push(current);
      current = ' ';
      octets = 1;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out;
}

/** 2.1's quoted-printable of UTF-8, cut with soft line breaks ("=" at the end) so no line passes 76 characters. */
export function quotedPrintableLines(head: string, value: string): string[] {
  const encoded: string[] = [];
  for (const byte of Buffer.from(value, 'utf8')) {
    const plain = byte >= 0x21 && byte <= 0x7e && byte !== 0x3d;
    encoded.push(
      plain || byte === 0x20 ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    );
  }
  // A space at the end of a line is lost by some readers: encode the last one.
  if (encoded[encoded.length - 1] === ' ') encoded[encoded.length - 1] = '=20';
  const lines: string[] = [];
  let current = `${head}:`;
  for (const piece of encoded) {
    if (current.length + piece.length > 75) {
      lines.push(`${current}=`);
      current = '';
    }
    current += piece;
  }
  lines.push(current);
  return lines;
}

const ASCII_LINE = /^[\x20-\x7e]*$/;

/** One 2.1 property: as it is when it is short ASCII, else quoted-printable UTF-8. */
function line21(head: string, value: string): string[] {
  if (ASCII_LINE.test(value) && head.length + 1 + value.length <= 76) return [`${head}:${value}`];
  return quotedPrintableLines(
    `${head}${ASCII_LINE.test(value) ? '' : ';CHARSET=UTF-8'};ENCODING=QUOTED-PRINTABLE`,
    value,
  );
}

/** The card's lines, folded, without line endings. */
export function cardLines(card: NewCard, version: VcardVersion): string[] {
  const name = clean(card.name);
  const { family, given, prefix, suffix } = nameParts(name);
  const email = card.email ? clean(card.email) : '';
  const phone = card.phone ? clean(card.phone) : '';
  const organization = card.organization ? clean(card.organization) : '';
  switch (version) {
    case '2.1': {
      // In 2.1 only a semicolon inside a compound value (N, ORG) is escaped.
      const component = (text: string): string => text.replace(/;/g, '\\;');
      return [
        'BEGIN:VCARD',
        'VERSION:2.1',
        ...line21('N', [family, given, '', prefix, suffix].map(component).join(';')),
        ...line21('FN', name),
        ...(email ? line21('EMAIL;INTERNET', email) : []),
        ...(phone ? line21('TEL;VOICE', phone) : []),
        ...(organization ? line21('ORG', component(organization)) : []),
        `UID:${card.uid}`,
        'END:VCARD',
      ];
    }
    case '3.0':
    case '4.0': {
      const v4 = version === '4.0';
      const lines = [
        `VERSION:${version}`,
        `PRODID:${PRODID}`,
        `UID:${v4 ? 'urn:uuid:' : ''}${card.uid}`,
        `FN:${escapeText(name)}`,
        `N:${[family, given, '', prefix, suffix].map(escapeText).join(';')}`,
        ...(email ? [`EMAIL${v4 ? '' : ';TYPE=INTERNET'}:${escapeText(email)}`] : []),
        ...(phone ? [`TEL${v4 ? ';VALUE=text' : ''}:${escapeText(phone)}`] : []),
        ...(organization ? [`ORG:${escapeText(organization)}`] : []),
      ];
      return ['BEGIN:VCARD', ...lines.flatMap(foldLine), 'END:VCARD'];
    }
    default:
      return version satisfies never;
  }
}

export function serializeCard(card: NewCard, version: VcardVersion, eol = '\r\n'): string {
  return cardLines(card, version)
    .map((line) => line + eol)
    .join('');
}

/** The version a new card in this file gets: the one most of its cards have (the later one on a tie). */
export function versionForFile(contacts: readonly Contact[]): VcardVersion | undefined {
  const counts = new Map<VcardVersion, { count: number; last: number }>();
  contacts.forEach((c, i) => {
    if (c.version === undefined) return;
    counts.set(c.version, { count: (counts.get(c.version)?.count ?? 0) + 1, last: i });
  });
  let best: VcardVersion | undefined;
  let score = { count: 0, last: -1 };
  for (const [version, s] of counts) {
    if (s.count > score.count || (s.count === score.count && s.last > score.last)) {
      best = version;
      score = s;
    }
  }
  return best;
}

/** The file's own dominant line ending, for the lines added to it (CRLF when it has none). */
export function lineEndingOf(text: string): string {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(new RegExp(LINE_BREAK.source, 'g'))) {
    counts.set(match[0], (counts.get(match[0]) ?? 0) + 1);
  }
  let best = '\r\n';
  let most = 0;
  for (const [ending, count] of counts) {
    if (count > most) {
      best = ending;
      most = count;
    }
  }
  return best;
}

/** Text in the file's own encoding; a file that is not UTF-8 (nor UTF-16) takes only ASCII. */
function encodeLike(decoded: DecodedText, text: string, file: string): Uint8Array {
  switch (decoded.encoding) {
    case 'utf-8':
      return Buffer.from(text, 'utf8');
    case 'utf-16le':
      return Buffer.from(text, 'utf16le');
    case 'utf-16be':
      return Buffer.from(text, 'utf16le').swap16();
    case 'legacy':
      if (!/^\p{ASCII}*$/u.test(text)) {
        throw new ToolError(
          'INVALID_INPUT',
          `${file} is not UTF-8 text, and this card has letters that only UTF-8 would keep; nothing was changed. ` +
            'Add the contact without naming a file, and it gets a file of its own.',
        );
      }
      return Buffer.from(text, 'latin1');
    default:
      return decoded.encoding satisfies never;
  }
}

export interface Appended {
  readonly bytes: Uint8Array;
  readonly version: VcardVersion;
  readonly added: Contact;
}

const sameReading = (a: readonly Contact[], b: readonly Contact[]): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The file's bytes with the card appended: every byte that was there stays, a line ending goes first when the
 * file's last line has none, and the result is read back before it is offered: the old cards exactly as before and
 * the new one as meant, or nothing is written.
 */
export function appendCard(bytes: Uint8Array, book: AddressBook, card: NewCard, file: string): Appended {
  if (book.contacts.length === 0) {
    throw new ToolError(
      'INVALID_INPUT',
      `${file} holds no card Homebody can read, so it is not clear how to add to it; nothing was changed.`,
    );
  }
  const version = versionForFile(book.contacts) ?? '3.0';
  const text = book.decoded.text;
  const eol = lineEndingOf(text);
  const separator = text === '' || /[\r\n]$/.test(text) ? '' : eol;
  const added = encodeLike(book.decoded, separator + serializeCard(card, version, eol), file);
  const result = new Uint8Array(bytes.length + added.length);
  result.set(bytes, 0);
  result.set(added, bytes.length);

  const after = parseVcfBytes(result, file);
  const last = after.contacts[after.contacts.length - 1];
  const wanted = clean(card.name);
  if (
    after.contacts.length !== book.contacts.length + 1 ||
    !sameReading(after.contacts.slice(0, -1), book.contacts) ||
    last === undefined ||
    last.fn !== wanted ||
    (card.email !== undefined && last.emails[0]?.value !== clean(card.email)) ||
    (card.phone !== undefined && last.phones[0]?.value !== clean(card.phone))
  ) {
    throw new ToolError(
      'INVALID_INPUT',
      `Adding the card to ${file} would not read back as that one card more; nothing was changed. ` +
        'Add the contact without naming a file, and it gets a file of its own.',
    );
  }
  return { bytes: result, version, added: last };
}
