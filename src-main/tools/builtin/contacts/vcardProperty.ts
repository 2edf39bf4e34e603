/**
 * One vCard content line, `[group.]NAME;params:value`, read the way the big writers mean it: 2.1's bare type
 * parameters (`TEL;WORK;VOICE:`), quoted and comma-listed 4.0 parameters (`TYPE="voice,cell"`), Apple's
 * `PHOTO;BASE64:`, quoted-printable and base64 values in the charset they name, and backslash escapes.
 */
import type { ContentLine, TextEncoding } from './vcardText.js';
import { headOf } from './vcardText.js';

export interface Property {
  /** Apple's grouping (`item1.EMAIL`), lower case; undefined when there is none. */
  readonly group: string | undefined;
  /** Upper case. */
  readonly name: string;
  /** Parameter names in upper case, their values as written (quotes removed); bare 2.1 parameters under TYPE. */
  readonly params: ReadonlyMap<string, readonly string[]>;
  /** TYPE values and 2.1 bare parameters, lower case, comma lists split, each once. */
  readonly types: readonly string[];
  /** The value as it stands in the file, before any decoding. */
  readonly raw: string;
  readonly line: number;
}

const NAME = /^[A-Za-z0-9_-]+$/;
/** Bare 2.1 parameters that name the value's encoding rather than a type. */
const BARE_ENCODINGS = new Set(['QUOTED-PRINTABLE', 'BASE64', '8BIT', '7BIT']);

/** Splits on `separator` outside double quotes. */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === separator && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function unquote(value: string): string {
  const trimmed = value.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
}

/** The property on a content line; undefined when the line is not one (no colon, or no valid name). */
export function parseProperty(content: ContentLine): Property | undefined {
  const head = headOf(content.text);
  if (head === undefined) return undefined;
  const [namePart = '', ...paramParts] = splitOutsideQuotes(head, ';');
  const dot = namePart.indexOf('.');
  const group = dot >= 0 ? namePart.slice(0, dot).trim() : undefined;
  const name = (dot >= 0 ? namePart.slice(dot + 1) : namePart).trim();
  if (!NAME.test(name) || (group !== undefined && !NAME.test(group))) return undefined;

  const params = new Map<string, string[]>();
  const add = (key: string, values: string[]): void => {
    params.set(key, [...(params.get(key) ?? []), ...values]);
  };
  for (const part of paramParts) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) {
      const bare = unquote(part);
      add(BARE_ENCODINGS.has(bare.toUpperCase()) ? 'ENCODING' : 'TYPE', [bare]);
    } else {
      add(part.slice(0, eq).trim().toUpperCase(), splitOutsideQuotes(part.slice(eq + 1), ',').map(unquote));
    }
  }
  // RFC 6350 writes a list of types in one quoted value (TYPE="voice,cell"); 2.1 and 3.0 repeat TYPE instead.
  const types = [
    ...new Set(
      (params.get('TYPE') ?? [])
        .flatMap((t) => t.split(','))
        .map((t) => t.trim().toLowerCase())
        .filter((t) => t !== ''),
    ),
  ];
  return {
    group: group?.toLowerCase(),
    name: name.toUpperCase(),
    params,
    types,
    raw: content.text.slice(head.length + 1),
    line: content.line,
  };
}

/** Properties whose base64 value is binary (a picture, a sound, a key), never text to read. */
const BINARY = new Set(['PHOTO', 'LOGO', 'SOUND', 'KEY']);

const FALLBACK = new TextDecoder('windows-1252');
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Bytes as text in the charset a value names (a stray byte that is not of it shows as U+FFFD, the rest reads);
 * without one, or with a name no decoder knows, UTF-8 if the bytes are UTF-8, else Windows-1252.
 */
export function decodeBytes(bytes: Uint8Array, charset: string | undefined): string {
  const label = charset?.trim().toLowerCase();
  if (label) {
    try {
      return new TextDecoder(label).decode(bytes);
    } catch {
      // An unknown charset name: read the bytes as if none were given.
    }
  }
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return FALLBACK.decode(bytes);
  }
}

/** The characters of a value as bytes: in a legacy file each character is one byte; otherwise UTF-8. */
function bytesOf(text: string, encoding: TextEncoding): Uint8Array {
  return encoding === 'legacy' ? Buffer.from(text, 'latin1') : Buffer.from(text, 'utf8');
}

const HEX = /^[0-9A-Fa-f]{2}$/;

/** Quoted-printable to bytes; a malformed escape stays as it is written, as mail readers do. */
export function quotedPrintableBytes(text: string, encoding: TextEncoding): Uint8Array {
  const out: number[] = [];
  const source = bytesOf(text.replace(/=$/, ''), encoding);
  for (let i = 0; i < source.length; i += 1) {
    const byte = source[i] as number;
    const hex = String.fromCharCode(source[i + 1] ?? 0, source[i + 2] ?? 0);
    if (byte === 0x3d && HEX.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else out.push(byte);
  }
  return Uint8Array.from(out);
}

function encodingOf(p: Property): 'qp' | 'base64' | undefined {
  const values = (p.params.get('ENCODING') ?? []).map((v) => v.toUpperCase());
  if (values.includes('QUOTED-PRINTABLE')) return 'qp';
  if (values.includes('B') || values.includes('BASE64')) return 'base64';
  return undefined;
}

/**
 * The value's text before unescaping, decoded from quoted-printable or base64 and from its charset; undefined
 * for binary data (a photo).
 */
export function decodedValue(p: Property, encoding: TextEncoding): string | undefined {
  const charset = p.params.get('CHARSET')?.[0];
  const transfer = encodingOf(p);
  switch (transfer) {
    case 'qp':
      return decodeBytes(quotedPrintableBytes(p.raw, encoding), charset);
    case 'base64':
      if (BINARY.has(p.name)) return undefined;
      return decodeBytes(Buffer.from(p.raw.replace(/\s+/g, ''), 'base64'), charset);
    case undefined:
      return encoding === 'legacy' ? decodeBytes(bytesOf(p.raw, encoding), charset) : p.raw;
    default:
      return transfer satisfies never;
  }
}

/** Splits on an unescaped `separator` (a backslash escapes the next character). */
export function splitEscaped(text: string, separator: ';' | ','): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** Backslash escapes undone: `\n` and `\N` a new line; `\\`, `\,`, `\;`, `\:` (Apple) and `\"` the character. */
export function unescapeText(text: string): string {
  return text.replace(/\\([\\,;:"nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** A text value (FN, TITLE, EMAIL, TEL); undefined for binary data. */
export function textValue(p: Property, encoding: TextEncoding): string | undefined {
  const value = decodedValue(p, encoding);
  return value === undefined ? undefined : unescapeText(value);
}

/** A list value split on unescaped commas (NICKNAME, CATEGORIES). */
export function listValue(p: Property, encoding: TextEncoding): string[] {
  const value = decodedValue(p, encoding);
  return value === undefined ? [] : splitEscaped(value, ',').map(unescapeText);
}

/**
 * A structured value (N, ADR): its components on unescaped semicolons, each a list on unescaped commas; with
 * `lists` false (ORG), commas stay in the component ("Company, The").
 */
export function structuredValue(p: Property, encoding: TextEncoding, lists = true): string[][] {
  const value = decodedValue(p, encoding);
  if (value === undefined) return [];
  return splitEscaped(value, ';').map((component) =>
    (lists ? splitEscaped(component, ',') : [component]).map(unescapeText),
  );
}
