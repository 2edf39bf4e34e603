/**
 * Checks a model's tool arguments against the tool's (normalized) parameter schema and says what
 * is wrong in sentences a small model can act on: "`path` is required", "`count` must be an integer".
 *
 * Two things beyond plain JSON Schema:
 * - `oneOf` is checked as "any of", as node-llama-cpp's grammar generates it (a value matching
 *   two alternatives, e.g. `number` and `integer`, is fine);
 * - numbers are checked for what the grammar lets through but JSON Schema does not see: the
 *   grammar allows exponents, so `1e400` parses to Infinity and `1e20` to an integer beyond
 *   2^53, which a tool would silently mangle. Those are rejected; `-0` becomes `0`;
 * - the keys `__proto__`, `constructor` and `prototype` are refused anywhere in the arguments, and the objects that
 *   come out have no prototype: an own `__proto__` (as JSON.parse makes it) would otherwise become the prototype of
 *   the copy, so the approval card could show a value the stored, run JSON does not hold.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { isReservedArgumentKey, RESERVED_ARGUMENT_KEYS } from '../../../src-shared/contract/index.js';
import type { JsonSchema, JsonValue } from '../toolTypes.js';

export type ValidationResult = { ok: true; value: Record<string, JsonValue> } | { ok: false; problems: string[] };

const MIN_SAFE = Number.MIN_SAFE_INTEGER;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const RANGE = `must be between ${MIN_SAFE} and ${MAX_SAFE}`;

/** Same shapes as node-llama-cpp's format grammar (utils/gbnfJson/terminals/GbnfFormatString.js). */
const DATE = '[0-9]{4}-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])';
const TIME = '([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{3})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])';
const FORMATS: Readonly<Record<string, { pattern: RegExp; hint: string }>> = {
  date: { pattern: new RegExp(`^${DATE}$`), hint: 'a date like 2024-05-31' },
  time: {
    pattern: new RegExp(`^${TIME}$`),
    hint: 'a time like 14:30:00Z (hours:minutes:seconds, then Z or an offset like +02:00)',
  },
  'date-time': { pattern: new RegExp(`^${DATE}T${TIME}$`), hint: 'a date and time like 2024-05-31T14:30:00Z' },
};

const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true, logger: false, validateFormats: true });
for (const [name, { pattern }] of Object.entries(FORMATS)) ajv.addFormat(name, pattern);

const cache = new WeakMap<JsonSchema, ValidateFunction | Error>();

/**
 * The compiled validator for a schema (cached per schema object). Throws if ajv cannot compile the
 * schema: a programming error in a tool definition, never the model's fault.
 */
export function compileValidator(schema: JsonSchema): ValidateFunction {
  const cached = cache.get(schema);
  if (cached instanceof Error) throw cached;
  if (cached) return cached;
  try {
    const validate = ajv.compile(toAjvSchema(schema) as object);
    cache.set(schema, validate);
    return validate;
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    cache.set(schema, failure);
    throw failure;
  }
}

export function validateArguments(schema: JsonSchema, args: unknown): ValidationResult {
  if (!isPlainObject(args)) {
    return {
      ok: false,
      problems: [
        `The arguments must be a JSON object of named parameters, like {"name": value}, not ${describeData(args)}`,
      ],
    };
  }
  let validate: ValidateFunction;
  try {
    validate = compileValidator(schema);
  } catch (error) {
    return {
      ok: false,
      problems: [
        `This tool's parameter schema is broken, so no call to it can be checked (${(error as Error).message})`,
      ],
    };
  }

  const problems: string[] = [];
  const badNumberPaths = new Set<string>();
  const value = copyJson(args, [], problems, badNumberPaths) as Record<string, JsonValue>;
  if (!validate(value)) {
    for (const problem of describeErrors(validate.errors ?? [], badNumberPaths)) problems.push(problem);
  }
  // Sentences without a final period: callers join them ("…; …") and punctuate.
  const unique = [...new Set(problems)];
  return unique.length > 0 ? { ok: false, problems: unique } : { ok: true, value };
}

// ---------------------------------------------------------------------------------------------
// Value walk: JSON-only, finite, safe numbers, no reserved keys, objects without a prototype.

type PathPart = string | number;

/** Deeper than any tool's parameters go; a value nested further is refused, never walked (no stack to overflow). */
const MAX_DEPTH = 64;

function copyJson(value: unknown, path: PathPart[], problems: string[], badNumbers: Set<string>): unknown {
  const where = formatPath(path);
  if (path.length > MAX_DEPTH && typeof value === 'object' && value !== null) {
    problems.push(`${subject(where)} is nested more than ${MAX_DEPTH} levels deep`);
    return null;
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number': {
      if (Number.isNaN(value)) {
        problems.push(`${subject(where)} is not a valid number`);
        badNumbers.add(pointer(path));
      } else if (value > MAX_SAFE) {
        problems.push(`${subject(where)} is too large (${RANGE})`);
        badNumbers.add(pointer(path));
      } else if (value < MIN_SAFE) {
        problems.push(`${subject(where)} is too small (${RANGE})`);
        badNumbers.add(pointer(path));
      }
      return Object.is(value, -0) ? 0 : value;
    }
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) return value.map((item, i) => copyJson(item, [...path, i], problems, badNumbers));
      if (!isPlainObject(value)) {
        problems.push(`${subject(where)} must be a plain JSON value`);
        return null;
      }
      // No prototype: no key read from the copy can come from anywhere but the arguments themselves.
      const out = Object.create(null) as Record<string, unknown>;
      for (const [key, item] of Object.entries(value)) {
        if (isReservedArgumentKey(key)) {
          problems.push(reservedKeyProblem(key, where));
          continue;
        }
        if (item === undefined) continue;
        out[key] = copyJson(item, [...path, key], problems, badNumbers);
      }
      return out;
    }
    default:
      problems.push(`${subject(where)} must be a plain JSON value, not ${describeData(value)}`);
      return null;
  }
}

const RESERVED_NAMED = RESERVED_ARGUMENT_KEYS.map((key) => `\`${key}\``);
const RESERVED_LIST = `${RESERVED_NAMED.slice(0, -1).join(', ')} and ${RESERVED_NAMED.at(-1) ?? ''}`;

/** "The key `__proto__` in `filter.items[0]` is not allowed (...)": the key and its place, before anything is recorded. */
function reservedKeyProblem(key: string, where: string): string {
  const place = where === '' ? 'at the top of the arguments' : `in \`${where}\``;
  return `The key \`${key}\` ${place} is not allowed (${RESERVED_LIST} are refused as keys anywhere in the arguments)`;
}

// ---------------------------------------------------------------------------------------------
// Ajv errors to sentences

function describeErrors(errors: readonly ErrorObject[], badNumbers: ReadonlySet<string>): string[] {
  // The alternatives of a failed anyOf: keep the errors of the one alternative whose type fits
  // the value, if exactly one does; otherwise one summary sentence for the whole anyOf.
  const hidden: string[] = [];
  const summaries = new Map<string, string>();
  for (const error of errors) {
    if (error.keyword !== 'anyOf' || !Array.isArray(error.schema)) continue;
    const branches = error.schema as unknown[];
    const fitting = branches.map((b, i) => (typeAccepts(b, error.data) ? i : -1)).filter((i) => i >= 0);
    const prefix = `${error.schemaPath}/`;
    if (fitting.length === 1) {
      hidden.push(error.schemaPath);
      for (let i = 0; i < branches.length; i++) if (i !== fitting[0]) hidden.push(`${prefix}${i}/`);
    } else {
      hidden.push(prefix);
      summaries.set(
        error.schemaPath,
        `${subject(pathFromPointer(error.instancePath))} must be ${describeAlternatives(branches)}`,
      );
    }
  }
  const isHidden = (e: ErrorObject): boolean =>
    hidden.some((h) => (h.endsWith('/') ? e.schemaPath.startsWith(h) : e.schemaPath === h));

  const out: string[] = [];
  for (const error of errors) {
    if (badNumbers.has(error.instancePath)) continue;
    if (error.keyword === 'anyOf') {
      const summary = summaries.get(error.schemaPath);
      if (summary && !isHidden(error)) out.push(summary);
      continue;
    }
    if (isHidden(error) || error.keyword === 'if') continue;
    out.push(describeError(error));
  }
  return out;
}

function describeError(error: ErrorObject): string {
  const where = pathFromPointer(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `\`${join(where, String(params.missingProperty))}\` is required`;
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      const parent = error.parentSchema as { properties?: Record<string, unknown> } | undefined;
      const known = Object.keys(parent?.properties ?? {});
      const allowed = known.length > 0 ? `allowed: ${known.join(', ')}` : 'it takes no parameters here';
      return where === ''
        ? `\`${extra}\` is not a parameter of this tool (${allowed})`
        : `\`${join(where, extra)}\` is not an allowed key in \`${where}\` (${allowed})`;
    }
    case 'type': {
      const types = Array.isArray(params.type) ? (params.type as string[]) : String(params.type).split(',');
      return `${subject(where)} must be ${orList(types.map(typeNoun))}, not ${describeData(error.data)}`;
    }
    case 'enum':
      return `${subject(where)} must be one of: ${(params.allowedValues as unknown[]).map(showValue).join(', ')}`;
    case 'const':
      return `${subject(where)} must be exactly ${showValue(params.allowedValue)}`;
    case 'format': {
      const hint = FORMATS[String(params.format)]?.hint ?? `a valid ${String(params.format)}`;
      return `${subject(where)} must be ${hint}`;
    }
    case 'minItems':
      return `${subject(where)} must have at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `${subject(where)} must have at most ${String(params.limit)} item${params.limit === 1 ? '' : 's'}`;
    case 'minLength':
      return `${subject(where)} must be at least ${String(params.limit)} character${params.limit === 1 ? '' : 's'} long`;
    case 'maxLength':
      return `${subject(where)} must be at most ${String(params.limit)} character${params.limit === 1 ? '' : 's'} long`;
    case 'minProperties':
      return `${subject(where)} must have at least ${String(params.limit)} key${params.limit === 1 ? '' : 's'}`;
    case 'maxProperties':
      return `${subject(where)} must have at most ${String(params.limit)} key${params.limit === 1 ? '' : 's'}`;
    case 'false schema':
      return `${subject(where)} is not allowed`;
    default:
      return `${subject(where)} ${error.message ?? 'is not valid'}`;
  }
}

function describeAlternatives(branches: readonly unknown[]): string {
  const nouns: string[] = [];
  for (const branch of branches) {
    if (!isPlainObject(branch)) continue;
    let noun: string;
    if (Array.isArray(branch.enum)) noun = `one of ${branch.enum.map(showValue).join(', ')}`;
    else if (branch.const !== undefined) noun = showValue(branch.const);
    else if (typeof branch.type === 'string') noun = typeNoun(branch.type);
    else if (Array.isArray(branch.type)) noun = orList(branch.type.map(String).map(typeNoun));
    else noun = 'a value of another allowed form';
    if (!nouns.includes(noun)) nouns.push(noun);
  }
  return nouns.length > 0 ? orList(nouns) : 'one of the allowed forms';
}

/** Whether a branch's `type` (or enum/const) admits the JSON type of `data`. */
function typeAccepts(branch: unknown, data: unknown): boolean {
  if (!isPlainObject(branch)) return branch === true;
  if (Array.isArray(branch.enum)) return branch.enum.some((v) => jsonType(v) === jsonType(data));
  if (branch.const !== undefined) return jsonType(branch.const) === jsonType(data);
  const types = typeof branch.type === 'string' ? [branch.type] : Array.isArray(branch.type) ? branch.type : undefined;
  if (!types) return true;
  const actual = jsonType(data);
  return types.some(
    (t) => t === actual || (t === 'number' && actual === 'integer') || (t === 'integer' && actual === 'number'),
  );
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeNoun(type: string): string {
  switch (type) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'integer':
      return 'an integer';
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
    default:
      return `a ${type}`;
  }
}

function describeData(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'number':
      return String(value);
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    case 'bigint':
      return 'a bigint';
    default:
      return `a ${typeof value}`;
  }
}

function showValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function orList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1] ?? ''}`;
}

function subject(where: string): string {
  return where === '' ? 'The arguments' : `\`${where}\``;
}

function join(where: string, key: string): string {
  return where === '' ? key : `${where}${formatKey(key)}`;
}

function formatPath(path: readonly PathPart[]): string {
  let out = '';
  for (const part of path)
    out = typeof part === 'number' ? `${out}[${part}]` : out === '' ? part : `${out}${formatKey(part)}`;
  return out;
}

function formatKey(key: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function pointer(path: readonly PathPart[]): string {
  return path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

function pathFromPointer(instancePath: string): string {
  if (instancePath === '') return '';
  const parts: PathPart[] = instancePath
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^(0|[1-9][0-9]*)$/.test(p) ? Number(p) : p));
  return formatPath(parts);
}

// ---------------------------------------------------------------------------------------------
// Schema preparation for ajv

/** Keywords whose value is a schema, a list of schemas, or a map of schemas. */
const SUBSCHEMA = new Set([
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
const SUBSCHEMA_LISTS = new Set(['prefixItems', 'oneOf', 'anyOf', 'allOf']);
const SUBSCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** A copy with every `oneOf` read as `anyOf`, matching what the grammar generates. */
function toAjvSchema(schema: unknown): unknown {
  if (!isPlainObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    const name = key === 'oneOf' && schema.anyOf === undefined ? 'anyOf' : key;
    if (SUBSCHEMA.has(key)) out[name] = Array.isArray(value) ? value.map(toAjvSchema) : toAjvSchema(value);
    else if (SUBSCHEMA_LISTS.has(key) && Array.isArray(value)) out[name] = value.map(toAjvSchema);
    else if (SUBSCHEMA_MAPS.has(key) && isPlainObject(value)) {
      out[name] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toAjvSchema(v)]));
    } else out[name] = value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
