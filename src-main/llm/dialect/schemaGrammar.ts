/**
 * GBNF (llama.cpp's grammar format) for tool arguments, from the JSON Schema subset tools/schema normalizes every
 * tool to. Two forms: a JSON value (Qwen3's calls, and objects or arrays inside Qwen3.5's elements), and the raw text
 * of one Qwen3.5 parameter element, where a string is written bare and a number as its literal.
 *
 * Unlike node-llama-cpp's own JSON grammar, an optional property may be left out, an integer cannot carry an
 * exponent (Python would read `1e3` as a float), and separators take the optional space Python's json.dumps writes.
 */

type Schema = Readonly<Record<string, unknown>>;

/** A GBNF string literal of `text`. */
export function gbnfLiteral(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

const BASE_RULES: Readonly<Record<string, string>> = {
  ws: '[ ]?',
  'json-char': '[^"\\\\\\x7F\\x00-\\x1F] | "\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})',
  'json-string': '"\\"" json-char* "\\""',
  'json-int': '"-"? ("0" | [1-9] [0-9]{0,15})',
  'json-number': 'json-int ("." [0-9]{1,16})? ([eE] [-+]? [0-9]{1,3})?',
  'json-bool': '"true" | "false"',
  'json-null': '"null"',
  'json-value': 'json-object | json-array | json-string | json-number | json-bool | json-null',
  'json-object': '"{" ws ( json-string ":" ws json-value ( "," ws json-string ":" ws json-value )* )? ws "}"',
  'json-array': '"[" ws ( json-value ( "," ws json-value )* )? ws "]"',
  // A bare element value: any text that does not close the element (`</parameter>`).
  'xml-char': '[^<] | "<" [^/] | "</" [^p]',
  'xml-text': 'xml-char*',
};

/** Collects rules; equal bodies share one rule. */
export class GrammarRules {
  private readonly rules = new Map<string, string>();
  private readonly names = new Map<string, string>();
  private readonly used = new Set<string>();
  private next = 0;

  /** A named rule for `body`, reused when the same body was added before. */
  rule(body: string): string {
    const known = this.names.get(body);
    if (known) return known;
    const name = `r${this.next++}`;
    this.names.set(body, name);
    this.rules.set(name, body);
    return name;
  }

  /** One of the shared rules above (json-string, xml-text...), added with the rules it uses. */
  base(name: string): string {
    if (!this.used.has(name)) {
      this.used.add(name);
      const body = BASE_RULES[name];
      if (body === undefined) throw new Error(`no grammar rule ${name}`);
      for (const word of body.match(/[a-z][a-z-]+/g) ?? []) if (word in BASE_RULES && word !== name) this.base(word);
    }
    return name;
  }

  file(root: string): string {
    const lines = [`root ::= ${root}`];
    for (const name of this.used) lines.push(`${name} ::= ${BASE_RULES[name]}`);
    for (const [name, body] of this.rules) lines.push(`${name} ::= ${body}`);
    return lines.join('\n');
  }
}

function typesOf(schema: Schema): string[] | undefined {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return undefined;
}

/** `count` items separated by commas, between `min` and `max` (unbounded when absent). */
function repeat(item: string, min: number, max: number | undefined): string {
  if (max !== undefined && max <= 0) return '';
  const more = `( "," ws ${item} )`;
  const tail =
    max === undefined
      ? min > 1
        ? `${more}{${min - 1},}`
        : `${more}*`
      : max > 1
        ? `${more}{${Math.max(0, min - 1)},${max - 1}}`
        : '';
  const list = `${item} ${tail}`.trim();
  return min > 0 ? list : `( ${list} )?`;
}

/** The grammar of a JSON value matching `schema`; returns a rule reference or an inline expression. */
export function jsonValueGrammar(rules: GrammarRules, schema: Schema | undefined): string {
  if (!schema || typeof schema !== 'object') return rules.base('json-value');
  if ('const' in schema) return gbnfLiteral(JSON.stringify(schema.const));
  if (Array.isArray(schema.enum)) {
    const options = schema.enum.map((value) => gbnfLiteral(JSON.stringify(value)));
    return options.length ? rules.rule(options.join(' | ')) : rules.base('json-null');
  }
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (Array.isArray(alternatives)) {
    return rules.rule(alternatives.map((alternative) => jsonValueGrammar(rules, alternative)).join(' | '));
  }
  const types = typesOf(schema);
  if (!types || types.length === 0) return rules.base('json-value');
  if (types.length > 1)
    return rules.rule(types.map((type) => jsonValueGrammar(rules, { ...schema, type })).join(' | '));
  switch (types[0]) {
    case 'string': {
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
      if (min === 0 && max === undefined) return rules.base('json-string');
      return rules.rule(`"\\"" ${rules.base('json-char')}{${min},${max ?? ''}} "\\""`);
    }
    case 'integer':
      return rules.base('json-int');
    case 'number':
      return rules.base('json-number');
    case 'boolean':
      return rules.base('json-bool');
    case 'null':
      return rules.base('json-null');
    case 'array': {
      const item = jsonValueGrammar(rules, schema.items as Schema | undefined);
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
      rules.base('ws');
      return rules.rule(`"[" ws ${repeat(item, min, max)} ws "]"`);
    }
    case 'object':
      return objectGrammar(rules, schema);
    default:
      return rules.base('json-value');
  }
}

/** An object: its properties in the schema's order, required ones always, optional ones when the model wants. */
function objectGrammar(rules: GrammarRules, schema: Schema): string {
  rules.base('ws');
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const entries = Object.entries(properties).map(([key, value]) => ({
    pair: `${gbnfLiteral(JSON.stringify(key))} ":" ws ${jsonValueGrammar(rules, value)}`,
    required: required.has(key),
  }));
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false) {
    const value = jsonValueGrammar(rules, extra === true ? undefined : (extra as Schema));
    const pair = `${rules.base('json-string')} ":" ws ${value}`;
    // Any number of further keys, after the named ones.
    entries.push({ pair: `${pair} ( "," ws ${pair} )*`, required: false });
  }
  return rules.rule(`"{" ws ${sequence(rules, entries, ', ')} ws "}"`);
}

/**
 * Entries in order, some optional, joined by `separator`: what follows an emitted entry is a plain sequence of
 * `(separator entry)?`; what starts the list is the first entry the model chooses to write.
 */
export function sequence(
  rules: GrammarRules,
  entries: ReadonlyArray<{ readonly pair: string; readonly required: boolean }>,
  separator: ', ' | '',
): string {
  const sep = separator === ', ' ? '"," ws ' : '';
  const after = (from: number) =>
    entries
      .slice(from)
      .map((entry) => (entry.required ? `${sep}${entry.pair}` : `( ${sep}${entry.pair} )?`))
      .join(' ');
  // start(i): nothing written yet; entry i is the first written, or it is skipped (when optional).
  let start = '';
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    const written = `${entry.pair} ${after(i + 1)}`.trim();
    if (entry.required) start = written;
    else start = start === '' ? `( ${written} )?` : rules.rule(`( ${written} ) | ${start}`);
  }
  return start;
}

/** Whether Qwen3.5's template writes this parameter's value bare (`| string`) rather than as JSON (`| tojson`). */
export function isBareParameter(schema: Schema | undefined): boolean {
  if (!schema || typeof schema !== 'object') return false;
  if ('const' in schema) return typeof schema.const !== 'object' || schema.const === null;
  if (Array.isArray(schema.enum)) return schema.enum.every((value) => typeof value !== 'object' || value === null);
  const types = typesOf(schema);
  return types !== undefined && types.length > 0 && types.every((type) => type !== 'object' && type !== 'array');
}

/**
 * The grammar of one Qwen3.5 element's value. Scalars are written as Python's `str()` prints them (a string bare,
 * `True`, `None`), though the JSON spellings (`true`, `null`) are taken too; objects and arrays as JSON.
 */
export function elementValueGrammar(rules: GrammarRules, schema: Schema | undefined): string {
  if (!isBareParameter(schema)) return jsonValueGrammar(rules, schema);
  const s = schema!;
  const scalar = (value: unknown): string[] => {
    if (value === null) return ['"None"', '"null"'];
    if (value === true) return ['"True"', '"true"'];
    if (value === false) return ['"False"', '"false"'];
    return [gbnfLiteral(String(value))];
  };
  if ('const' in s) return rules.rule(scalar(s.const).join(' | '));
  if (Array.isArray(s.enum)) return rules.rule(s.enum.flatMap(scalar).join(' | ') || '"None"');
  const options = typesOf(s)!.map((type) => {
    switch (type) {
      case 'string': {
        const min = typeof s.minLength === 'number' ? s.minLength : 0;
        const max = typeof s.maxLength === 'number' ? s.maxLength : undefined;
        if (min === 0 && max === undefined) return rules.base('xml-text');
        return rules.rule(`( ${rules.base('xml-char')} ){${min},${max ?? ''}}`);
      }
      case 'integer':
        return rules.base('json-int');
      case 'number':
        return rules.base('json-number');
      case 'boolean':
        return '"True" | "False" | "true" | "false"';
      case 'null':
        return '"None" | "null"';
      default:
        return rules.base('json-value');
    }
  });
  return rules.rule(options.join(' | '));
}
