/**
 * JSON values as a model wrote them. `JSON.parse` makes `5` and `5.0` the same number, but Python (and so BFCL's
 * checker and a Jinja template rendered by transformers) keeps an int and a float apart: a model that writes `5.0`
 * for an integer parameter made a type error there. A number here stays the text it was written as.
 */

/** A JSON number as written: `text` is its literal (`5`, `5.0`, `-1e3`). */
export class WrittenNumber {
  readonly value: number;
  constructor(readonly text: string) {
    this.value = Number(text);
  }
  /** Python's reading: a literal with a fraction or an exponent is a float, any other an int. */
  get isFloat(): boolean {
    return /[.eE]/.test(this.text);
  }
  toJSON(): number {
    return this.value;
  }
}

export type WrittenValue =
  string | boolean | null | WrittenNumber | readonly WrittenValue[] | { readonly [key: string]: WrittenValue };

/** Why a text is not JSON, and where. */
export class WrittenJsonError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;
const SIMPLE_ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX4 = /^[0-9a-fA-F]{4}$/;
const LITERALS = [
  ['true', true],
  ['false', false],
  ['null', null],
] as const;

/** Parses one JSON value (RFC 8259, surrounding whitespace allowed), keeping each number's literal. */
export function parseWrittenJson(text: string): WrittenValue {
  let at = 0;
  const skip = () => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.exec(text);
    at = WHITESPACE.lastIndex;
  };
  const fail = (message: string): never => {
    throw new WrittenJsonError(message, at);
  };
  const value = (depth: number): WrittenValue => {
    if (depth > 512) fail('nesting is too deep');
    skip();
    const c = text[at];
    if (c === '{') {
      at++;
      const object: Record<string, WrittenValue> = {};
      skip();
      if (text[at] === '}') {
        at++;
        return object;
      }
      for (;;) {
        skip();
        if (text[at] !== '"') fail('expected a key');
        const key = string();
        skip();
        if (text[at] !== ':') fail('expected ":"');
        at++;
        // A repeated key keeps its last value, as JSON.parse and Python's json.loads do.
        Object.defineProperty(object, key, {
          value: value(depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        skip();
        if (text[at] === ',') {
          at++;
          continue;
        }
        if (text[at] === '}') {
          at++;
          return object;
        }
        fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      at++;
      const array: WrittenValue[] = [];
      skip();
      if (text[at] === ']') {
        at++;
        return array;
      }
      for (;;) {
        array.push(value(depth + 1));
        skip();
        if (text[at] === ',') {
          at++;
          continue;
        }
        if (text[at] === ']') {
          at++;
          return array;
        }
        fail('expected "," or "]"');
      }
    }
    if (c === '"') return string();
    for (const [word, literal] of LITERALS) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return literal;
      }
    }
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text);
    if (number) {
      at = NUMBER.lastIndex;
      return new WrittenNumber(number[0]);
    }
    return fail(at >= text.length ? 'unexpected end of text' : `unexpected ${JSON.stringify(text[at])}`);
  };
  const string = (): string => {
    const start = at;
    at++;
    for (;;) {
      const c = text[at];
      if (c === undefined) fail('unterminated string');
      if (c === '"') break;
      if (c === '\\') {
        // Checked here, so that a bad escape is told with its offset (JSON.parse below then cannot fail).
        const escape = text[at + 1];
        if (escape === undefined) fail('unterminated string');
        if (escape === 'u') {
          if (!HEX4.test(text.slice(at + 2, at + 6))) fail('"\\u" is not followed by four hexadecimal digits');
          at += 6;
        } else if (SIMPLE_ESCAPES.has(escape!)) at += 2;
        else fail(`"\\${escape}" is not a JSON escape`);
        continue;
      }
      if (c! < ' ') fail('control character in a string');
      at++;
    }
    at++;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const result = value(0);
  skip();
  if (at < text.length) fail('text after the value');
  return result;
}

/** The plain JSON value (numbers as JavaScript numbers), for schemas and tool handlers. */
export function plainValue(value: WrittenValue): unknown {
  if (value instanceof WrittenNumber) return value.value;
  if (Array.isArray(value)) return value.map(plainValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(out, key, {
        value: plainValue(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

/** JSON text of a written value, numbers as written, compact. Plain numbers (from elsewhere) are written by JS. */
export function writtenJsonText(value: WrittenValue | unknown): string {
  if (value instanceof WrittenNumber) return value.text;
  if (Array.isArray(value)) return `[${value.map(writtenJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${writtenJsonText(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
