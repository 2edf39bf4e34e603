/**
 * The contacts folder: every .vcf file in it, from any app (vCard 2.1 from Outlook and Android, 3.0 from Apple and
 * Google, 4.0; one card or many per file), read card by card. A card that cannot be read (one that never ends,
 * lines outside any card) is named and skipped and the rest of its file is read; no file is ever changed by reading.
 *
 * Read by hand because no npm parser reads these files card by card: ical.js (MPL-2.0, well kept, what the pack used
 * before) knows 3.0 and 4.0 only and fails a whole file on one line it dislikes; vcf (MIT) decodes no
 * quoted-printable or escapes and splits lines on CRLF only; vcard4 and vcard4-ts read 4.0 only.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fsError } from '../../sandbox/pathGuard.js';
import { ToolError } from '../../toolTypes.js';
import type { Property } from './vcardProperty.js';
import { listValue, parseProperty, structuredValue, textValue } from './vcardProperty.js';
import type { DecodedText, RawCard, TextEncoding } from './vcardText.js';
import { decodeVcfBytes, splitCards } from './vcardText.js';

export const MAX_VCF_BYTES = 20 * 1024 * 1024;
export const MAX_VCF_FILES = 5000;
/** Problems named per file at most; past that a count. */
const MAX_PROBLEMS_PER_FILE = 10;

export type VcardVersion = '2.1' | '3.0' | '4.0';

export interface FileProblem {
  readonly file: string;
  readonly problem: string;
  /** The card's place in the file (from 1), when the problem is one card's. */
  readonly card?: number;
  readonly line?: number;
}

/** An email address or phone number with the types the card gives it (lower case: "work", "cell", "pref"). */
export interface ContactEntry {
  readonly value: string;
  readonly types: readonly string[];
}

/** N: family; given; additional; prefixes; suffixes (each list joined with spaces). */
export interface StructuredName {
  readonly family: string;
  readonly given: string;
  readonly additional: string;
  readonly prefix: string;
  readonly suffix: string;
}

export interface Contact {
  /** The name shown: FN, else one made from N, a nickname, the company or the email; "(no name)" when none. */
  readonly name: string;
  readonly fn?: string;
  readonly n?: StructuredName;
  readonly nicknames: readonly string[];
  /** Apple's phonetic names (X-PHONETIC-FIRST-NAME, X-PHONETIC-LAST-NAME): how the name is said. */
  readonly phonetic: readonly string[];
  readonly emails: readonly ContactEntry[];
  readonly phones: readonly ContactEntry[];
  readonly organization?: string;
  readonly title?: string;
  /** The card's VERSION; undefined when it has none. */
  readonly version?: VcardVersion;
  readonly file: string;
  /** Its place among the file's cards, from 1. */
  readonly card: number;
  readonly line: number;
}

function versionOf(value: string | undefined): VcardVersion | undefined {
  const number = Number.parseFloat(value ?? '');
  if (!Number.isFinite(number)) return undefined;
  if (number < 3) return '2.1';
  return number < 4 ? '3.0' : '4.0';
}

const present = (text: string | undefined): string | undefined => {
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
};

function structuredName(p: Property, encoding: TextEncoding): StructuredName {
  const [family, given, additional, prefix, suffix] = structuredValue(p, encoding).map((list) =>
    list
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .join(' '),
  );
  return {
    family: family ?? '',
    given: given ?? '',
    additional: additional ?? '',
    prefix: prefix ?? '',
    suffix: suffix ?? '',
  };
}

function entry(p: Property, encoding: TextEncoding, scheme: RegExp): ContactEntry | undefined {
  const value = present(textValue(p, encoding)?.replace(scheme, ''));
  return value === undefined ? undefined : { value, types: p.types };
}

/** What a card says of a person, and the lines in it that are no vCard property. */
export function contactFromCard(
  raw: RawCard,
  file: string,
  encoding: TextEncoding,
): { contact: Contact; unreadLines: number[] } {
  const unreadLines: number[] = [];
  let fn: string | undefined;
  let n: StructuredName | undefined;
  let organization: string | undefined;
  let title: string | undefined;
  let version: VcardVersion | undefined;
  const nicknames: string[] = [];
  const phonetic: string[] = [];
  const emails: ContactEntry[] = [];
  const phones: ContactEntry[] = [];
  for (const line of raw.lines) {
    const p = parseProperty(line);
    if (p === undefined) {
      unreadLines.push(line.line);
      continue;
    }
    switch (p.name) {
      case 'VERSION':
        version ??= versionOf(p.raw.trim());
        break;
      case 'FN':
        fn ??= present(textValue(p, encoding));
        break;
      case 'N':
        n ??= structuredName(p, encoding);
        break;
      case 'NICKNAME':
        nicknames.push(...listValue(p, encoding).flatMap((s) => present(s) ?? []));
        break;
      case 'X-PHONETIC-FIRST-NAME':
      case 'X-PHONETIC-LAST-NAME': {
        const said = present(textValue(p, encoding));
        if (said) phonetic.push(said);
        break;
      }
      case 'EMAIL': {
        const email = entry(p, encoding, /^mailto:/i);
        if (email) emails.push(email);
        break;
      }
      case 'TEL': {
        const phone = entry(p, encoding, /^tel:/i);
        if (phone) phones.push(phone);
        break;
      }
      case 'ORG':
        organization ??= present(
          structuredValue(p, encoding, false)
            .flat()
            .map((s) => s.trim())
            .filter((s) => s !== '')
            .join(', '),
        );
        break;
      case 'TITLE':
        title ??= present(textValue(p, encoding));
        break;
      default:
        break;
    }
  }
  const fromN = n ? present([n.given, n.additional, n.family].filter((s) => s !== '').join(' ')) : undefined;
  const name = fn ?? fromN ?? nicknames[0] ?? organization ?? emails[0]?.value ?? '(no name)';
  const contact: Contact = {
    name,
    ...(fn !== undefined ? { fn } : {}),
    ...(n !== undefined ? { n } : {}),
    nicknames,
    phonetic,
    emails,
    phones,
    ...(organization !== undefined ? { organization } : {}),
    ...(title !== undefined ? { title } : {}),
    ...(version !== undefined ? { version } : {}),
    file,
    card: raw.index,
    line: raw.line,
  };
  return { contact, unreadLines };
}

function listed(lines: number[]): string {
  const shown = lines.slice(0, 5).join(', ');
  return lines.length > 5 ? `${shown} and ${lines.length - 5} more` : shown;
}

/** How a card is named in a problem: its place, its line, and its FN when it has one. */
function cardLabel(raw: RawCard, encoding: TextEncoding): string {
  const fnLine = raw.lines.map(parseProperty).find((p) => p?.name === 'FN');
  const fn = fnLine ? present(textValue(fnLine, encoding)) : undefined;
  return `card ${raw.index} (line ${raw.line}${fn ? `, "${fn.slice(0, 80)}"` : ''})`;
}

export interface AddressBook {
  readonly contacts: Contact[];
  readonly problems: FileProblem[];
  readonly decoded: DecodedText;
}

/** One file's cards and what could not be read of it. */
export function parseVcfBytes(bytes: Uint8Array, file: string): AddressBook {
  const decoded = decodeVcfBytes(bytes);
  const { cards, stray } = splitCards(decoded.text);
  const contacts: Contact[] = [];
  const problems: FileProblem[] = [];
  for (const raw of cards) {
    if (!raw.ended) {
      problems.push({
        file,
        card: raw.index,
        line: raw.line,
        problem: `${cardLabel(raw, decoded.encoding)} has no END:VCARD; it was skipped`,
      });
      continue;
    }
    const { contact, unreadLines } = contactFromCard(raw, file, decoded.encoding);
    contacts.push(contact);
    if (unreadLines.length > 0) {
      problems.push({
        file,
        card: raw.index,
        line: unreadLines[0] as number,
        problem:
          `${cardLabel(raw, decoded.encoding)}: ${unreadLines.length === 1 ? 'line' : 'lines'} ` +
          `${listed(unreadLines)} ${unreadLines.length === 1 ? 'is' : 'are'} not a vCard property and ` +
          `${unreadLines.length === 1 ? 'was' : 'were'} ignored`,
      });
    }
  }
  for (const lines of stray) {
    problems.push({
      file,
      line: lines.from,
      problem:
        lines.from === lines.to
          ? `line ${lines.from} is outside any card and was skipped`
          : `lines ${lines.from}-${lines.to} are outside any card (is a BEGIN:VCARD missing?) and were skipped`,
    });
  }
  if (contacts.length === 0) {
    const reasons = problems.map((p) => p.problem);
    const why = reasons.length > 0 ? reasons.slice(0, 3).join('; ') : 'it holds no BEGIN:VCARD';
    return { contacts, problems: [{ file, problem: `${file} is not a valid vCard file: ${why}.` }], decoded };
  }
  const shown = problems
    .sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
    .slice(0, MAX_PROBLEMS_PER_FILE)
    .map((p) => ({ ...p, problem: `${file}: ${p.problem}.` }));
  if (problems.length > MAX_PROBLEMS_PER_FILE) {
    shown.push({ file, problem: `${file}: ${problems.length - MAX_PROBLEMS_PER_FILE} more problems like these.` });
  }
  return { contacts, problems: shown, decoded };
}

/** The cards of a file's text; throws INVALID_INPUT when not one card in it can be read. */
export function parseVcardText(text: string, name: string): Contact[] {
  const book = parseVcfBytes(Buffer.from(text, 'utf8'), name);
  if (book.contacts.length === 0) {
    throw new ToolError('INVALID_INPUT', book.problems[0]?.problem ?? `${name} is not a valid vCard file.`);
  }
  return book.contacts;
}

/** Reads one file of the folder (already a path inside it), refusing one too large. */
export async function readVcfFile(file: string, name: string): Promise<Uint8Array> {
  const info = await stat(file).catch((err: unknown) => {
    throw fsError(err, file);
  });
  if (info.size > MAX_VCF_BYTES) {
    throw new ToolError('TOO_LARGE', `${name} is larger than ${MAX_VCF_BYTES / (1024 * 1024)} MB; it was skipped.`);
  }
  return readFile(file).catch((err: unknown) => {
    throw fsError(err, file);
  });
}

export function isVcfName(name: string): boolean {
  return !name.startsWith('.') && /\.(vcf|vcard)$/i.test(name);
}

export async function readContactsFolder(
  dir: string,
  signal: AbortSignal,
): Promise<{ contacts: Contact[]; problems: FileProblem[] }> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true }))
      .filter((d) => d.isFile() && isVcfName(d.name))
      .map((d) => d.name)
      .sort();
  } catch (err) {
    throw fsError(err, dir);
  }
  const contacts: Contact[] = [];
  const problems: FileProblem[] = [];
  if (names.length > MAX_VCF_FILES) {
    problems.push({ file: dir, problem: `Only the first ${MAX_VCF_FILES} of ${names.length} .vcf files were read.` });
  }
  for (const name of names.slice(0, MAX_VCF_FILES)) {
    signal.throwIfAborted();
    try {
      const book = parseVcfBytes(await readVcfFile(path.join(dir, name), name), name);
      contacts.push(...book.contacts);
      problems.push(...book.problems);
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      problems.push({ file: name, problem: err.message });
    }
  }
  return { contacts, problems };
}
