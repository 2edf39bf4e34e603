/**
 * Test support: a corpus of mutated BFCL answers, built deterministically from `../shared/bfcl` (simple_python,
 * multiple, parallel, parallel_multiple and their possible answers). Each case gives its right answer, then that
 * answer made wrong (or differently right) the ways a model's can be: another allowed value, wrong values, wrong
 * types (int and float as written, `5` against `5.0`, at the top, in arrays and in dicts; a string for a number, a
 * bool for an int...), arguments missing or extra, another function's name, too few or too many calls, parallel
 * calls in another order. Every output is JSON TEXT as a model writes it, BFCL's decoded form
 * `[{"name": {"arg": value}}]`, so `5.0` stays a float: Homebody's checker reads it through parseWrittenJson,
 * BFCL's through json.loads (bfclAgreement.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseWrittenJson, WrittenNumber, writtenJsonText, type WrittenValue } from '../llm/writtenJson.js';
import { assertBfclDir, bfclDir } from './bfclFixtures.js';

export const MUTATION_CATEGORIES = ['simple_python', 'multiple', 'parallel', 'parallel_multiple'] as const;
export type MutationCategory = (typeof MUTATION_CATEGORIES)[number];

/** A BFCL case as both checkers read it. */
export interface CorpusCase {
  readonly id: string;
  readonly category: MutationCategory;
  /** The case's function docs, as the data file has them. */
  readonly functions: readonly unknown[];
  /** The case's ground truth as JSON text, its numbers written as the possible-answer file writes them. */
  readonly answer: string;
}

export interface BfclMutation {
  /** `<case id>#<n> <kind>`: unique, and says what was done. */
  readonly id: string;
  readonly caseId: string;
  /** What was done to the right answer, e.g. `int-as-float`, `item-float-as-int`, `calls-reversed`. */
  readonly kind: string;
  /** The calls as a model writes them, JSON text in BFCL's decoded form. */
  readonly output: string;
}

export interface MutationCorpus {
  readonly cases: ReadonlyMap<string, CorpusCase>;
  readonly mutations: readonly BfclMutation[];
}

type Dict = { readonly [key: string]: WrittenValue };
/** A call being built: its name and its arguments in order. */
interface Call {
  readonly name: string;
  readonly args: ReadonlyArray<readonly [string, WrittenValue]>;
}
/** What a parameter's doc says (BFCL's dialect). */
interface ParamDoc {
  readonly type?: unknown;
  readonly items?: { readonly type?: unknown };
}
interface FunctionDoc {
  readonly name: string;
  readonly parameters: { readonly properties: Readonly<Record<string, ParamDoc>>; readonly required: string[] };
}

function isDict(value: WrittenValue | undefined): value is Dict {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof WrittenNumber);
}

function isInt(value: WrittenValue | undefined): value is WrittenNumber {
  return value instanceof WrittenNumber && !value.isFloat;
}

function isFloat(value: WrittenValue | undefined): value is WrittenNumber {
  return value instanceof WrittenNumber && value.isFloat;
}

const num = (text: string) => new WrittenNumber(text);

/** `5` → `5.0`, `-3` → `-3.0`: the same value, a float to Python. */
function intAsFloat(n: WrittenNumber): WrittenNumber {
  return num(`${BigInt(n.text)}.0`);
}

/** A float written as an int: its value when whole (`5.0` → `5`), else truncated (`2.5` → `2`). */
function floatAsInt(n: WrittenNumber): WrittenNumber {
  return num(Number.isFinite(n.value) ? BigInt(Math.trunc(n.value)).toString() : '0');
}

/** A float's literal another way, same value: `2.5` → `2.5e0`, `1e3` → `1000.0`. */
function floatRespelled(n: WrittenNumber): WrittenNumber {
  return /[eE]/.test(n.text)
    ? num(Number.isInteger(n.value) ? `${BigInt(n.value)}.0` : String(n.value))
    : num(`${n.text}e0`);
}

/** A different float: one more. */
function floatChanged(n: WrittenNumber): WrittenNumber {
  const x = n.value + 1;
  const text = String(x);
  return num(/[.eE]/.test(text) ? text : `${text}.0`);
}

/** The first allowed value, or none when only "" (left out) is allowed. */
function firstAllowed(allowed: WrittenValue): { value: WrittenValue } | undefined {
  const values = Array.isArray(allowed) ? allowed : [allowed];
  const value = values.find((v) => v !== '');
  return value === undefined ? undefined : { value };
}

/**
 * An allowed value as a model writes it: a dict answer gives each key's allowed values, so the model writes each
 * key's first one (leaving out keys that may be left out); a list of dicts the same, item by item.
 */
function materialize(value: WrittenValue, doc: ParamDoc | undefined): WrittenValue {
  if (doc?.type === 'dict' && isDict(value)) return materializeDict(value);
  if (doc?.type === 'array' && doc.items?.type === 'dict' && Array.isArray(value)) {
    return value.map((item) => (isDict(item) ? materializeDict(item) : item));
  }
  return value;
}

function materializeDict(answer: Dict): Dict {
  const out: Record<string, WrittenValue> = {};
  for (const [key, allowed] of Object.entries(answer)) {
    const first = firstAllowed(allowed);
    if (first) defineKey(out, key, first.value);
  }
  return out;
}

/** A key set as data (a key named `__proto__` included). */
function defineKey(record: Record<string, WrittenValue>, key: string, value: WrittenValue): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

function withKey(dict: Dict, key: string, value: WrittenValue | undefined): Dict {
  const out: Record<string, WrittenValue> = {};
  for (const [k, v] of Object.entries(dict)) if (k !== key) defineKey(out, k, v);
  if (value !== undefined) defineKey(out, key, value);
  return out;
}

function withItem(list: readonly WrittenValue[], index: number, value: WrittenValue): WrittenValue[] {
  return list.map((item, i) => (i === index ? value : item));
}

/** A string made wrong: BFCL standardizes case, spaces and `,./-_*^`, so letters are added. */
function stringChanged(s: string): string {
  return `${s} extra`;
}

/** A string spelled another way that BFCL's standardize_string makes the same. */
function stringRestyled(s: string): string {
  return s.toUpperCase().replace(/ /g, '  ').replace(/,/g, ' ,');
}

/** A value of a JSON type for a declared parameter the answer does not use. */
function valueOfType(type: unknown): WrittenValue {
  switch (type) {
    case 'integer':
      return num('3');
    case 'float':
      return num('3.0');
    case 'boolean':
      return true;
    case 'array':
    case 'tuple':
      return ['x'];
    case 'dict':
      return { key: 'x' };
    default:
      return 'x';
  }
}

type Mutated = readonly [kind: string, value: WrittenValue];

/** The ways one argument's value is made wrong (or written another way), by what it is. */
function valueMutations(value: WrittenValue, doc: ParamDoc | undefined): Mutated[] {
  const out: Mutated[] = [['null', null]];
  if (isInt(value)) {
    out.push(
      ['int-as-float', intAsFloat(value)],
      ['int-as-exponent', num(`${value.text}e0`)],
      ['int-changed', num(`${BigInt(value.text) + 1n}`)],
      ['int-negated', num(`${BigInt(value.text) === 0n ? 2n : -BigInt(value.text)}`)],
      ['int-as-other-float', num(`${BigInt(value.text)}.5`)],
      ['int-as-string', value.text],
      ['int-as-bool', true],
      ['int-as-list', [value]],
    );
  } else if (isFloat(value)) {
    out.push(
      [Number.isInteger(value.value) ? 'float-as-int' : 'float-truncated', floatAsInt(value)],
      ['float-respelled', floatRespelled(value)],
      ['float-changed', floatChanged(value)],
      ['float-as-string', value.text],
    );
  } else if (typeof value === 'boolean') {
    out.push(['bool-flipped', !value], ['bool-as-int', num(value ? '1' : '0')], ['bool-as-string', String(value)]);
  } else if (typeof value === 'string') {
    out.push(
      ['string-changed', stringChanged(value)],
      ['string-restyled', stringRestyled(value)],
      // A number as JSON writes it: no leading zeros (`00125648` → `125648`).
      ['string-as-number', num(/^-?\d+(\.\d+)?$/.test(value) ? value.replace(/^(-?)0+(?=\d)/, '$1') : '0')],
      ['string-as-bool', true],
      ['string-as-list', [value]],
      ['string-empty', ''],
    );
  } else if (Array.isArray(value)) {
    out.push(...listMutations(value, doc));
  } else if (isDict(value)) {
    out.push(...dictMutations(value, 'dict'));
  }
  return out;
}

function listMutations(list: readonly WrittenValue[], doc: ParamDoc | undefined): Mutated[] {
  const out: Mutated[] = [
    ['list-empty', []],
    ['list-as-string', list.map((v) => writtenJsonText(v)).join(', ')],
  ];
  if (list.length >= 2) {
    const reversed = [...list].reverse();
    if (writtenJsonText(reversed) !== writtenJsonText(list)) out.push(['list-reversed', reversed]);
    out.push(['list-item-dropped', list.slice(0, -1)]);
  }
  if (list.length >= 1) {
    out.push(['list-item-duplicated', [...list, list[0]!]]);
    const first = list[0]!;
    if (typeof first === 'string') out.push(['item-as-number', withItem(list, 0, num('0'))]);
    else if (!isDict(first)) out.push(['item-as-string', withItem(list, 0, writtenJsonText(first))]);
  }
  // The first few number items one at a time, then all of them.
  const ints = indicesOf(list, isInt);
  for (const i of ints) out.push(['item-int-as-float', withItem(list, i, intAsFloat(list[i] as WrittenNumber))]);
  if (ints.length > 0) {
    out.push(
      ['items-int-as-float', list.map((v) => (isInt(v) ? intAsFloat(v) : v))],
      ['item-int-as-bool', withItem(list, ints[0]!, true)],
    );
  }
  const floats = indicesOf(list, isFloat);
  for (const i of floats) out.push(['item-float-as-int', withItem(list, i, floatAsInt(list[i] as WrittenNumber))]);
  if (floats.length > 0) {
    out.push(['items-float-as-int', list.map((v) => (isFloat(v) && Number.isInteger(v.value) ? floatAsInt(v) : v))]);
  }
  const firstBool = list.findIndex((v) => typeof v === 'boolean');
  if (firstBool >= 0) out.push(['item-bool-as-int', withItem(list, firstBool, num(list[firstBool] ? '1' : '0'))]);
  // An array of arrays: the inner numbers are compared by value, not type-checked.
  const firstInner = list.findIndex((v) => Array.isArray(v) && v.some(isInt));
  if (firstInner >= 0) {
    const inner = list[firstInner] as readonly WrittenValue[];
    out.push([
      'inner-int-as-float',
      withItem(
        list,
        firstInner,
        inner.map((v) => (isInt(v) ? intAsFloat(v) : v)),
      ),
    ]);
  }
  // An array of dicts: each dict's values are compared by value, keys checked.
  const firstDict = list.findIndex(isDict);
  if (firstDict >= 0) {
    for (const [kind, changed] of dictMutations(list[firstDict] as Dict, 'item-dict'))
      out.push([kind, withItem(list, firstDict, changed)]);
    if (doc?.items?.type === 'dict' && list.length >= 1) out.push(['item-dict-as-string', withItem(list, 0, 'x')]);
  }
  return out;
}

/** The indices of the first few items that are so. */
function indicesOf(list: readonly WrittenValue[], test: (v: WrittenValue) => boolean, most = 3): number[] {
  return list.flatMap((v, i) => (test(v) ? [i] : [])).slice(0, most);
}

function dictMutations(dict: Dict, prefix: string): Mutated[] {
  const entries = Object.entries(dict);
  const out: Mutated[] = [
    [`${prefix}-key-added`, withKey(dict, 'extra_key', 'x')],
    [`${prefix}-as-list`, entries.map(([, v]) => v)],
  ];
  const [firstKey, firstValue] = entries[0] ?? [];
  if (firstKey !== undefined && firstValue !== undefined) {
    out.push([`${prefix}-key-dropped`, withKey(dict, firstKey, undefined)]);
    const changed =
      typeof firstValue === 'string'
        ? stringChanged(firstValue)
        : firstValue instanceof WrittenNumber
          ? num(`${firstValue.value + 1}`)
          : 'x';
    out.push([`${prefix}-value-changed`, withKey(dict, firstKey, changed)]);
  }
  const intKey = entries.find(([, v]) => isInt(v));
  if (intKey) out.push([`${prefix}-int-as-float`, withKey(dict, intKey[0], intAsFloat(intKey[1] as WrittenNumber))]);
  const floatKey = entries.find(([, v]) => isFloat(v));
  if (floatKey)
    out.push([`${prefix}-float-as-int`, withKey(dict, floatKey[0], floatAsInt(floatKey[1] as WrittenNumber))]);
  return out;
}

/** How the JSON is laid out: compact, Python's json.dumps spacing, or indented over lines. */
type Layout = 'compact' | 'spaced' | 'indented';
const LAYOUTS: readonly Layout[] = ['spaced', 'compact', 'indented'];

function writeJson(value: WrittenValue, layout: Layout, depth = 0): string {
  const colon = layout === 'compact' ? ':' : ': ';
  const join = (parts: string[], open: string, close: string) => {
    if (parts.length === 0) return open + close;
    if (layout !== 'indented') return open + parts.join(layout === 'compact' ? ',' : ', ') + close;
    const pad = '  '.repeat(depth + 1);
    return `${open}\n${pad}${parts.join(`,\n${pad}`)}\n${'  '.repeat(depth)}${close}`;
  };
  if (Array.isArray(value))
    return join(
      value.map((v) => writeJson(v, layout, depth + 1)),
      '[',
      ']',
    );
  if (isDict(value)) {
    const parts = Object.entries(value).map(
      ([k, v]) => `${JSON.stringify(k)}${colon}${writeJson(v, layout, depth + 1)}`,
    );
    return join(parts, '{', '}');
  }
  return writtenJsonText(value);
}

function outputText(calls: readonly Call[], layout: Layout): string {
  return writeJson(
    calls.map((call) => {
      const args: Record<string, WrittenValue> = {};
      for (const [key, value] of call.args) defineKey(args, key, value);
      return { [call.name]: args };
    }),
    layout,
  );
}

function readLines(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

function asFunctionDoc(raw: unknown): FunctionDoc {
  const doc = raw as { name: string; parameters?: { properties?: Record<string, ParamDoc>; required?: string[] } };
  return {
    name: doc.name,
    parameters: { properties: doc.parameters?.properties ?? {}, required: doc.parameters?.required ?? [] },
  };
}

/** Every mutation of one case, the right answer first. */
function caseMutations(c: CorpusCase, truth: readonly WrittenValue[]): Array<{ kind: string; calls: Call[] }> {
  const docs = c.functions.map(asFunctionDoc);
  const expected = truth.map((call) => {
    const [name, answer] = Object.entries(call as Dict)[0] ?? ['', {}];
    return { name, answer: answer as Dict, doc: docs.find((d) => d.name === name) };
  });
  const right: Call[] = expected.map(({ name, answer, doc }) => ({
    name,
    args: Object.entries(answer).flatMap(([param, allowed]) => {
      const first = firstAllowed(allowed);
      return first ? [[param, materialize(first.value, doc?.parameters.properties[param])] as const] : [];
    }),
  }));
  const out: Array<{ kind: string; calls: Call[] }> = [{ kind: 'correct', calls: right }];
  const replace = (index: number, call: Call): Call[] => right.map((c2, i) => (i === index ? call : c2));

  right.forEach((call, index) => {
    const { answer, doc } = expected[index]!;
    const properties = doc?.parameters.properties ?? {};
    const required = new Set(doc?.parameters.required ?? []);
    const setArg = (param: string, value: WrittenValue | undefined): Call => ({
      name: call.name,
      args:
        value === undefined
          ? call.args.filter(([p]) => p !== param)
          : call.args.some(([p]) => p === param)
            ? call.args.map(([p, v]) => [p, p === param ? value : v] as const)
            : [...call.args, [param, value] as const],
    });
    for (const [param, allowed] of Object.entries(answer)) {
      const values = (Array.isArray(allowed) ? allowed : [allowed]).filter((v) => v !== '');
      if (values.length >= 2) {
        out.push({
          kind: 'alternative',
          calls: replace(index, setArg(param, materialize(values[1]!, properties[param]))),
        });
      }
    }
    const optional = Object.entries(answer).filter(([, allowed]) => Array.isArray(allowed) && allowed.includes(''));
    if (optional.some(([param]) => call.args.some(([p]) => p === param))) {
      let left = call;
      for (const [param] of optional) left = { ...left, args: left.args.filter(([p]) => p !== param) };
      out.push({ kind: 'optionals-left-out', calls: replace(index, left) });
    }
    for (const [param, value] of call.args) {
      const allowed = answer[param];
      const mayBeLeftOut = Array.isArray(allowed) && allowed.includes('');
      const missing = required.has(param)
        ? 'required-missing'
        : mayBeLeftOut
          ? 'optional-left-out'
          : 'optional-missing';
      out.push({ kind: missing, calls: replace(index, setArg(param, undefined)) });
      for (const [kind, changed] of valueMutations(value, properties[param]))
        out.push({ kind, calls: replace(index, setArg(param, changed)) });
    }
    out.push({ kind: 'param-undeclared', calls: replace(index, setArg('extra_param', 'x')) });
    const unused = Object.entries(properties).find(([param]) => !Object.hasOwn(answer, param));
    if (unused)
      out.push({ kind: 'param-not-in-answer', calls: replace(index, setArg(unused[0], valueOfType(unused[1].type))) });
    out.push({ kind: 'name-changed', calls: replace(index, { ...call, name: `${call.name}_v2` }) });
    if (call.name.includes('.'))
      out.push({
        kind: 'name-dots-as-underscores',
        calls: replace(index, { ...call, name: call.name.replaceAll('.', '_') }),
      });
    const other = docs.find((d) => d.name !== call.name);
    if (other) out.push({ kind: 'name-other-function', calls: replace(index, { ...call, name: other.name }) });
  });

  out.push({ kind: 'no-calls', calls: [] });
  out.push({ kind: 'call-duplicated', calls: [...right, right[0]!] });
  const another = docs.find((d) => !right.some((call) => call.name === d.name));
  if (another) out.push({ kind: 'call-extra', calls: [...right, { name: another.name, args: [] }] });
  if (right.length >= 2) {
    out.push({ kind: 'call-dropped', calls: right.slice(0, -1) });
    out.push({ kind: 'calls-reversed', calls: [...right].reverse() });
  }
  if (right.length >= 3) out.push({ kind: 'calls-rotated', calls: [...right.slice(1), right[0]!] });
  return out;
}

/**
 * The whole corpus, in a fixed order: category by category, case by case, the right answer first. The layout of
 * each output's JSON (compact, spaced, indented) cycles with its place, and an output written twice for one case
 * (a reversal that changes nothing) is kept once.
 */
export function buildMutationCorpus(): MutationCorpus {
  assertBfclDir();
  const cases = new Map<string, CorpusCase>();
  const mutations: BfclMutation[] = [];
  for (const category of MUTATION_CATEGORIES) {
    const file = `BFCL_v4_${category}.json`;
    const functions = new Map<string, unknown[]>();
    for (const line of readLines(join(bfclDir, file))) {
      const record = JSON.parse(line) as { id: string; function: unknown[] };
      functions.set(record.id, record.function);
    }
    for (const line of readLines(join(bfclDir, 'possible_answer', file))) {
      const record = parseWrittenJson(line) as { id: string; ground_truth: WrittenValue[] };
      const docs = functions.get(record.id);
      if (!docs) throw new Error(`possible_answer/${file}: ${record.id} has no case in ${file}`);
      const c: CorpusCase = { id: record.id, category, functions: docs, answer: writtenJsonText(record.ground_truth) };
      cases.set(c.id, c);
      const seen = new Set<string>();
      const add = (kind: string, calls: readonly Call[], layout: Layout, key = outputText(calls, 'compact')) => {
        if (seen.has(key)) return;
        seen.add(key);
        mutations.push({ id: `${c.id}#${seen.size} ${kind}`, caseId: c.id, kind, output: outputText(calls, layout) });
      };
      const [right, ...wrong] = caseMutations(c, record.ground_truth);
      // The right answer in every layout: only the spacing differs.
      for (const layout of LAYOUTS)
        add(`correct-${layout}`, right!.calls, layout, `${layout} ${outputText(right!.calls, layout)}`);
      for (const { kind, calls } of wrong) add(kind, calls, LAYOUTS[mutations.length % LAYOUTS.length]!);
    }
  }
  return { cases, mutations };
}

/**
 * A deterministic sample of about `size` mutations: every kind in it, each in proportion to its share of the
 * corpus (every n-th of that kind, its first always).
 */
export function sampleMutations(mutations: readonly BfclMutation[], size: number): BfclMutation[] {
  const stride = Math.max(1, Math.ceil(mutations.length / size));
  const seenOfKind = new Map<string, number>();
  return mutations.filter((m) => {
    const n = seenOfKind.get(m.kind) ?? 0;
    seenOfKind.set(m.kind, n + 1);
    return n % stride === 0;
  });
}
