/**
 * The text arguments of a queued call, as fields the user can edit before approving: recipients, subject and body
 * of a mail, a path, a note's text. The JSON of all the arguments stays the one value approved; fields only rewrite
 * their own key in it.
 */
import { isReservedArgumentKey } from '../../../src-shared/contract/index.js';

export interface ArgumentField {
  readonly name: string;
  readonly label: string;
  readonly value: string;
  /** A multi-line box rather than one line (a body, a note, anything long). */
  readonly multiline: boolean;
}

const LONG = 80;

/** "inReplyTo" → "In reply to". */
export function argumentLabel(name: string): string {
  const words = name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * One field per top-level string argument, in the arguments' order. A reserved key (`__proto__`, `constructor`,
 * `prototype`; see src-shared/contract/argumentKeys.ts) gets no field: it is not an argument any tool runs with, and
 * the Host refuses arguments that hold one, saying which.
 */
export function argumentFields(args: Record<string, unknown>): ArgumentField[] {
  return Object.entries(args).flatMap(([name, value]) =>
    typeof value === 'string' && !isReservedArgumentKey(name)
      ? [{ name, label: argumentLabel(name), value, multiline: value.includes('\n') || value.length > LONG }]
      : [],
  );
}

/**
 * The arguments with one field changed, as the JSON text the editor holds. A spread and a computed key copy own keys
 * as they are (an own "__proto__" stays a key in the text, for the Host to refuse); a plain assignment would not.
 */
export function withArgument(args: Record<string, unknown>, name: string, value: string): string {
  return JSON.stringify({ ...args, [name]: value }, null, 2);
}
