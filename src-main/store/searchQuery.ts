/**
 * Turns what a user types into an FTS5 query that cannot be a syntax error: every word becomes a quoted
 * phrase (so AND, NOT, `-`, `:` and `*` are plain text), "quoted phrases" stay phrases, and the last word is
 * a prefix while the user is still typing it. All words must match. Null when nothing searchable is left.
 */
export function toFtsQuery(input: string): string | null {
  const parts: string[] = [];
  const pattern = /"([^"]*)"?|(\S+)/gu;
  let last: { text: string; prefix: boolean } | undefined;
  for (const match of input.matchAll(pattern)) {
    const phrase = match[1];
    const text = phrase ?? match[2] ?? '';
    if (!/[\p{L}\p{N}]/u.test(text)) continue;
    const end = (match.index ?? 0) + match[0].length;
    // A bare word at the very end of the input is still being typed: match it as a prefix.
    last = { text, prefix: phrase === undefined && end === input.length };
    parts.push(`"${text.replaceAll('"', '""')}"${last.prefix ? ' *' : ''}`);
  }
  return parts.length ? parts.join(' ') : null;
}

const OPEN = '\u0002';
const CLOSE = '\u0003';
export const SNIPPET_MARKS = { open: OPEN, close: CLOSE } as const;

/**
 * Splits a snippet marked by FTS5 into plain text (runs of white space, newlines included, become one
 * space) and the [start, end) ranges of the matched words in it.
 */
export function parseSnippet(marked: string): { text: string; highlights: Array<[number, number]> } {
  let text = '';
  const highlights: Array<[number, number]> = [];
  let start = -1;
  for (const ch of marked) {
    if (ch === OPEN) start = text.length;
    else if (ch === CLOSE) {
      if (start >= 0 && text.length > start) highlights.push([start, text.length]);
      start = -1;
    } else if (/\s/u.test(ch)) {
      if (text.length > 0 && !text.endsWith(' ')) text += ' ';
    } else text += ch;
  }
  return { text: text.trimEnd(), highlights };
}
