/**
 * A .vcf file's bytes as cards of content lines, whatever wrote it: vCard 2.1 (Outlook, Android, BlackBerry), 3.0
 * (Apple, Google) and 4.0; any line ending (CRLF, LF, CR, and the CR CR LF some iPhone exports have); folded lines;
 * 2.1's quoted-printable soft line breaks and base64 blocks whose lines are not indented. One card that does not
 * end, or lines outside every card, are named and skipped; the cards around them are read.
 */

/** How the file's bytes became text. `legacy`: not UTF-8; each byte is one character, decoded later per value. */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'legacy';

export interface DecodedText {
  readonly text: string;
  readonly encoding: TextEncoding;
  /** The file starts with a byte order mark (kept when the file is written). */
  readonly bom: boolean;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeVcfBytes(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return utf16(bytes, 'utf-16le', true);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return utf16(bytes, 'utf-16be', true);
  // Without a byte order mark, "BEGIN" in UTF-16 shows as letters and zero bytes taking turns.
  if (bytes.length >= 4 && bytes[1] === 0 && bytes[3] === 0 && bytes[0] !== 0) return utf16(bytes, 'utf-16le', false);
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[2] === 0 && bytes[1] !== 0) return utf16(bytes, 'utf-16be', false);
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  try {
    return { text: UTF8.decode(body), encoding: 'utf-8', bom };
  } catch {
    return {
      text: Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1'),
      encoding: 'legacy',
      bom,
    };
  }
}

function utf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be', bom: boolean): DecodedText {
  const body = bom ? bytes.subarray(2) : bytes;
  return { text: new TextDecoder(encoding, { ignoreBOM: true }).decode(body), encoding, bom };
}

/** One property line with its folds undone, and the physical line (1-based) it starts on. */
export interface ContentLine {
  readonly text: string;
  readonly line: number;
}

export interface RawCard {
  /** Its place among the file's cards, from 1. */
  readonly index: number;
  /** The line of its BEGIN:VCARD. */
  readonly line: number;
  /** Its content lines, without BEGIN and END (and without a vCard nested in a 2.1 AGENT). */
  readonly lines: readonly ContentLine[];
  /** False when the file ended, or another card began, before its END:VCARD. */
  readonly ended: boolean;
}

/** Lines that belong to no card (a card whose BEGIN:VCARD is missing, or text around the cards). */
export interface StrayLines {
  readonly from: number;
  readonly to: number;
}

export interface SplitText {
  readonly cards: RawCard[];
  readonly stray: StrayLines[];
}

/** Any line ending: CRLF, LF, CR, and CR CR LF (one line end, not an empty line between two). */
export const LINE_BREAK = /\r*\n|\r/;

/** The part of a content line before its value: up to the first colon outside double quotes. */
export function headOf(text: string): string | undefined {
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === ':' && !quoted) return text.slice(0, i);
  }
  return undefined;
}

const BEGIN = /^\s*BEGIN\s*:\s*VCARD\s*$/i;
const END = /^\s*END\s*:\s*VCARD\s*$/i;
const QP_HEAD = /(?:^|;)\s*(?:ENCODING\s*=\s*)?QUOTED-PRINTABLE\s*(?:;|$)/i;
const BASE64_HEAD = /(?:^|;)\s*(?:ENCODING\s*=\s*"?(?:B|BASE64)"?|BASE64)\s*(?:;|$)/i;
const BASE64_LINE = /^[A-Za-z0-9+/=]+$/;

class LogicalLine {
  private parts: string[];
  private head: string | undefined;
  private length: number;
  constructor(
    first: string,
    readonly line: number,
  ) {
    this.parts = [first];
    this.length = first.length;
    this.head = headOf(first);
  }
  append(text: string): void {
    this.parts.push(text);
    this.length += text.length;
    // A name and parameters folded over lines; past a few kilobytes without a colon it is no property anyway.
    if (this.head === undefined && this.length < 4096) this.head = headOf(this.parts.join(''));
  }
  /** A quoted-printable value whose last line ends in "=": the next line goes on with it. */
  softBreak(): boolean {
    const last = this.parts[this.parts.length - 1] ?? '';
    if (!last.endsWith('=') || this.head === undefined || !QP_HEAD.test(this.head)) return false;
    this.parts[this.parts.length - 1] = last.slice(0, -1);
    return true;
  }
  base64(): boolean {
    return this.head !== undefined && BASE64_HEAD.test(this.head);
  }
  done(): ContentLine {
    return { text: this.parts.join(''), line: this.line };
  }
}

/** The file's content lines: folds joined, soft line breaks and unindented base64 blocks taken in. */
export function contentLines(text: string): ContentLine[] {
  const physical = text.split(LINE_BREAK);
  const out: ContentLine[] = [];
  let current: LogicalLine | undefined;
  const close = (): void => {
    if (current) out.push(current.done());
    current = undefined;
  };
  for (let i = 0; i < physical.length; i += 1) {
    const raw = physical[i] ?? '';
    const number = i + 1;
    if (raw.trim() === '') {
      // A blank line ends a line; in 2.1 it is how a base64 block ends.
      close();
      continue;
    }
    const boundary = BEGIN.test(raw) || END.test(raw);
    if (!boundary && current?.softBreak()) current.append(raw);
    else if (current && (raw[0] === ' ' || raw[0] === '\t')) current.append(raw.slice(1));
    else if (current?.base64() && BASE64_LINE.test(raw.trim())) current.append(raw.trim());
    else {
      close();
      current = new LogicalLine(raw, number);
    }
  }
  close();
  return out;
}

/** vCard 2.1 nests the agent's own card right after an empty AGENT property. */
const AGENT_OPENS = /^\s*(?:[A-Za-z0-9_-]+\.)?AGENT(?:;[^:]*)?:\s*$/i;

/** The cards of a file's text, each with its content lines; a card cut short is kept with `ended: false`. */
export function splitCards(text: string): SplitText {
  const cards: RawCard[] = [];
  const stray: StrayLines[] = [];
  let open: { line: number; lines: ContentLine[] } | undefined;
  let nested = 0;
  let previous = '';
  const finish = (ended: boolean): void => {
    if (open) cards.push({ index: cards.length + 1, line: open.line, lines: open.lines, ended });
    open = undefined;
    nested = 0;
  };
  const strayLine = (line: number): void => {
    const last = stray[stray.length - 1];
    if (last && last.to >= line - 1) stray[stray.length - 1] = { from: last.from, to: line };
    else stray.push({ from: line, to: line });
  };
  for (const content of contentLines(text)) {
    if (BEGIN.test(content.text)) {
      if (open && (nested > 0 || AGENT_OPENS.test(previous))) nested += 1;
      else {
        finish(false);
        open = { line: content.line, lines: [] };
      }
    } else if (END.test(content.text)) {
      if (!open) strayLine(content.line);
      else if (nested > 0) nested -= 1;
      else finish(true);
    } else if (!open) strayLine(content.line);
    else if (nested === 0) open.lines.push(content);
    previous = content.text;
  }
  finish(false);
  return { cards, stray };
}
