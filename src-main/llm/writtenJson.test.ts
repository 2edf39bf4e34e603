import { describe, expect, it } from 'vitest';
import { parseWrittenJson, plainValue, WrittenJsonError, WrittenNumber, writtenJsonText } from './writtenJson.js';

/** The error a text gives, as `message @ offset`. */
function failure(text: string): string {
  try {
    parseWrittenJson(text);
  } catch (error) {
    if (error instanceof WrittenJsonError) return `${error.message.replace(/ at offset \d+$/, '')} @ ${error.offset}`;
    throw error;
  }
  throw new Error(`${JSON.stringify(text)} parsed`);
}

const number = (text: string) => {
  const value = parseWrittenJson(text);
  if (!(value instanceof WrittenNumber)) throw new Error(`${text} is not a number`);
  return value;
};

describe('parseWrittenJson', () => {
  it('keeps every number as written, an int or a float as Python reads it', () => {
    for (const [text, value, isFloat] of [
      ['0', 0, false],
      ['-0', -0, false],
      ['5', 5, false],
      ['-12', -12, false],
      ['5.0', 5, true],
      ['-0.0', -0, true],
      ['2.5', 2.5, true],
      ['1e3', 1000, true],
      ['1E3', 1000, true],
      ['1e+3', 1000, true],
      ['25e-1', 2.5, true],
      ['1.5E-7', 1.5e-7, true],
      // The value is the nearest double; the text keeps every digit.
      ['12345678901234567890', 12345678901234567000, false],
      ['1e400', Infinity, true],
    ] as const) {
      const n = number(text);
      expect(n.text, text).toBe(text);
      expect(Object.is(n.value, value), text).toBe(true);
      expect(n.isFloat, text).toBe(isFloat);
    }
    // A number becomes a plain one where JSON is written.
    expect(JSON.stringify({ n: number('5.0') })).toBe('{"n":5}');
  });

  it('reads strings, literals, arrays and objects, nested', () => {
    const value = parseWrittenJson('{"a": [1, 2.0, "x", true, false, null, {}, []], "b": {"c": {"d": -1.5e2}}}');
    expect(plainValue(value)).toEqual({ a: [1, 2, 'x', true, false, null, {}, []], b: { c: { d: -150 } } });
    const a = (value as { a: unknown[] }).a;
    expect(a.map((v) => (v instanceof WrittenNumber ? v.text : v)).slice(0, 2)).toEqual(['1', '2.0']);
    expect(parseWrittenJson('"text"')).toBe('text');
    expect(parseWrittenJson('true')).toBe(true);
    expect(parseWrittenJson('null')).toBe(null);
    expect(parseWrittenJson('[]')).toEqual([]);
    expect(parseWrittenJson('{}')).toEqual({});
  });

  it("takes JSON's whitespace (space, tab, line feed, carriage return) anywhere between tokens, and no other", () => {
    const text = ' \t\r\n{ \n"a"\t:\r[ 1 ,\n2.0 ] , "b" : { } }\n ';
    expect(writtenJsonText(parseWrittenJson(text))).toBe('{"a":[1,2.0],"b":{}}');
    expect(failure('\u00a01')).toBe('unexpected "\u00a0" @ 0');
    expect(failure('[1,\f2]')).toBe('unexpected "\\f" @ 3');
    expect(failure('1 2')).toBe('text after the value @ 2');
  });

  it('reads every escape, surrogate pairs and lone surrogates as JSON.parse does', () => {
    const text = String.raw`"\" \\ \/ \b \f \n \r \t \u00e9 \uD83D\uDE00 \ud800"`;
    expect(parseWrittenJson(text)).toBe(JSON.parse(text));
    expect(parseWrittenJson('"é 😀 \u007f"')).toBe('é 😀 \u007f');
  });

  it('refuses a bad escape or a raw control character, saying where', () => {
    expect(failure(String.raw`"ab\x"`)).toBe('"\\x" is not a JSON escape @ 3');
    expect(failure(String.raw`"\u12g4"`)).toBe('"\\u" is not followed by four hexadecimal digits @ 1');
    expect(failure(String.raw`"\u12"`)).toBe('"\\u" is not followed by four hexadecimal digits @ 1');
    expect(failure('"a\nb"')).toBe('control character in a string @ 2');
    expect(failure('"a\tb"')).toBe('control character in a string @ 2');
    expect(failure('"abc')).toBe('unterminated string @ 4');
    expect(failure('"abc\\')).toBe('unterminated string @ 4');
  });

  it('keeps the last value of a repeated key, in the place of the first, as JSON.parse and json.loads do', () => {
    const value = parseWrittenJson('{"a": 1, "b": 2, "a": 3.0}');
    expect(Object.keys(value as object)).toEqual(['a', 'b']);
    expect(writtenJsonText(value)).toBe('{"a":3.0,"b":2}');
  });

  it('keeps a "__proto__" key as data, never as the prototype', () => {
    const value = parseWrittenJson('{"__proto__": {"polluted": 1}, "constructor": 2}');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value as object, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const plain = plainValue(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(Object.keys(plain)).toEqual(['__proto__', 'constructor']);
    expect(plain).toEqual(JSON.parse('{"__proto__": {"polluted": 1}, "constructor": 2}'));
    expect(writtenJsonText(value)).toBe('{"__proto__":{"polluted":1},"constructor":2}');
  });

  it('reads 513 levels of nesting and refuses deeper with an error, not a stack overflow', () => {
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    expect(() => parseWrittenJson(nested(513))).not.toThrow();
    expect(failure(nested(514))).toBe('nesting is too deep @ 513');
    expect(failure(nested(100_000))).toBe('nesting is too deep @ 513');
    expect(failure('{"a":'.repeat(600) + '1' + '}'.repeat(600))).toBe('nesting is too deep @ 2565');
  });

  it('refuses what is not JSON, saying what and where', () => {
    for (const [text, error] of [
      ['', 'unexpected end of text @ 0'],
      ['   ', 'unexpected end of text @ 3'],
      ['[1,]', 'unexpected "]" @ 3'],
      ['{"a":1,}', 'expected a key @ 7'],
      ['{"a" 1}', 'expected ":" @ 5'],
      ['{"a":1 "b":2}', 'expected "," or "}" @ 7'],
      ['[1 2]', 'expected "," or "]" @ 3'],
      ['{a:1}', 'expected a key @ 1'],
      ["{'a':1}", 'expected a key @ 1'],
      ['01', 'text after the value @ 1'],
      ['1.', 'text after the value @ 1'],
      ['.5', 'unexpected "." @ 0'],
      ['+1', 'unexpected "+" @ 0'],
      ['-', 'unexpected "-" @ 0'],
      ['1e', 'text after the value @ 1'],
      ['NaN', 'unexpected "N" @ 0'],
      ['Infinity', 'unexpected "I" @ 0'],
      ['tru', 'unexpected "t" @ 0'],
      ['nulls', 'text after the value @ 4'],
      ['[1] // note', 'text after the value @ 4'],
      ['[', 'unexpected end of text @ 1'],
      ['{"a":', 'unexpected end of text @ 5'],
    ] as const) {
      expect(failure(text), text).toBe(error);
      expect(() => JSON.parse(text), text).toThrow();
    }
  });

  it('agrees with JSON.parse on what is JSON and what it means, numbers aside', () => {
    // A fixed generator: the same texts on every run.
    let seed = 20;
    const next = (n: number) => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const pick = <T>(xs: readonly T[]): T => xs[next(xs.length)]!;
    const space = () => pick(['', '', ' ', '\n  ', '\t']);
    const scalars = [
      '0',
      '-0',
      '7',
      '-12',
      '3.25',
      '1e3',
      '2.5E-2',
      '"a"',
      '"\\u00e9\\n"',
      '""',
      'true',
      'false',
      'null',
    ];
    const valueText = (depth: number): string => {
      const kind = depth > 3 ? 0 : next(3);
      if (kind === 0) return pick(scalars);
      const items = Array.from({ length: next(4) }, () => valueText(depth + 1));
      if (kind === 1) return `[${space()}${items.join(`${space()},${space()}`)}${space()}]`;
      const keys = items.map((item, i) => `"${pick(['k', 'id', '__proto__', String(i)])}"${space()}:${space()}${item}`);
      return `{${space()}${keys.join(',')}${space()}}`;
    };
    const edits = ['', '', ',', ':', '"', '[', '}', '.', '-', 'e', '0', ' ', '\\', '\n'];
    let valid = 0;
    for (let i = 0; i < 1500; i++) {
      let text = `${space()}${valueText(0)}${space()}`;
      // Half the texts get one character inserted or replaced, most of them no longer JSON.
      if (next(2) === 0) {
        const at = next(text.length + 1);
        text = text.slice(0, at) + pick(edits) + text.slice(at + next(2));
      }
      let expected: unknown;
      let ok = true;
      try {
        expected = JSON.parse(text);
      } catch {
        ok = false;
      }
      if (ok) {
        valid++;
        expect(plainValue(parseWrittenJson(text)), text).toEqual(expected);
      } else expect(() => parseWrittenJson(text), text).toThrow(WrittenJsonError);
    }
    expect(valid).toBeGreaterThan(500);
    expect(valid).toBeLessThan(1450);
  });
});

describe('plainValue and writtenJsonText', () => {
  it('gives JavaScript numbers for schemas and handlers, and writes the literals back as they were', () => {
    const text = '{"n":5.0,"m":[1,1e3,-0.0],"s":"a\\"b","o":{"t":true,"z":null}}';
    const value = parseWrittenJson(text);
    expect(plainValue(value)).toEqual({ n: 5, m: [1, 1000, -0], s: 'a"b', o: { t: true, z: null } });
    expect(writtenJsonText(value)).toBe(text);
  });

  it('writes values from elsewhere (plain numbers, undefined) as JSON.stringify does', () => {
    expect(writtenJsonText({ a: 5, b: [2.5, undefined], c: 'é' })).toBe('{"a":5,"b":[2.5,null],"c":"é"}');
    expect(writtenJsonText(undefined)).toBe('null');
  });
});
