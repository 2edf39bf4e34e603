import { describe, expect, it } from 'vitest';
import { anyValueSchema, createToolNameMap, normalizeParameters, normalizeToolName } from './normalizeSchema.js';

const ANY = anyValueSchema();

/** Normalizes `{type: 'dict', properties: {x: prop}}` and returns x's schema. */
function prop(schema: unknown): unknown {
  const out = normalizeParameters({ type: 'dict', properties: { x: schema } });
  return (out.properties as Record<string, unknown>).x;
}

describe('normalizeParameters: BFCL types', () => {
  it('turns dict into a closed object and float into number', () => {
    expect(
      normalizeParameters({
        type: 'dict',
        properties: { weight: { type: 'float', description: 'Weight in kg.' }, n: { type: 'integer' } },
        required: ['weight'],
      }),
    ).toEqual({
      type: 'object',
      properties: { weight: { type: 'number', description: 'Weight in kg.' }, n: { type: 'integer' } },
      required: ['weight'],
      additionalProperties: false,
    });
  });

  it('turns tuple into an array (items kept) and a list of items into closed prefixItems', () => {
    expect(prop({ type: 'tuple', items: { type: 'float' }, description: '(lat, lon)' })).toEqual({
      type: 'array',
      items: { type: 'number' },
      description: '(lat, lon)',
    });
    expect(prop({ type: 'tuple', items: [{ type: 'float' }, { type: 'string' }] })).toEqual({
      type: 'array',
      prefixItems: [{ type: 'number' }, { type: 'string' }],
      minItems: 2,
      maxItems: 2,
    });
    expect(prop({ type: 'array', prefixItems: [{ type: 'integer' }], items: { type: 'string' } })).toEqual({
      type: 'array',
      items: { type: 'string' },
      prefixItems: [{ type: 'integer' }],
      minItems: 1,
    });
  });

  it('turns any and a missing type into the permissive any-value schema, keeping the description', () => {
    expect(prop({ type: 'any', description: 'The data.' })).toEqual({ ...ANY, description: 'The data.' });
    expect(prop({ description: 'Whatever.' })).toEqual({ ...ANY, description: 'Whatever.' });
    expect(prop(true)).toEqual(ANY);
  });

  it('gives a property-less nested dict free-form keys, but a property-less root no arguments', () => {
    expect(prop({ type: 'dict', description: 'subject to score' })).toEqual({
      type: 'object',
      additionalProperties: true,
      description: 'subject to score',
    });
    expect(normalizeParameters({ type: 'dict', properties: {}, required: [] })).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
    expect(normalizeParameters(undefined)).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('keeps only existing names in required and notes the missing ones', () => {
    const out = normalizeParameters({
      type: 'dict',
      properties: { population: { type: 'dict', required: ['adults', 'children'], description: 'Household.' } },
      required: ['population', 'ghost'],
    });
    expect(out.required).toEqual(['population']);
    expect(out.description).toBe('Expected keys: ghost.');
    expect((out.properties as Record<string, unknown>).population).toEqual({
      type: 'object',
      additionalProperties: true,
      description: 'Household. Expected keys: adults, children.',
    });
  });

  it('drops properties flagged optional (true, "true", "yes") from required', () => {
    const out = normalizeParameters({
      type: 'dict',
      properties: {
        a: { type: 'string', optional: true },
        b: { type: 'string', optional: 'yes' },
        c: { type: 'string', optional: false },
      },
      required: ['a', 'b', 'c'],
    });
    expect(out.required).toEqual(['c']);
    expect(out.properties).toEqual({ a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' } });
  });

  it('folds default and unknown constraints into the description', () => {
    expect(prop({ type: 'string', description: 'The unit', default: 'units' })).toEqual({
      type: 'string',
      description: "The unit. Default: 'units'.",
    });
    expect(prop({ type: 'integer', description: 'Hourly fee.', maximum: 400, minimum: 0 })).toEqual({
      type: 'integer',
      description: 'Hourly fee. Maximum: 400. Minimum: 0.',
    });
    expect(prop({ type: 'boolean', default: 'false' })).toEqual({ type: 'boolean', description: "Default: 'false'." });
    expect(prop({ type: 'integer', minItems: 5, maxItems: 100 })).toEqual({
      type: 'integer',
      description: 'Minimum items: 5. Maximum items: 100.',
    });
    expect(prop({ type: 'string', pattern: '^[a-z]+$', title: 'Name', 'x-vendor': 1 })).toEqual({
      type: 'string',
      description: "Must match the pattern: '^[a-z]+$'.",
    });
  });

  it('keeps enum values (dropping type, which the grammar ignores) and the default as a note', () => {
    expect(prop({ type: 'string', enum: ['Civil', 'Criminal'], default: 'Civil' })).toEqual({
      enum: ['Civil', 'Criminal'],
      description: "Default: 'Civil'.",
    });
    expect(prop({ type: 'string', enum: [] })).toEqual({ type: 'string', description: 'Allowed values: [].' });
    expect(prop({ const: 'x' })).toEqual({ const: 'x' });
  });

  it('keeps grammar-supported string formats and lengths, folds the others', () => {
    expect(prop({ type: 'string', format: 'date' })).toEqual({ type: 'string', format: 'date' });
    expect(prop({ type: 'string', format: 'email', minLength: 3, maxLength: 80 })).toEqual({
      type: 'string',
      minLength: 3,
      maxLength: 80,
      description: "Format: 'email'.",
    });
    expect(prop({ type: 'string', minLength: 5, maxLength: 2 })).toMatchObject({ type: 'string' });
    expect(prop({ type: 'string', minLength: 5, maxLength: 2 })).not.toHaveProperty('maxLength');
  });

  it('maps anyOf to oneOf, distributes shared keywords and collapses a single alternative', () => {
    expect(prop({ anyOf: [{ type: 'float' }, { type: 'array', items: { type: 'float' } }], description: 'n' })).toEqual(
      {
        oneOf: [{ type: 'number' }, { type: 'array', items: { type: 'number' } }],
        description: 'n',
      },
    );
    expect(prop({ oneOf: [{ type: 'string' }], description: 'only' })).toEqual({ type: 'string', description: 'only' });
    expect(prop({ anyOf: [{ type: 'string' }, { type: 'any' }] })).toEqual(ANY);
  });

  it('handles type lists: basic types stay a list, others become oneOf, nullable adds null', () => {
    expect(prop({ type: ['string', 'null'] })).toEqual({ type: ['string', 'null'] });
    expect(prop({ type: ['integer', 'float'] })).toEqual({ type: 'number' });
    expect(prop({ type: ['string', 'dict'] })).toEqual({
      oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }],
    });
    expect(prop({ type: 'string', nullable: true, format: 'date' })).toEqual({
      oneOf: [{ type: 'string', format: 'date' }, { type: 'null' }],
    });
  });

  it('resolves local $refs and stops on recursive ones', () => {
    const out = normalizeParameters({
      type: 'object',
      $defs: { Point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      properties: {
        p: { $ref: '#/$defs/Point', description: 'A point.' },
        self: { $ref: '#' },
        lost: { $ref: '#/$defs/Nope' },
      },
    });
    const props = out.properties as Record<string, Record<string, unknown>>;
    expect(props.p).toEqual({
      type: 'object',
      properties: { x: { type: 'number' } },
      required: ['x'],
      additionalProperties: false,
      description: 'A point.',
    });
    expect(JSON.stringify(props.self)).toContain('recursive reference');
    expect(props.lost?.description).toContain('unresolved reference #/$defs/Nope');
  });

  it('merges allOf members', () => {
    expect(
      normalizeParameters({
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { type: 'integer' } } },
        ],
      }),
    ).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'integer' } },
      required: ['a'],
      additionalProperties: false,
    });
  });

  it('never throws: odd input becomes a permissive object with a note', () => {
    const odd: unknown[] = ['nonsense', 42, [1, 2], { type: 'string' }, { type: ['object', 'null'] }];
    for (const input of odd) {
      const out = normalizeParameters(input);
      expect(out).toMatchObject({ type: 'object', properties: {}, additionalProperties: true });
      expect(out.description).toMatch(/^Note: the original parameter schema was not usable/);
    }
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('boom');
        },
        get() {
          throw new Error('boom');
        },
      },
    );
    expect(normalizeParameters(hostile).description).toContain('boom');
  });

  it('survives cycles and absurd nesting, and odd property values', () => {
    const cyclic: Record<string, unknown> = { type: 'dict', properties: {} };
    (cyclic.properties as Record<string, unknown>).me = cyclic;
    expect(() => JSON.stringify(normalizeParameters(cyclic))).not.toThrow();
    expect(JSON.stringify(normalizeParameters(cyclic))).toContain('nested too deeply');

    const out = normalizeParameters({
      type: 'dict',
      properties: { s: 'string', n: null, f: false, u: { type: 'date' } },
      required: ['s', 'f', 'u'],
    });
    const props = out.properties as Record<string, Record<string, unknown>>;
    expect(props.s).toEqual({ type: 'string' });
    expect(props.n?.description).toContain('could not be read');
    expect(props).not.toHaveProperty('f');
    expect(props.u).toEqual({ ...ANY, description: 'Original type: date.' });
    expect(out.required).toEqual(['s', 'u']);
  });
});

describe('tool names', () => {
  it('maps BFCL names to grammar-safe function names', () => {
    expect(normalizeToolName('math.factorial')).toBe('math_factorial');
    expect(normalizeToolName('cellBiology.getCellType')).toBe('cellBiology_getCellType');
    expect(normalizeToolName('3d-print job')).toBe('_3d_print_job');
    expect(normalizeToolName('')).toBe('tool');
    expect(normalizeToolName('x'.repeat(100))).toHaveLength(64);
  });

  it('keeps distinct names distinct and reversible', () => {
    const map = createToolNameMap(['math.sum', 'math_sum', 'math-sum', 'math.sum'], ['all']);
    expect(map.entries).toEqual([
      ['math.sum', 'math_sum'],
      ['math_sum', 'math_sum_2'],
      ['math-sum', 'math_sum_3'],
    ]);
    expect(map.toOriginal('math_sum_2')).toBe('math_sum');
    expect(map.toSafe('math-sum')).toBe('math_sum_3');
    expect(map.toOriginal('nope')).toBeUndefined();
    expect(createToolNameMap(['all']).toSafe('all')).toBe('all');
    expect(createToolNameMap(['all'], ['all']).toSafe('all')).toBe('all_2');
  });
});
