/**
 * The text of an iCalendar file as other apps wrote it: content lines (folded lines joined) with the exact span
 * each one takes in the file, and the BEGIN/END tree of components over them. Reading goes through ical.js one
 * component at a time; this layer exists so that one broken line or component can be skipped and named, and so
 * that a write can replace the bytes of one component and leave every other byte of the file as it was.
 */

export interface ContentLine {
  /** Offset of the line's first character in the file. */
  readonly start: number;
  /** Offset just past its last line break (folded continuation lines included). */
  readonly end: number;
  /** The logical line: continuation lines joined, line breaks removed. */
  readonly text: string;
  /** 1-based line number of its first physical line, for messages. */
  readonly lineNo: number;
}

export interface ParsedLine {
  /** Upper case, e.g. DTSTART. */
  readonly name: string;
  /** Parameters in order, names upper case, values unquoted. */
  readonly params: ReadonlyArray<readonly [string, string]>;
  /** The text between the name and the value's colon, as written (";TZID=\"W. Europe Standard Time\""). */
  readonly paramsText: string;
  readonly value: string;
}

export interface RawComponent {
  /** Upper case, e.g. VEVENT. */
  readonly name: string;
  /** From the start of its BEGIN line to the end of its END line (or of the file, when END is missing). */
  readonly start: number;
  readonly end: number;
  /** Its own content lines (BEGIN/END and sub-components excluded), in order. */
  readonly lines: ContentLine[];
  readonly children: RawComponent[];
  /** False when the file ended (or an outer END came) before its END line. */
  readonly closed: boolean;
}

export interface RawDocument {
  /** Top-level components (VCALENDARs, normally one). */
  readonly roots: RawComponent[];
  /** Lines outside any component that are not blank. */
  readonly strayLines: ContentLine[];
  /** The line break the file mostly uses, for lines Homebody adds. */
  readonly lineBreak: '\r\n' | '\n' | '\r';
}

/** Splits `text` into content lines, unfolding continuation lines (RFC 5545 3.1); any line break is accepted. */
export function contentLines(text: string): ContentLine[] {
  const out: ContentLine[] = [];
  let pos = 0;
  let lineNo = 1;
  let current: { start: number; end: number; parts: string[]; lineNo: number } | undefined;
  while (pos < text.length) {
    let eol = pos;
    while (eol < text.length && text[eol] !== '\n' && text[eol] !== '\r') eol += 1;
    let next = eol;
    if (text[next] === '\r') next += 1;
    if (text[next] === '\n') next += 1;
    const physical = text.slice(pos, eol);
    if (current && (physical.startsWith(' ') || physical.startsWith('\t'))) {
      current.parts.push(physical.slice(1));
      current.end = next;
    } else {
      if (current) out.push(finish(current));
      current = physical === '' ? undefined : { start: pos, end: next, parts: [physical], lineNo };
      // A blank line still belongs to the span of whatever surrounds it; it is simply no content line.
    }
    lineNo += 1;
    pos = next;
  }
  if (current) out.push(finish(current));
  return out;
}

function finish(line: { start: number; end: number; parts: string[]; lineNo: number }): ContentLine {
  return { start: line.start, end: line.end, text: line.parts.join(''), lineNo: line.lineNo };
}

/**
 * NAME;PARAM=VALUE;PARAM="QUOTED":VALUE, or undefined when the line is not a content line (no colon, no name, an
 * unclosed quote). Parameter values are not otherwise decoded.
 */
export function parseLine(line: string): ParsedLine | undefined {
  const nameMatch = /^[A-Za-z0-9-]+/.exec(line);
  if (!nameMatch) return undefined;
  const name = nameMatch[0].toUpperCase();
  let pos = nameMatch[0].length;
  const params: Array<readonly [string, string]> = [];
  while (line[pos] === ';') {
    const eq = line.indexOf('=', pos);
    if (eq < 0) return undefined;
    const paramName = line
      .slice(pos + 1, eq)
      .trim()
      .toUpperCase();
    if (!/^[A-Z0-9-]+$/.test(paramName)) return undefined;
    pos = eq + 1;
    const values: string[] = [];
    for (;;) {
      if (line[pos] === '"') {
        const close = line.indexOf('"', pos + 1);
        if (close < 0) return undefined;
        values.push(line.slice(pos + 1, close));
        pos = close + 1;
      } else {
        let stop = pos;
        while (stop < line.length && !';:,'.includes(line[stop] as string)) stop += 1;
        values.push(line.slice(pos, stop));
        pos = stop;
      }
      if (line[pos] !== ',') break;
      pos += 1;
    }
    params.push([paramName, values.join(',')]);
  }
  if (line[pos] !== ':') return undefined;
  return { name, params, paramsText: line.slice(nameMatch[0].length, pos), value: line.slice(pos + 1) };
}

export function paramOf(parsed: ParsedLine, name: string): string | undefined {
  return parsed.params.find(([n]) => n === name)?.[1];
}

function dominantLineBreak(text: string): '\r\n' | '\n' | '\r' {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  const cr = text.split('\r').length - 1 - crlf;
  if (crlf >= lf && crlf >= cr) return '\r\n';
  return lf >= cr ? '\n' : '\r';
}

/** The BEGIN/END tree of `text`. Never throws: what does not nest is reported through `closed` and `strayLines`. */
export function parseDocument(text: string): RawDocument {
  const roots: RawComponent[] = [];
  const strayLines: ContentLine[] = [];
  type Open = { name: string; start: number; lines: ContentLine[]; children: RawComponent[] };
  const stack: Open[] = [];
  const close = (end: number, closed: boolean): void => {
    const open = stack.pop() as Open;
    const component: RawComponent = { ...open, end, closed };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(component);
    else roots.push(component);
  };
  const lines = contentLines(text);
  for (const line of lines) {
    const parsed = parseLine(line.text);
    const keyword = parsed?.name;
    if (keyword === 'BEGIN' && parsed) {
      stack.push({ name: parsed.value.trim().toUpperCase(), start: line.start, lines: [], children: [] });
    } else if (keyword === 'END' && parsed) {
      const name = parsed.value.trim().toUpperCase();
      const depth = stack.map((o) => o.name).lastIndexOf(name);
      if (depth < 0) {
        strayLines.push(line);
        continue;
      }
      // Components left open inside this one end where it ends (their END lines are missing).
      while (stack.length - 1 > depth) close(line.start, false);
      close(line.end, true);
    } else if (stack.length > 0) {
      (stack[stack.length - 1] as Open).lines.push(line);
    } else if (line.text.trim() !== '') {
      strayLines.push(line);
    }
  }
  const last = lines[lines.length - 1];
  while (stack.length > 0) close(last ? last.end : text.length, false);
  return { roots, strayLines, lineBreak: dominantLineBreak(text) };
}

/** Folds one logical line at 75 octets (RFC 5545 3.1) without splitting a UTF-8 character. */
export function foldLine(line: string, lineBreak: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    const limit = out.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join(`${lineBreak} `) + lineBreak;
}

/** A change to the file's text: the bytes [start, end) become `text`. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Applies non-overlapping edits; everything outside them stays byte for byte. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let pos = 0;
  for (const edit of sorted) {
    if (edit.start < pos) throw new Error('overlapping edits');
    out += text.slice(pos, edit.start) + edit.text;
    pos = edit.end;
  }
  return out + text.slice(pos);
}
