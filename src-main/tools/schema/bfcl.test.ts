import { describe, expect, it } from 'vitest';
import type { JsonSchema, JsonValue } from '../toolTypes.js';
import { type BfclFunction, loadBfclAnswers, loadBfclFunctions } from '../../testing/bfclFixtures.js';
import {
  compileValidator,
  createToolNameMap,
  normalizeParameters,
  normalizeToolName,
  validateArguments,
} from './index.js';

/**
 * Ground-truth values that do not fit the tool's own declared schema: quirks of the BFCL data,
 * not of the conversion. Key: `caseId name.arg`, value: why.
 */
const KNOWN_DATA_QUIRKS: Readonly<Record<string, string>> = {
  'parallel_152 math.power.mod': 'answer allows Python None (null) for an integer parameter; "" (omit) is also allowed',
  'parallel_multiple_12 calculate_voltage_difference.permeability':
    'answer passes a parameter the tool does not declare',
  'parallel_multiple_21 linear_regression_fit.x':
    'answer passes a Python expression string where the tool declares an array',
  'parallel_multiple_21 linear_regression_fit.y':
    'answer passes a Python expression string where the tool declares an array',
  'parallel_multiple_26 bank.calculate_balance.type': 'answer passes a parameter the tool does not declare',
  'parallel_multiple_94 sort_list.elements': 'answer sorts strings; the tool declares an array of integers',
  'simple_python_307 game_result.get_winner.venue':
    'answer allows true for a string parameter; "" (omit) is also allowed',
};

/** Keys each grammar shape may carry (node-llama-cpp utils/gbnfJson/types.d.ts). */
const COMMON = ['description'];
const ALLOWED_KEYS = {
  oneOf: ['oneOf', ...COMMON],
  const: ['const', ...COMMON],
  enum: ['enum', ...COMMON],
  object: ['type', 'properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties', ...COMMON],
  array: ['type', 'items', 'prefixItems', 'minItems', 'maxItems', ...COMMON],
  string: ['type', 'minLength', 'maxLength', 'format', ...COMMON],
  basic: ['type', ...COMMON],
};
const BASIC = ['string', 'number', 'integer', 'boolean', 'null'];

/** Problems that would make the schema mean something else to the grammar than to the validator. */
function grammarShapeProblems(schema: unknown, path = '$'): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [`${path}: not a schema object`];
  const s = schema as Record<string, unknown>;
  const problems: string[] = [];
  const only = (keys: readonly string[]): void => {
    for (const key of Object.keys(s)) if (!keys.includes(key)) problems.push(`${path}: unexpected keyword ${key}`);
  };
  if (s.description !== undefined && typeof s.description !== 'string')
    problems.push(`${path}: description not a string`);
  if (s.oneOf !== undefined) {
    only(ALLOWED_KEYS.oneOf);
    if (!Array.isArray(s.oneOf) || s.oneOf.length === 0) problems.push(`${path}: empty oneOf`);
    else s.oneOf.forEach((b, i) => problems.push(...grammarShapeProblems(b, `${path}|${i}`)));
  } else if (s.const !== undefined) only(ALLOWED_KEYS.const);
  else if (s.enum !== undefined) {
    only(ALLOWED_KEYS.enum);
    if (!Array.isArray(s.enum) || s.enum.length === 0) problems.push(`${path}: empty enum`);
  } else if (s.type === 'object') {
    only(ALLOWED_KEYS.object);
    const props = (s.properties ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(props)) problems.push(...grammarShapeProblems(v, `${path}.${k}`));
    for (const r of (s.required ?? []) as string[])
      if (!(r in props)) problems.push(`${path}: required ${r} is not a property`);
    if (Object.keys(props).length > 0 && s.additionalProperties !== false)
      problems.push(`${path}: additionalProperties not false`);
    if (s.additionalProperties === undefined) problems.push(`${path}: additionalProperties left implicit`);
  } else if (s.type === 'array') {
    only(ALLOWED_KEYS.array);
    if (s.items !== undefined) problems.push(...grammarShapeProblems(s.items, `${path}[]`));
    if (Array.isArray(s.prefixItems))
      s.prefixItems.forEach((b, i) => problems.push(...grammarShapeProblems(b, `${path}[${i}]`)));
  } else if (s.type === 'string') {
    only(ALLOWED_KEYS.string);
    if (s.format !== undefined && !['date', 'time', 'date-time'].includes(s.format as string))
      problems.push(`${path}: format ${String(s.format)}`);
  } else if (typeof s.type === 'string' || Array.isArray(s.type)) {
    only(ALLOWED_KEYS.basic);
    const types = Array.isArray(s.type) ? s.type : [s.type];
    for (const t of types) if (!BASIC.includes(t as string)) problems.push(`${path}: type ${String(t)}`);
  } else problems.push(`${path}: no type, enum, const or oneOf (the grammar would allow only null)`);
  return problems;
}

const functions = loadBfclFunctions();

describe('every BFCL tool definition', () => {
  it('is found (all case files and multi-turn docs)', () => {
    expect(functions.length).toBeGreaterThan(2000);
    expect(functions.some((f) => f.origin.startsWith('multi_turn_func_doc/'))).toBe(true);
  });

  it('normalizes without throwing to a grammar-shaped object schema that ajv compiles', () => {
    const failures: string[] = [];
    for (const fn of functions) {
      let schema: JsonSchema;
      try {
        schema = normalizeParameters(fn.parameters);
      } catch (error) {
        failures.push(`${fn.origin} ${fn.name}: threw ${(error as Error).message}`);
        continue;
      }
      if (schema.type !== 'object' || typeof schema.properties !== 'object')
        failures.push(`${fn.origin} ${fn.name}: not an object schema`);
      if (typeof schema.description === 'string' && schema.description.startsWith('Note: the original')) {
        failures.push(`${fn.origin} ${fn.name}: fell back to the permissive schema`);
      }
      for (const p of grammarShapeProblems(schema)) failures.push(`${fn.origin} ${fn.name}: ${p}`);
      try {
        compileValidator(schema);
      } catch (error) {
        failures.push(`${fn.origin} ${fn.name}: ajv could not compile: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('keeps every declared parameter and drops only required names that do not exist', () => {
    const failures: string[] = [];
    for (const fn of functions) {
      const raw = fn.parameters as { properties?: Record<string, unknown>; required?: string[] };
      const schema = normalizeParameters(fn.parameters);
      const props = Object.keys(schema.properties as object);
      if (props.join() !== Object.keys(raw.properties ?? {}).join())
        failures.push(`${fn.origin} ${fn.name}: properties changed`);
      const expected = (raw.required ?? []).filter((r) => props.includes(r) && !isOptionalFlag(raw.properties?.[r]));
      if (JSON.stringify(schema.required ?? []) !== JSON.stringify(expected))
        failures.push(`${fn.origin} ${fn.name}: required changed`);
    }
    expect(failures).toEqual([]);
  });

  it('gives every tool of a case a distinct safe name that maps back', () => {
    const byCase = groupByCase(functions);
    for (const [caseId, fns] of byCase) {
      const map = createToolNameMap(fns.map((f) => f.name));
      for (const fn of fns) {
        const safe = map.toSafe(fn.name);
        expect(safe, caseId).toMatch(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/);
        expect(map.toOriginal(safe as string), caseId).toBe(fn.name);
        expect(safe).toBe(normalizeToolName(fn.name)); // no collisions in the real data
      }
    }
  });
});

describe('BFCL ground truths', () => {
  const answers = loadBfclAnswers();
  const byCase = groupByCase(functions);

  it('validate against the converted schemas (first allowed value of each argument)', () => {
    const failures: string[] = [];
    let checked = 0;
    for (const answer of answers) {
      const fns = byCase.get(answer.caseId);
      if (!fns) {
        failures.push(`${answer.origin}: no case ${answer.caseId} among the tool definitions`);
        continue;
      }
      for (const call of answer.calls) {
        for (const [name, allowed] of Object.entries(call)) {
          const fn = fns.find((f) => f.name === name);
          if (!fn) {
            failures.push(`${answer.origin}: ${name} is not a tool of ${answer.caseId}`);
            continue;
          }
          const schema = normalizeParameters(fn.parameters);
          const args: Record<string, JsonValue> = {};
          for (const [arg, values] of Object.entries(allowed)) {
            // "" means "may be omitted"; take the first real value.
            const first = values.find((v) => v !== '');
            const property = (schema.properties as Record<string, JsonSchema>)[arg];
            if (first !== undefined) args[arg] = firstAllowed(first as JsonValue, property);
          }
          const result = validateArguments(schema, args);
          checked++;
          if (result.ok) continue;
          for (const problem of result.problems) {
            const arg = /^`([^`.[]+)/.exec(problem)?.[1] ?? '?';
            if (KNOWN_DATA_QUIRKS[`${answer.caseId} ${name}.${arg}`] === undefined) {
              failures.push(`${answer.caseId} ${name}: ${problem} (args ${JSON.stringify(args)})`);
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
  });

  it('has an allow-list of quirks that are all still needed', () => {
    for (const key of Object.keys(KNOWN_DATA_QUIRKS)) {
      const [caseId, target] = key.split(' ') as [string, string];
      const [name, arg] = [target.slice(0, target.lastIndexOf('.')), target.slice(target.lastIndexOf('.') + 1)];
      const fn = byCase.get(caseId)?.find((f) => f.name === name);
      expect(fn, key).toBeDefined();
      const answer = answers.find((a) => a.caseId === caseId);
      const call = answer?.calls.find((c) => c[name] !== undefined)?.[name];
      const first = call?.[arg]?.find((v) => v !== '');
      const schema = normalizeParameters(fn?.parameters);
      const result = validateArguments(schema, { [arg]: first as JsonValue });
      expect(result.ok ? [] : result.problems.filter((p) => p.startsWith(`\`${arg}`)), key).not.toEqual([]);
    }
  });
});

/**
 * BFCL writes the keys of a structured dict (one with declared properties), also inside arrays,
 * as lists of allowed values too, like the top-level arguments: take the first real one of each.
 */
function firstAllowed(value: JsonValue, schema: JsonSchema | undefined): JsonValue {
  if (!schema) return value;
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (schema.type === 'object' && props && Object.keys(props).length > 0 && isRecord(value)) {
    const out: Record<string, JsonValue> = {};
    for (const [key, allowed] of Object.entries(value)) {
      const first = Array.isArray(allowed) ? allowed.find((v) => v !== '') : allowed;
      if (first !== undefined) out[key] = firstAllowed(first, props[key]);
    }
    return out;
  }
  if (schema.type === 'array' && Array.isArray(value) && isRecord(schema.items)) {
    return value.map((item) => firstAllowed(item, schema.items as JsonSchema));
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function groupByCase(fns: readonly BfclFunction[]): Map<string, BfclFunction[]> {
  const out = new Map<string, BfclFunction[]>();
  for (const fn of fns) {
    const key = fn.caseId ?? fn.origin.replace(/:\d+$/, '');
    const list = out.get(key) ?? [];
    list.push(fn);
    out.set(key, list);
  }
  return out;
}

function isOptionalFlag(raw: unknown): boolean {
  const flag = (raw as { optional?: unknown } | undefined)?.optional;
  return flag === true || flag === 'true' || flag === 'yes';
}
