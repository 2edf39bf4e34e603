/**
 * Turns real-world tool parameter schemas (JSON Schema, OpenAPI-ish, or BFCL's Python-flavoured
 * dialect with `dict`, `float`, `tuple`, `any`) into the JSON Schema subset that node-llama-cpp's
 * function-calling grammar understands (utils/gbnfJson/types.d.ts), and that `validateArguments`
 * then checks against. Never throws: what cannot be read becomes a permissive schema with a note.
 *
 * Grammar facts this relies on (node-llama-cpp 3.21):
 * - a schema without `type`/`enum`/`const`/`oneOf` compiles to `null` only, so "any" must be spelled out;
 * - an object's grammar always emits every key in `properties` and, with `additionalProperties`
 *   absent or false, no other key, so a property-less object only ever yields `{}`;
 * - a string `format` other than date, time and date-time compiles to the empty string only;
 * - `enum`/`const`/`oneOf` win over `type`, and `oneOf` means "any of" (no exclusivity).
 */
import type { JsonSchema, JsonValue } from '../toolTypes.js';

type Literal = string | number | boolean | null;
type BasicType = 'string' | 'number' | 'integer' | 'boolean' | 'null';
type TypeName = BasicType | 'object' | 'array' | 'any';

const BASIC_TYPES: readonly string[] = ['string', 'number', 'integer', 'boolean', 'null'];
const GRAMMAR_FORMATS: readonly string[] = ['date', 'time', 'date-time'];
/** Nesting beyond this becomes "any": keeps grammars small and stops reference cycles. */
const MAX_DEPTH = 24;
const MAX_NOTE_VALUE_CHARS = 200;

/** Type names seen in the wild, lower-cased, mapped to JSON Schema ones ("any" is ours). */
const TYPE_ALIASES: Readonly<Record<string, TypeName>> = {
  string: 'string',
  str: 'string',
  text: 'string',
  number: 'number',
  float: 'number',
  double: 'number',
  decimal: 'number',
  integer: 'integer',
  int: 'integer',
  long: 'integer',
  boolean: 'boolean',
  bool: 'boolean',
  null: 'null',
  none: 'null',
  object: 'object',
  dict: 'object',
  map: 'object',
  array: 'array',
  list: 'array',
  tuple: 'array',
  set: 'array',
  any: 'any',
};

/** Keywords dropped without a word: metadata with no meaning for the model or the grammar. */
const SILENT_KEYWORDS = new Set([
  '$schema',
  '$id',
  '$comment',
  '$anchor',
  '$defs',
  'definitions',
  'title',
  'optional',
  'deprecated',
  'readOnly',
  'writeOnly',
  'nullable',
  'discriminator',
  'xml',
  'externalDocs',
  'response',
  'additionalItems',
]);

/** Keywords that only make sense for one type (used to split a multi-type schema into branches). */
const TYPE_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  string: ['format', 'minLength', 'maxLength', 'pattern'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: ['items', 'prefixItems', 'minItems', 'maxItems', 'additionalItems', 'uniqueItems', 'contains'],
  object: [
    'properties',
    'required',
    'additionalProperties',
    'patternProperties',
    'minProperties',
    'maxProperties',
    'propertyNames',
  ],
};

/** Readable labels for constraints folded into the description. */
const NOTE_LABELS: Readonly<Record<string, string>> = {
  default: 'Default',
  minimum: 'Minimum',
  maximum: 'Maximum',
  exclusiveMinimum: 'Must be greater than',
  exclusiveMaximum: 'Must be less than',
  multipleOf: 'Must be a multiple of',
  pattern: 'Must match the pattern',
  format: 'Format',
  examples: 'Examples',
  example: 'Example',
  minLength: 'Minimum length',
  maxLength: 'Maximum length',
  minItems: 'Minimum items',
  maxItems: 'Maximum items',
  minProperties: 'Minimum keys',
  maxProperties: 'Maximum keys',
  uniqueItems: 'Items must be unique',
};

interface Context {
  /** The whole input, for local `$ref`s. */
  readonly root: unknown;
  readonly depth: number;
  /** `$ref`s being expanded on the current path (cycle guard). */
  readonly refs: readonly string[];
}

/** The permissive schema used for BFCL's `any`, a missing type, and anything unreadable. */
export function anyValueSchema(description?: string): JsonSchema {
  const schema: JsonSchema = {
    oneOf: [
      { type: ['string', 'number', 'boolean', 'null'] },
      { type: 'array' },
      { type: 'object', additionalProperties: true },
    ],
  };
  if (description) schema.description = description;
  return schema;
}

/**
 * Converts a tool's `parameters` into a clean object schema. The result always has
 * `type: "object"` and `properties`; unreadable input yields an object that accepts any keys, with a note.
 */
export function normalizeParameters(parameters: unknown): JsonSchema {
  try {
    if (parameters === undefined || parameters === null)
      return { type: 'object', properties: {}, additionalProperties: false };
    const ctx: Context = { root: parameters, depth: 0, refs: [] };
    const source = resolveRefs(asSchemaObject(parameters), ctx);
    if (source === undefined) return permissiveRoot('the parameter schema is not an object');
    if (source === false) return { type: 'object', properties: {}, additionalProperties: false };
    if (Array.isArray(source.value.allOf)) source.value = mergeAllOf(source.value, source.ctx);
    const declared = typeNames(source.value.type);
    const looksLikeObject =
      declared === undefined
        ? source.value.properties !== undefined || source.value.oneOf === undefined
        : declared.length === 1 && declared[0] === 'object';
    if (!looksLikeObject) {
      return permissiveRoot(`the parameters were not declared as an object (type ${describeRaw(source.value.type)})`);
    }
    const schema = normalizeObject(source.value, source.ctx, true);
    if (!schema.properties) schema.properties = {};
    return withDescription(schema, descriptionOf(source.value, []), [], true);
  } catch (error) {
    return permissiveRoot(`it could not be read (${error instanceof Error ? error.message : String(error)})`);
  }
}

function permissiveRoot(reason: string): JsonSchema {
  return {
    type: 'object',
    properties: {},
    additionalProperties: true,
    description: `Note: the original parameter schema was not usable because ${reason}; any named arguments are accepted.`,
  };
}

/** One schema position. Returns undefined for `false` (nothing allowed: the caller drops the property). */
function normalizeAny(raw: unknown, ctx: Context): JsonSchema | undefined {
  if (ctx.depth > MAX_DEPTH) return anyValueSchema('Note: nested too deeply to describe; any value is accepted.');
  if (raw === false) return undefined;
  if (raw === true) return anyValueSchema();
  if (typeof raw === 'string') return normalizeAny({ type: raw }, ctx);
  const resolved = resolveRefs(asSchemaObject(raw), ctx);
  if (resolved === false) return undefined;
  if (resolved === undefined) {
    return anyValueSchema(`Note: the schema here could not be read (${describeRaw(raw)}); any value is accepted.`);
  }
  return normalizeSchemaObject(resolved.value, resolved.ctx);
}

function normalizeSchemaObject(input: Record<string, unknown>, ctx: Context): JsonSchema {
  const source = { ...input };
  if (ctx.depth > MAX_DEPTH) return anyValueSchema('Note: nested too deeply to describe; any value is accepted.');
  const notes: string[] = [];
  const description = descriptionOf(source, notes);

  // allOf: merge the members into one schema (the common "base + extension" use); good enough for tools.
  if (Array.isArray(source.allOf)) {
    return normalizeSchemaObject(mergeAllOf(source, ctx), { ...ctx, depth: ctx.depth + 1 });
  }

  const alternatives = Array.isArray(source.oneOf)
    ? source.oneOf
    : Array.isArray(source.anyOf)
      ? source.anyOf
      : undefined;
  if (alternatives) return normalizeAlternatives(source, alternatives, ctx, description);

  if (source.const !== undefined) {
    if (isLiteral(source.const))
      return withDescription({ const: source.const }, description, notesFor(source, ['const', 'type'], notes));
    notes.push(`Must be exactly ${describeValue(source.const)}.`);
    delete source.const;
  }

  if (Array.isArray(source.enum)) {
    const values = uniqueLiterals(source.enum);
    if (values.length > 0) {
      if (values.length < source.enum.length) notes.push('Some listed values were not plain values and were left out.');
      return withDescription({ enum: values }, description, notesFor(source, ['enum', 'type'], notes));
    }
    notes.push(`Allowed values: ${describeValue(source.enum)}.`);
    delete source.enum;
  }

  let types = typeNames(source.type);
  if (types === undefined) types = inferTypes(source);
  if (source.nullable === true && !types.includes('null') && !types.includes('any')) types = [...types, 'null'];
  const unknownType = typeof source.type === 'string' && !(source.type.toLowerCase() in TYPE_ALIASES);
  if (unknownType) notes.push(`Original type: ${source.type as string}.`);

  if (types.includes('any')) {
    return withDescription(
      anyValueSchema(),
      description,
      notesFor(source, ['type', 'items', 'properties', 'required'], notes),
    );
  }
  if (types.length > 1) return normalizeMultiType(source, types, ctx, description, notes);
  const type = types[0] ?? 'null';
  switch (type) {
    case 'object':
      return withDescription(normalizeObject(source, ctx, false), description, notes, true);
    case 'array':
      return withDescription(normalizeArray(source, ctx, notes), description, notes, true);
    case 'string':
      return withDescription(normalizeString(source, notes), description, notes, true);
    default:
      return withDescription({ type }, description, notesFor(source, ['type'], notes));
  }
}

function normalizeAlternatives(
  source: Record<string, unknown>,
  alternatives: readonly unknown[],
  ctx: Context,
  description: string | undefined,
): JsonSchema {
  // Keywords beside oneOf/anyOf apply to every branch: distribute them.
  const shared: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key !== 'oneOf' && key !== 'anyOf' && key !== 'description' && key !== 'default' && key !== 'title')
      shared[key] = value;
  }
  const normalized: JsonSchema[] = [];
  for (const alternative of alternatives) {
    const merged = isPlainObject(alternative) ? { ...shared, ...alternative } : alternative;
    const branch = normalizeAny(merged, { ...ctx, depth: ctx.depth + 1 });
    if (branch) normalized.push(branch);
  }
  const notes: string[] = [];
  if (source.default !== undefined) notes.push(`Default: ${describeValue(source.default)}.`);
  if (normalized.some(isAnyValueSchema)) return withDescription(anyValueSchema(), description, notes);
  const branches: JsonSchema[] = [];
  const seen = new Set<string>();
  const addBranch = (branch: JsonSchema): void => {
    if (Array.isArray(branch.oneOf) && Object.keys(branch).every((k) => k === 'oneOf' || k === 'description')) {
      for (const inner of branch.oneOf) if (isPlainObject(inner)) addBranch(inner as JsonSchema);
      return;
    }
    const key = JSON.stringify(branch);
    if (!seen.has(key)) {
      seen.add(key);
      branches.push(branch);
    }
  };
  for (const branch of normalized) addBranch(branch);
  if (branches.length === 0)
    return anyValueSchema(
      joinDescription(description, ['Note: no usable alternative was given; any value is accepted.']),
    );
  if (branches.length === 1) {
    const only = branches[0] as JsonSchema;
    const inner = typeof only.description === 'string' ? [only.description] : [];
    return withDescription(only, joinDescription(description, inner), notes);
  }
  return withDescription({ oneOf: branches }, description, notes);
}

function normalizeMultiType(
  source: Record<string, unknown>,
  types: readonly TypeName[],
  ctx: Context,
  description: string | undefined,
  notes: string[],
): JsonSchema {
  const stringConstraints = ['format', 'minLength', 'maxLength'].some((k) => source[k] !== undefined);
  if (types.every((t) => BASIC_TYPES.includes(t)) && !stringConstraints) {
    return withDescription({ type: [...types] }, description, notesFor(source, ['type'], notes));
  }
  const rest: Record<string, unknown> = { ...source };
  delete rest.description;
  delete rest.default;
  delete rest.nullable;
  const branches = types.map((type) => {
    // Each branch keeps only the keywords meant for its own type.
    const own = Object.fromEntries(
      Object.entries(rest).filter(
        ([key]) =>
          !Object.entries(TYPE_KEYWORDS).some(
            ([t, keys]) => t !== type && keys.includes(key) && !(TYPE_KEYWORDS[type]?.includes(key) ?? false),
          ),
      ),
    );
    return normalizeSchemaObject({ ...own, type }, { ...ctx, depth: ctx.depth + 1 });
  });
  const extra = source.default !== undefined ? [...notes, `Default: ${describeValue(source.default)}.`] : notes;
  return withDescription({ oneOf: branches }, description, extra);
}

function normalizeObject(source: Record<string, unknown>, ctx: Context, isRoot: boolean): JsonSchema {
  const notes: string[] = [];
  const inner: Context = { ...ctx, depth: ctx.depth + 1 };
  const properties: Record<string, JsonValue> = {};
  const optional = new Set<string>();
  const rawProperties = source.properties;
  if (isPlainObject(rawProperties)) {
    for (const [name, raw] of Object.entries(rawProperties)) {
      const schema = normalizeAny(raw, inner);
      if (schema) properties[name] = schema;
      if (isPlainObject(raw) && isTruthyFlag(raw.optional)) optional.add(name);
    }
  } else if (rawProperties !== undefined) {
    notes.push(`Note: its list of keys could not be read (${describeRaw(rawProperties)}).`);
  }
  const names = Object.keys(properties);

  const required: string[] = [];
  const dangling: string[] = [];
  if (Array.isArray(source.required)) {
    for (const name of source.required) {
      if (typeof name !== 'string') continue;
      if (Object.hasOwn(properties, name)) {
        if (!optional.has(name) && !required.includes(name)) required.push(name);
      } else if (!dangling.includes(name)) dangling.push(name);
    }
  }
  if (dangling.length > 0) notes.push(`Expected keys: ${dangling.join(', ')}.`);

  const schema: JsonSchema = { type: 'object' };
  if (names.length > 0 || rawProperties !== undefined || isRoot) schema.properties = properties;
  if (required.length > 0) schema.required = required;

  const additional = source.additionalProperties;
  if (additional === true || additional === false) schema.additionalProperties = additional;
  else if (additional !== undefined && additional !== null) {
    const value = normalizeAny(additional, inner);
    schema.additionalProperties = value ?? false;
  } else if (names.length > 0) schema.additionalProperties = false;
  // A property-less object: free-form when nested (a map such as {subject: score}); no arguments at the root.
  else schema.additionalProperties = !isRoot && rawProperties === undefined;

  if (schema.additionalProperties !== false) {
    for (const key of ['minProperties', 'maxProperties'] as const) {
      const n = source[key];
      if (isCount(n)) schema[key] = n;
    }
  }
  if (source.patternProperties !== undefined) {
    notes.push(`Keys matching patterns: ${describeValue(source.patternProperties)}.`);
    if (names.length === 0 && additional === undefined) schema.additionalProperties = true;
  }
  const handled = ['type', 'properties', 'required', 'additionalProperties', 'patternProperties'];
  if (schema.additionalProperties !== false) handled.push('minProperties', 'maxProperties');
  return withDescription(schema, undefined, notesFor(source, handled, notes));
}

function normalizeArray(source: Record<string, unknown>, ctx: Context, notes: string[]): JsonSchema {
  const inner: Context = { ...ctx, depth: ctx.depth + 1 };
  const schema: JsonSchema = { type: 'array' };
  const handled = ['type', 'items', 'prefixItems', 'minItems', 'maxItems', 'additionalItems'];
  const isTuple = typeof source.type === 'string' && source.type.toLowerCase() === 'tuple';

  let prefix: unknown[] | undefined;
  let closed = false;
  if (Array.isArray(source.prefixItems)) {
    prefix = source.prefixItems;
    closed = source.items === false;
    if (source.items !== undefined && source.items !== false) {
      const items = normalizeAny(source.items, inner);
      if (items) schema.items = items;
    }
  } else if (Array.isArray(source.items)) {
    // Draft-07 tuple form: `items: [a, b]`, with `additionalItems` for the rest.
    prefix = source.items;
    closed = isTuple || source.additionalItems === false;
    if (isPlainObject(source.additionalItems)) {
      const items = normalizeAny(source.additionalItems, inner);
      if (items) schema.items = items;
    }
  } else if (source.items !== undefined && source.items !== true) {
    const items = source.items === false ? undefined : normalizeAny(source.items, inner);
    if (items) schema.items = items;
    else schema.maxItems = 0;
  }

  let min = isCount(source.minItems) ? source.minItems : undefined;
  let max = isCount(source.maxItems) ? source.maxItems : undefined;
  if (prefix) {
    const prefixSchemas = prefix.map((item) => normalizeAny(item, inner) ?? anyValueSchema());
    if (prefixSchemas.length > 0) {
      schema.prefixItems = prefixSchemas;
      min = Math.max(min ?? 0, prefixSchemas.length);
      if (closed) max = prefixSchemas.length;
    }
  }
  if (min !== undefined && max !== undefined && max < min) {
    notes.push(
      `Between ${String(source.minItems)} and ${String(source.maxItems)} items were asked for, which is contradictory.`,
    );
    min = undefined;
    max = undefined;
  }
  if (min !== undefined && min > 0) schema.minItems = min;
  if (max !== undefined && schema.maxItems === undefined) schema.maxItems = max;
  notes.push(...notesFor(source, handled, []));
  return schema;
}

function normalizeString(source: Record<string, unknown>, notes: string[]): JsonSchema {
  const schema: JsonSchema = { type: 'string' };
  const handled = ['type', 'minLength', 'maxLength'];
  if (typeof source.format === 'string' && GRAMMAR_FORMATS.includes(source.format)) {
    // The grammar ignores lengths on a format string; the format fixes the length anyway.
    schema.format = source.format;
    handled.push('format');
    notes.push(...notesFor(source, handled, []));
    return schema;
  }
  let min = isCount(source.minLength) ? source.minLength : undefined;
  let max = isCount(source.maxLength) ? source.maxLength : undefined;
  if (min !== undefined && max !== undefined && max < min) {
    notes.push(`Between ${min} and ${max} characters were asked for, which is contradictory.`);
    min = undefined;
    max = undefined;
  }
  if (min !== undefined && min > 0) schema.minLength = min;
  if (max !== undefined) schema.maxLength = max;
  notes.push(...notesFor(source, handled, []));
  return schema;
}

// ---------------------------------------------------------------------------------------------
// Helpers

function asSchemaObject(raw: unknown): Record<string, unknown> | undefined {
  return isPlainObject(raw) ? raw : undefined;
}

/** Expands local `$ref`s (`#`, `#/$defs/x`, `#/definitions/x`, any JSON pointer into the input). */
function resolveRefs(
  source: Record<string, unknown> | undefined,
  ctx: Context,
): { value: Record<string, unknown>; ctx: Context } | false | undefined {
  let value = source;
  let current = ctx;
  for (let hops = 0; value && typeof value.$ref === 'string'; hops++) {
    const ref = value.$ref;
    if (hops > 16 || current.refs.includes(ref)) {
      return {
        value: { description: `Note: recursive reference ${ref}; any value is accepted.`, type: 'any' },
        ctx: current,
      };
    }
    const target = resolvePointer(current.root, ref);
    const { $ref: _ref, ...rest } = value;
    if (target === true) return { value: { ...rest, type: 'any' }, ctx: current };
    if (target === false) return false;
    if (!isPlainObject(target)) {
      const description = joinDescription(strOr(rest.description), [
        `Note: unresolved reference ${ref}; any value is accepted.`,
      ]);
      return { value: { ...rest, type: 'any', description }, ctx: current };
    }
    // Siblings of $ref (description, default) refine the target.
    value = { ...target, ...rest };
    current = { ...current, refs: [...current.refs, ref] };
  }
  return value ? { value, ctx: current } : undefined;
}

function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const path = ref.slice(1);
  if (path === '' || path === '/') return root;
  let node: unknown = root;
  for (const part of path.replace(/^\//, '').split('/')) {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isPlainObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function mergeAllOf(source: Record<string, unknown>, ctx: Context): Record<string, unknown> {
  const { allOf, ...merged } = source;
  const properties: Record<string, unknown> = isPlainObject(merged.properties) ? { ...merged.properties } : {};
  const required: unknown[] = Array.isArray(merged.required) ? [...merged.required] : [];
  for (const member of allOf as unknown[]) {
    const resolved = resolveRefs(asSchemaObject(member), ctx);
    if (!resolved) continue;
    const { properties: p, required: r, description: d, ...rest } = resolved.value;
    for (const [key, value] of Object.entries(rest)) if (merged[key] === undefined) merged[key] = value;
    if (isPlainObject(p)) Object.assign(properties, p);
    if (Array.isArray(r)) required.push(...r);
    if (typeof d === 'string' && merged.description === undefined) merged.description = d;
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.length > 0) merged.required = required;
  return merged;
}

function typeNames(raw: unknown): TypeName[] | undefined {
  const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : undefined;
  if (!list) return undefined;
  const names: TypeName[] = [];
  for (const item of list) {
    if (typeof item !== 'string') continue;
    const name: TypeName = TYPE_ALIASES[item.trim().toLowerCase()] ?? 'any';
    if (!names.includes(name)) names.push(name);
  }
  if (names.length === 0) return undefined;
  // "integer" is a "number"; listing both would only add an ambiguous alternative.
  if (names.includes('number') && names.includes('integer')) names.splice(names.indexOf('integer'), 1);
  return names;
}

function inferTypes(source: Record<string, unknown>): TypeName[] {
  if (source.properties !== undefined || source.additionalProperties !== undefined || source.required !== undefined)
    return ['object'];
  if (source.items !== undefined || source.prefixItems !== undefined) return ['array'];
  if (
    source.minLength !== undefined ||
    source.maxLength !== undefined ||
    source.pattern !== undefined ||
    source.format !== undefined
  )
    return ['string'];
  return ['any'];
}

function descriptionOf(source: Record<string, unknown>, notes: string[]): string | undefined {
  const raw = source.description;
  if (typeof raw === 'string') return raw.trim() || undefined;
  if (raw !== undefined && raw !== null) notes.push(`Description: ${describeValue(raw)}.`);
  return undefined;
}

/** Notes for every keyword of `source` that is neither handled nor silent (default and constraints). */
function notesFor(source: Record<string, unknown>, handled: readonly string[], notes: string[]): string[] {
  const out = [...notes];
  for (const [key, value] of Object.entries(source)) {
    if (key === 'description' || handled.includes(key) || SILENT_KEYWORDS.has(key) || value === undefined) continue;
    if (key.startsWith('x-')) continue;
    if (['properties', 'items', 'prefixItems', 'required', 'oneOf', 'anyOf', 'allOf', '$ref'].includes(key)) continue;
    const label = NOTE_LABELS[key] ?? key;
    out.push(key === 'uniqueItems' ? (value === true ? `${label}.` : '') : `${label}: ${describeValue(value)}.`);
  }
  return out.filter((n) => n !== '');
}

function withDescription(
  schema: JsonSchema,
  description: string | undefined,
  notes: readonly string[],
  replaceNotes = false,
): JsonSchema {
  const existing = typeof schema.description === 'string' ? schema.description : undefined;
  const text = replaceNotes
    ? joinDescription(description, [...(existing ? [existing] : []), ...notes])
    : joinDescription(description ?? existing, notes);
  const { description: _old, ...rest } = schema;
  return text ? { ...rest, description: text } : rest;
}

function joinDescription(description: string | undefined, notes: readonly string[]): string | undefined {
  const parts: string[] = [];
  for (const part of [description, ...notes]) {
    const trimmed = part?.trim();
    if (trimmed && !parts.includes(trimmed)) parts.push(trimmed);
  }
  if (parts.length === 0) return undefined;
  return parts.map((p, i) => (i < parts.length - 1 && !/[.!?:;]$/.test(p) ? `${p}.` : p)).join(' ');
}

function describeValue(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = `'${value}'`;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > MAX_NOTE_VALUE_CHARS ? `${text.slice(0, MAX_NOTE_VALUE_CHARS)}…` : text;
}

function describeRaw(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'string' ? `'${value.slice(0, 60)}'` : `a ${typeof value}`;
}

function strOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isLiteral(value: unknown): value is Literal {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function uniqueLiterals(values: readonly unknown[]): Literal[] {
  const out: Literal[] = [];
  for (const value of values) if (isLiteral(value) && !out.some((v) => Object.is(v, value))) out.push(value);
  return out;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isTruthyFlag(value: unknown): boolean {
  return value === true || (typeof value === 'string' && ['true', 'yes', '1'].includes(value.trim().toLowerCase()));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isAnyValueSchema(schema: JsonSchema): boolean {
  const { description: _d, ...rest } = schema;
  return JSON.stringify(rest) === JSON.stringify(anyValueSchema());
}

// ---------------------------------------------------------------------------------------------
// Tool names

/** Longest function name produced (the common limit of chat APIs and templates). */
export const MAX_TOOL_NAME_LENGTH = 64;

/**
 * A grammar- and template-safe function name: `[A-Za-z_][A-Za-z0-9_]*`, at most 64 characters.
 * node-llama-cpp itself only forbids spaces, tabs, new lines and the empty name, but several chat
 * wrappers print functions as TypeScript (`type math.factorial = ...`), where a dot breaks the
 * syntax. Not reversible on its own (`a.b` and `a_b` meet): use `createToolNameMap` for that.
 */
export function normalizeToolName(name: string): string {
  let safe = name.trim().replace(/[^A-Za-z0-9_]/g, '_');
  if (safe === '') safe = 'tool';
  if (/^[0-9]/.test(safe)) safe = `_${safe}`;
  return safe.slice(0, MAX_TOOL_NAME_LENGTH);
}

export interface ToolNameMap {
  /** The safe name given to an original name (undefined if it was not in the list). */
  toSafe(original: string): string | undefined;
  /** The original name behind a safe name the model produced (undefined if unknown). */
  toOriginal(safe: string): string | undefined;
  readonly entries: ReadonlyArray<readonly [original: string, safe: string]>;
}

/** Gives each distinct original name a distinct safe name (suffixing `_2`, `_3`… on collisions). */
export function createToolNameMap(names: Iterable<string>, reserved: Iterable<string> = []): ToolNameMap {
  const toSafe = new Map<string, string>();
  const toOriginal = new Map<string, string>();
  const taken = new Set(reserved);
  for (const original of names) {
    if (toSafe.has(original)) continue;
    const base = normalizeToolName(original);
    let safe = base;
    for (let n = 2; taken.has(safe); n++) {
      const suffix = `_${n}`;
      safe = base.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length) + suffix;
    }
    taken.add(safe);
    toSafe.set(original, safe);
    toOriginal.set(safe, original);
  }
  return {
    toSafe: (original) => toSafe.get(original),
    toOriginal: (safe) => toOriginal.get(safe),
    entries: [...toSafe.entries()],
  };
}
