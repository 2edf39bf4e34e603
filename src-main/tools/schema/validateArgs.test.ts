import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../toolTypes.js';
import { normalizeParameters } from './normalizeSchema.js';
import { compileValidator, validateArguments } from './validateArgs.js';

const schema = normalizeParameters({
  type: 'dict',
  properties: {
    path: { type: 'string', description: 'A file.' },
    count: { type: 'integer' },
    ratio: { type: 'float' },
    mode: { type: 'string', enum: ['a', 'b'] },
    when: { type: 'string', format: 'date' },
    tags: { type: 'array', items: { type: 'string' } },
    point: { type: 'tuple', items: [{ type: 'float' }, { type: 'float' }] },
    filter: { type: 'dict', properties: { name: { type: 'string' } }, required: ['name'] },
    extra: { type: 'dict', description: 'free-form' },
    data: { type: 'any' },
    either: { anyOf: [{ type: 'integer' }, { type: 'array', items: { type: 'integer' } }] },
    flag: { type: 'boolean' },
  },
  required: ['path'],
});

function problems(args: unknown, s: JsonSchema = schema): string[] {
  const result = validateArguments(s, args);
  return result.ok ? [] : result.problems;
}

describe('validateArguments', () => {
  it('accepts good arguments and returns a clean copy', () => {
    const args = {
      path: 'a.txt',
      count: 3,
      ratio: 0.5,
      mode: 'b',
      when: '2024-05-31',
      tags: ['x'],
      point: [1.5, -2],
      filter: { name: 'n' },
      extra: { anything: [1, { deep: null }] },
      data: [1, 'two'],
      either: [1, 2],
      flag: false,
    };
    const result = validateArguments(schema, args);
    expect(result).toEqual({ ok: true, value: args });
    if (result.ok) expect(result.value).not.toBe(args);
  });

  it('says what is missing, unknown, mistyped or not allowed, in plain sentences', () => {
    expect(problems({})).toEqual(['`path` is required']);
    expect(problems({ path: 'a', count: 2.5 })).toEqual(['`count` must be an integer, not 2.5']);
    expect(problems({ path: 'a', count: '5' })).toEqual(['`count` must be an integer, not the string "5"']);
    expect(problems({ path: 'a', mode: 'c' })).toEqual(['`mode` must be one of: a, b']);
    expect(problems({ path: 'a', flag: 'yes' })).toEqual(['`flag` must be true or false, not the string "yes"']);
    expect(problems({ path: 'a', when: '31/05/2024' })).toEqual(['`when` must be a date like 2024-05-31']);
    expect(problems({ path: 'a', nope: 1 })).toEqual([
      '`nope` is not a parameter of this tool (allowed: path, count, ratio, mode, when, tags, point, filter, extra, data, either, flag)',
    ]);
    expect(problems({ path: 'a', filter: {} })).toEqual(['`filter.name` is required']);
    expect(problems({ path: 'a', filter: { name: 'n', x: 1 } })).toEqual([
      '`filter.x` is not an allowed key in `filter` (allowed: name)',
    ]);
    expect(problems({ path: 'a', tags: ['x', 2] })).toEqual(['`tags[1]` must be a string, not 2']);
    expect(problems({ path: 'a', point: [1] })).toEqual(['`point` must have at least 2 items']);
    expect(problems({ path: 'a', point: [1, 2, 3] })).toEqual(['`point` must have at most 2 items']);
  });

  it('refuses arguments nested deeper than any tool needs, without walking them (50,000 levels)', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 50_000; i++) deep = { x: deep };
    const result = validateArguments({ type: 'object', properties: { x: {} } }, { x: deep });
    expect(result).toMatchObject({ ok: false, problems: [expect.stringMatching(/nested more than 64 levels deep/)] });
  });

  it('reports all problems at once', () => {
    expect(problems({ count: 1.5, mode: 'z' })).toEqual([
      '`path` is required',
      '`count` must be an integer, not 1.5',
      '`mode` must be one of: a, b',
    ]);
  });

  it('explains a failed alternative by the branch that fits the type, or by listing the forms', () => {
    expect(problems({ path: 'a', either: 'x' })).toEqual(['`either` must be an integer or an array']);
    expect(problems({ path: 'a', either: [1, 'x'] })).toEqual(['`either[1]` must be an integer, not the string "x"']);
    // oneOf is read as "any of", as the grammar does: a value fitting two alternatives passes.
    const overlapping: JsonSchema = {
      type: 'object',
      properties: { n: { oneOf: [{ type: 'number' }, { type: 'integer' }] } },
    };
    expect(validateArguments(overlapping, { n: 3 }).ok).toBe(true);
  });

  it('rejects arguments that are not an object', () => {
    for (const [args, what] of [
      [[1], 'an array'],
      ['x', 'the string "x"'],
      [null, 'null'],
      [undefined, 'missing'],
      [7, '7'],
    ] as const) {
      expect(problems(args)).toEqual([
        `The arguments must be a JSON object of named parameters, like {"name": value}, not ${what}`,
      ]);
    }
  });

  describe('numbers the grammar lets through', () => {
    const range = '(must be between -9007199254740991 and 9007199254740991)';

    it('rejects 1e400 (Infinity), -1e400 and NaN', () => {
      expect(problems(JSON.parse('{"path": "a", "count": 1e400}'))).toEqual([`\`count\` is too large ${range}`]);
      expect(problems(JSON.parse('{"path": "a", "ratio": -1e400}'))).toEqual([`\`ratio\` is too small ${range}`]);
      expect(problems({ path: 'a', ratio: Infinity })).toEqual([`\`ratio\` is too large ${range}`]);
      expect(problems({ path: 'a', ratio: NaN })).toEqual(['`ratio` is not a valid number']);
    });

    it('rejects integers and whole numbers beyond the safe range, also nested and in free-form values', () => {
      expect(problems(JSON.parse('{"path": "a", "count": 9007199254740993}'))).toEqual([
        `\`count\` is too large ${range}`,
      ]);
      expect(problems(JSON.parse('{"path": "a", "ratio": 1e20}'))).toEqual([`\`ratio\` is too large ${range}`]);
      expect(problems(JSON.parse('{"path": "a", "either": [1, -1E300]}'))).toEqual([
        `\`either[1]\` is too small ${range}`,
      ]);
      expect(problems(JSON.parse('{"path": "a", "extra": {"a b": [1e400]}}'))).toEqual([
        `\`extra["a b"][0]\` is too large ${range}`,
      ]);
      expect(problems(JSON.parse('{"path": "a", "data": 1e16}'))).toEqual([`\`data\` is too large ${range}`]);
    });

    it('accepts exponent forms that are exact safe numbers, and the edges of the range', () => {
      const result = validateArguments(
        schema,
        JSON.parse('{"path": "a", "count": -1E4, "ratio": 2.5e-3, "either": 1e2}'),
      );
      expect(result).toEqual({ ok: true, value: { path: 'a', count: -10000, ratio: 0.0025, either: 100 } });
      expect(validateArguments(schema, { path: 'a', count: Number.MAX_SAFE_INTEGER }).ok).toBe(true);
      expect(validateArguments(schema, { path: 'a', count: Number.MIN_SAFE_INTEGER }).ok).toBe(true);
      expect(problems(JSON.parse('{"path": "a", "count": 1.5e1}'))).toEqual([]);
      expect(problems(JSON.parse('{"path": "a", "count": 1.5e0}'))).toEqual(['`count` must be an integer, not 1.5']);
    });

    it('turns -0 into 0', () => {
      const result = validateArguments(schema, JSON.parse('{"path": "a", "count": -0, "ratio": -0.0}'));
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(Object.is(result.value.count, 0)).toBe(true);
      expect(Object.is(result.value.ratio, 0)).toBe(true);
    });
  });

  it('rejects values that are not JSON', () => {
    expect(problems({ path: 'a', data: () => 1 })).toEqual(['`data` must be a plain JSON value, not a function']);
    expect(problems({ path: 'a', data: 10n })).toEqual(['`data` must be a plain JSON value, not a bigint']);
    expect(problems({ path: 'a', data: new Date(0) })).toEqual(['`data` must be a plain JSON value']);
  });

  describe('keys that cannot lie: __proto__, constructor and prototype', () => {
    const refused = (key: string, place: string) =>
      `The key \`${key}\` ${place} is not allowed (\`__proto__\`, \`constructor\` and \`prototype\` are refused as keys anywhere in the arguments)`;
    // JSON text, parsed as a model's or a user's arguments are: JSON.parse makes "__proto__" an own key.
    it.each([
      [
        'at the top',
        '{"path": "a", "__proto__": {"path": "/etc/passwd"}}',
        refused('__proto__', 'at the top of the arguments'),
      ],
      [
        'alone, hiding a required key in the prototype',
        '{"__proto__": {"path": "/etc/passwd"}}',
        refused('__proto__', 'at the top of the arguments'),
      ],
      [
        'nested in an object',
        '{"path": "a", "filter": {"name": "n", "__proto__": {"name": "x"}}}',
        refused('__proto__', 'in `filter`'),
      ],
      [
        'in a free-form object',
        '{"path": "a", "extra": {"deep": {"__proto__": {"admin": true}}}}',
        refused('__proto__', 'in `extra.deep`'),
      ],
      ['in an array', '{"path": "a", "data": [1, {"__proto__": {"x": 1}}]}', refused('__proto__', 'in `data[1]`')],
      [
        'constructor.prototype',
        '{"path": "a", "extra": {"constructor": {"prototype": {"polluted": 1}}}}',
        refused('constructor', 'in `extra`'),
      ],
      ['prototype', '{"path": "a", "extra": {"prototype": 1}}', refused('prototype', 'in `extra`')],
      [
        'constructor at the top',
        '{"path": "a", "constructor": "x"}',
        refused('constructor', 'at the top of the arguments'),
      ],
    ])('refuses the key %s, naming it and its place', (_case, json, problem) => {
      expect(problems(JSON.parse(json))).toContain(problem);
    });

    it('says only that when nothing else is wrong, so the refusal reads as the one reason', () => {
      expect(problems(JSON.parse('{"path": "a", "extra": {"__proto__": {}}}'))).toEqual([
        refused('__proto__', 'in `extra`'),
      ]);
      // The required key a prototype would have supplied is missing too, and said so.
      expect(problems(JSON.parse('{"__proto__": {"path": "/etc/passwd"}}'))).toEqual([
        refused('__proto__', 'at the top of the arguments'),
        '`path` is required',
      ]);
    });

    it('returns objects without a prototype, so a key shown is a key that runs', () => {
      const result = validateArguments(schema, { path: 'a', filter: { name: 'n' }, data: [{ k: 1 }] });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      for (const object of [result.value, result.value.filter, (result.value.data as object[])[0]])
        expect(Object.getPrototypeOf(object)).toBeNull();
      // Nothing reads through to Object.prototype: only the arguments' own keys are there.
      expect((result.value as Record<string, unknown>).toString).toBeUndefined();
      expect(JSON.parse(JSON.stringify(result.value))).toEqual({ path: 'a', filter: { name: 'n' }, data: [{ k: 1 }] });
    });
  });

  it('compiles once per schema object and reports a broken schema without throwing', () => {
    expect(compileValidator(schema)).toBe(compileValidator(schema));
    const broken: JsonSchema = { type: 'object', properties: { a: { type: 'dict' } } };
    expect(() => compileValidator(broken)).toThrow();
    const result = validateArguments(broken, { a: {} });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0]).toMatch(/^This tool's parameter schema is broken/);
  });

  it('checks time and date-time formats as the grammar writes them', () => {
    const s = normalizeParameters({
      type: 'object',
      properties: { t: { type: 'string', format: 'time' }, dt: { type: 'string', format: 'date-time' } },
    });
    expect(problems({ t: '14:30:00Z', dt: '2024-05-31T14:30:00.123+02:00' }, s)).toEqual([]);
    expect(problems({ t: '14:30', dt: '2024-05-31 14:30:00' }, s)).toEqual([
      '`t` must be a time like 14:30:00Z (hours:minutes:seconds, then Z or an offset like +02:00)',
      '`dt` must be a date and time like 2024-05-31T14:30:00Z',
    ]);
  });
});
