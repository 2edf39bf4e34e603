/**
 * BFCL's AST checker (gorilla, bfcl_eval/eval_checker/ast_eval/ast_checker.py), for Python-style cases, so a
 * score here means what the leaderboard's does: the same checks in the same order, the same error texts and
 * error types, its quirks included (a nested type failure that still passes as a "variable", `""` matching an
 * empty list, the multiple checker looking at the first call only).
 *
 * Numbers are checked as they were written. Python's `json.loads` makes `5` an int and `5.0` a float, and BFCL
 * checks the type: `5.0` for an `integer` parameter is a type error, and so is `5` among the items of an array of
 * floats (only a top-level float parameter turns an int into a float). A call's `written` arguments and answers
 * parsed by parseWrittenJson keep each literal (WrittenNumber), so the checker answers as BFCL does on them.
 * A call with no written form (from elsewhere than the engine's dialects) keeps the JavaScript reading: an
 * integral number is an int, and a float parameter or array item takes any number. Python's `1 == True` and exact
 * int/float equality are kept. Where BFCL would crash (no description for the expected tool, a description
 * without parameters, a type it does not know, an item of a list of dicts that is not a dict) the checker
 * answers instead: no description is invalid, no parameters is none, an unknown type is `any`, an item that is
 * not a dict is an empty one.
 */
import { WrittenNumber, type WrittenValue } from '../llm/writtenJson.js';
import type { ExpectedCall, MatchRule } from './evalCase.js';
import { reprFloat } from '../llm/dialect/pythonValues.js';

/** A proposed call, under the tool's original name. */
export interface CheckedCall {
  readonly name: string;
  readonly args: unknown;
  /** The same arguments as the model wrote them (numbers keep their literal); checked instead of `args` when given. */
  readonly written?: WrittenValue;
}

/** A tool's description: BFCL's dialect (`dict`, `float`, `tuple`, `any`) or JSON Schema (`object`, `number`). */
export interface ToolDoc {
  readonly name: string;
  readonly parameters: unknown;
}

export interface CheckResult {
  readonly valid: boolean;
  /** BFCL's error messages, joined. */
  readonly error?: string;
  /** BFCL's error type, e.g. `simple_function_checker:missing_required`, `value_error:string`. */
  readonly errorType?: string;
}

/** Python's `type(value).__name__` for JSON values. */
type PyType = 'str' | 'int' | 'float' | 'bool' | 'list' | 'dict' | 'NoneType';

/** BFCL's PYTHON_TYPE_MAPPING, plus JSON Schema's names for the same types. */
const TYPE_MAPPING: Readonly<Record<string, PyType>> = {
  string: 'str',
  integer: 'int',
  float: 'float',
  number: 'float',
  boolean: 'bool',
  array: 'list',
  tuple: 'list',
  dict: 'dict',
  object: 'dict',
  any: 'str',
};
const NESTED_TYPES = new Set(['array', 'tuple']);

/** A type BFCL does not know (or none) is `any`, which BFCL checks as a string. */
function mapType(type: unknown): PyType {
  return typeof type === 'string' && Object.hasOwn(TYPE_MAPPING, type) ? (TYPE_MAPPING[type] ?? 'str') : 'str';
}

const VALID: CheckResult = { valid: true };

function invalid(errorType: string, ...errors: string[]): CheckResult {
  return { valid: false, error: errors.join(' '), errorType };
}

// ---- Python semantics for JSON values ----

function isDict(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof WrittenNumber);
}

function asDict(value: unknown): Record<string, unknown> {
  return isDict(value) ? value : {};
}

function has(record: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(record, key);
}

function pyTypeOf(value: unknown): PyType {
  if (typeof value === 'string') return 'str';
  if (value instanceof WrittenNumber) return value.isFloat ? 'float' : 'int';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'list';
  if (isDict(value)) return 'dict';
  return 'NoneType';
}

/** `type(value) == expected`, where a plain JavaScript number (no written form) passes for a float (see above). */
function hasPyType(value: unknown, expected: PyType): boolean {
  return (expected === 'float' && typeof value === 'number') || pyTypeOf(value) === expected;
}

type Numeric = number | boolean | WrittenNumber;

function isNumeric(value: unknown): value is Numeric {
  return typeof value === 'number' || typeof value === 'boolean' || value instanceof WrittenNumber;
}

/** A number as Python holds it: an int exactly (a bigint), a float as a double. */
function exactNumber(value: Numeric): bigint | number {
  if (typeof value === 'boolean') return value ? 1n : 0n;
  if (value instanceof WrittenNumber) return value.isFloat ? value.value : BigInt(value.text);
  return Number.isInteger(value) ? BigInt(value) : value;
}

/** Python's `==` on numbers: exact, across int and float (`2**53 + 1 != 2.0**53`). */
function numbersEqual(a: Numeric, b: Numeric): boolean {
  const x = exactNumber(a);
  const y = exactNumber(b);
  if (typeof x === typeof y) return x === y;
  const [int, float] = (typeof x === 'bigint' ? [x, y] : [y, x]) as [bigint, number];
  return Number.isInteger(float) && BigInt(float) === int;
}

/** Python's `==`: deep for lists and dicts, and `True == 1`, `1 == 1.0`. */
function pyEquals(a: unknown, b: unknown): boolean {
  if (isNumeric(a) && isNumeric(b)) return numbersEqual(a, b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEquals(x, b[i]));
  }
  if (isDict(a) && isDict(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => has(b, k) && pyEquals(a[k], b[k]));
  }
  if (a === undefined || a === null) return b === undefined || b === null;
  return a === b;
}

function pyIn(value: unknown, list: readonly unknown[]): boolean {
  return list.some((item) => pyEquals(value, item));
}

/** What Python iterates over in `for x in value` (a string's characters); nothing for what it cannot iterate. */
function pyItems(value: unknown): readonly unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return Array.from(value);
  return [];
}

function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code >= 0xd800 && code <= 0xdfff) out += `\\u${code.toString(16)}`;
    else out += ch;
  }
  return out + quote;
}

/** Python's `repr()` of a JSON value, as BFCL's messages print it; `asFloat` shows an int turned into a float. */
function repr(value: unknown, asFloat = false): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (value instanceof WrittenNumber) {
    if (value.isFloat) return reprFloat(value.value);
    const int = BigInt(value.text);
    return asFloat ? reprFloat(Number(int)) : int.toString();
  }
  if (typeof value === 'number') {
    if (asFloat || !Number.isInteger(value)) return reprFloat(value);
    return Math.abs(value) < 1e21 ? String(value === 0 ? 0 : value) : BigInt(value).toString();
  }
  if (typeof value === 'string') return reprString(value);
  if (Array.isArray(value)) return `[${value.map((v) => repr(v)).join(', ')}]`;
  if (isDict(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${reprString(k)}: ${repr(v)}`)
      .join(', ')}}`;
  return String(value);
}

/**
 * BFCL's `standardize_string`: drops spaces and `,./-_*^`, lowercases, and turns `'` into `"`, so that
 * "April 1, 2024" and "april 1 2024" compare equal.
 */
export function standardizeString(s: string): string {
  return s
    .replace(/[ ,./\-_*^]/g, '')
    .toLowerCase()
    .replaceAll("'", '"');
}

function standardizeIfString(value: unknown): unknown {
  return typeof value === 'string' ? standardizeString(value) : value;
}

// ---- BFCL's checkers ----

interface TypeCheck {
  readonly valid: boolean;
  readonly isVariable: boolean;
  readonly result: CheckResult;
}

/** The type of the first allowed value that is not `""` (optional); null when there is none. */
function possibleAnswerType(allowed: readonly unknown[]): PyType | null {
  for (const answer of allowed) if (answer !== '') return pyTypeOf(answer);
  return null;
}

/**
 * BFCL's `type_checker`. An answer whose type differs from the declared one is a "variable" (compared as is,
 * not standardized). A nested failure falls through to the variable test, which returns it still invalid.
 */
function typeChecker(
  param: string,
  value: unknown,
  valueType: PyType,
  allowed: readonly unknown[],
  expectedDescription: string,
  expected: PyType,
  nested: PyType | null,
  shownAsFloat = false,
): TypeCheck {
  const answerType = possibleAnswerType(allowed);
  const isVariable = answerType !== null && answerType !== expected;
  const errors: string[] = [];
  let errorType = 'type_error:simple';
  if (valueType === expected || hasPyType(value, expected)) {
    if (nested === null) return { valid: true, isVariable, result: VALID };
    for (const answer of allowed) {
      let matches = true;
      if (Array.isArray(answer)) {
        for (const item of pyItems(value)) {
          if (!typeChecker(param, item, pyTypeOf(item), answer, `<class '${nested}'>`, nested, null).valid) {
            matches = false;
            break;
          }
        }
      }
      if (matches) return { valid: true, isVariable, result: VALID };
    }
    errors.push(
      `Nested type checking failed for parameter ${repr(param)}. Expected outer type ${expectedDescription} ` +
        `with inner type <class '${nested}'>. Parameter value: ${repr(value)}.`,
    );
    errorType = 'type_error:nested';
  }
  if (answerType !== null && valueType === answerType) {
    const result = errors.length > 0 ? invalid(errorType, ...errors) : VALID;
    return { valid: result.valid, isVariable: true, result };
  }
  errors.push(
    `Incorrect type for parameter ${repr(param)}. Expected type ${expectedDescription}, got ${valueType}. ` +
      `Parameter value: ${repr(value, shownAsFloat)}.`,
  );
  return { valid: false, isVariable, result: invalid('type_error:simple', ...errors) };
}

function stringChecker(param: string, value: string, allowed: readonly unknown[]): CheckResult {
  const standardized = allowed.filter((a): a is string => typeof a === 'string').map(standardizeString);
  if (standardized.includes(standardizeString(value))) return VALID;
  return invalid(
    'value_error:string',
    `Invalid value for parameter ${repr(param)}: ${repr(value)}. Expected one of ${repr(allowed)}. Case insensitive.`,
  );
}

function listChecker(param: string, value: readonly unknown[], allowed: readonly unknown[]): CheckResult {
  const standardized = value.map(standardizeIfString);
  if (allowed.some((answer) => pyEquals(standardized, pyItems(answer).map(standardizeIfString)))) return VALID;
  return invalid(
    'value_error:list/tuple',
    `Invalid value for parameter ${repr(param)}: ${repr(value)}. Expected one of ${repr(allowed)}.`,
  );
}

/** One level deep, as BFCL's: each key's value is compared (standardized) with the answer's allowed values. */
function dictChecker(value: unknown, allowed: readonly unknown[]): CheckResult {
  const given = asDict(value);
  let result: CheckResult = { valid: false, errorType: 'dict_checker:unclear' };
  for (const candidate of allowed) {
    if (candidate === '') continue;
    const answer = asDict(candidate);
    result = { valid: false, errorType: 'dict_checker:unclear' };
    let matches = true;
    for (const [key, item] of Object.entries(given)) {
      if (!has(answer, key)) {
        result = invalid('value_error:dict_key', `Unexpected dict key parameter: '${key}'.`);
        matches = false;
        break;
      }
      const standardizedAllowed = pyItems(answer[key]).map(standardizeIfString);
      if (!pyIn(standardizeIfString(item), standardizedAllowed)) {
        result = invalid(
          'value_error:dict_value',
          `Invalid value for parameter ${repr(key)}: ${repr(item)}. Expected one of ${repr(standardizedAllowed)}.`,
        );
        matches = false;
        break;
      }
    }
    for (const [key, keyAllowed] of Object.entries(answer)) {
      if (!has(given, key) && !pyItems(keyAllowed).includes('')) {
        result = invalid('value_error:dict_key', `Missing dict key parameter: '${key}'.`);
        matches = false;
        break;
      }
    }
    if (matches) return VALID;
  }
  return result;
}

/** A list of dicts: same length as an allowed list, each dict matching the one at its index. */
function listDictChecker(value: readonly unknown[], allowed: readonly unknown[]): CheckResult {
  let result: CheckResult = { valid: false, errorType: 'list_dict_checker:unclear' };
  for (const candidate of allowed) {
    const answer = pyItems(candidate);
    if (value.length !== answer.length) {
      result = invalid('value_error:list_dict_count', 'Wrong number of dictionaries in the list.');
      continue;
    }
    let matches = true;
    for (let i = 0; i < value.length; i++) {
      result = dictChecker(value[i], [answer[i]]);
      if (!result.valid) {
        matches = false;
        break;
      }
    }
    if (matches) return VALID;
  }
  return result;
}

/** The arguments of an expected call (`{name: {arg: [allowed]}}`), each as a list of allowed values. */
function expectedCallParts(call: ExpectedCall | undefined): { name: string; args: Record<string, unknown[]> } {
  const [name, rawArgs] = Object.entries(asDict(call))[0] ?? ['', {}];
  const args: Record<string, unknown[]> = {};
  for (const [arg, allowed] of Object.entries(asDict(rawArgs)))
    args[arg] = Array.isArray(allowed) ? allowed : [allowed];
  return { name, args };
}

function findDoc(docs: readonly ToolDoc[], name: string): ToolDoc | undefined {
  return docs.find((doc) => doc.name === name);
}

function docNotFound(name: string): CheckResult {
  return invalid('function_doc_not_found', `Function doc not found for ${repr(name)}.`);
}

/** BFCL's `simple_function_checker`: one call against one expected call, under the expected tool's description. */
function simpleFunctionChecker(doc: ToolDoc, call: CheckedCall, expected: ExpectedCall | undefined): CheckResult {
  const answer = expectedCallParts(expected).args;
  const parameters = asDict(doc.parameters);
  const properties = asDict(parameters.properties);
  const required = pyItems(parameters.required).filter((p): p is string => typeof p === 'string');

  if (call.name !== doc.name) {
    return invalid(
      'simple_function_checker:wrong_func_name',
      `Function name ${repr(doc.name)} not found in model output.`,
    );
  }
  const args = asDict(call.written ?? call.args);
  for (const param of required) {
    if (!has(args, param)) {
      return invalid('simple_function_checker:missing_required', `Missing required parameter: ${repr(param)}.`);
    }
  }

  for (const [param, value] of Object.entries(args)) {
    if (!has(properties, param) || !has(answer, param)) {
      return invalid('simple_function_checker:unexpected_param', `Unexpected parameter: ${repr(param)}.`);
    }
    const allowed = answer[param] ?? [];
    const details = asDict(properties[param]);
    const description = typeof details.type === 'string' ? details.type : 'any';
    const expectedType = mapType(description);
    let nestedType: PyType | null = null;
    if (NESTED_TYPES.has(description)) {
      const items = asDict(details.items);
      if (has(items, 'type')) nestedType = mapType(items.type);
    }
    // Python turns an int into a float for a float parameter (at the top level only, not an array's items).
    const toFloat = expectedType === 'float' && pyTypeOf(value) === 'int';
    const valueType = toFloat ? 'float' : pyTypeOf(value);

    const typeCheck = typeChecker(param, value, valueType, allowed, description, expectedType, nestedType, toFloat);
    if (!typeCheck.valid) return typeCheck.result;

    if (!typeCheck.isVariable) {
      let special: CheckResult | undefined;
      if (expectedType === 'dict') special = dictChecker(value, allowed);
      else if (expectedType === 'list' && nestedType === 'dict') special = listDictChecker(pyItems(value), allowed);
      else if (expectedType === 'str') special = stringChecker(param, String(value), allowed);
      else if (expectedType === 'list') special = listChecker(param, pyItems(value), allowed);
      if (special) {
        if (!special.valid) return special;
        continue;
      }
    }
    if (!pyIn(value, allowed)) {
      return invalid(
        'value_error:others',
        `Invalid value for parameter ${repr(param)}: ${repr(value, toFloat)}. Expected one of ${repr(allowed)}.`,
      );
    }
  }

  for (const [param, allowed] of Object.entries(answer)) {
    if (!has(args, param) && !allowed.includes('')) {
      return invalid(
        'simple_function_checker:missing_optional',
        `Optional parameter ${repr(param)} not provided and not marked as optional.`,
      );
    }
  }
  return VALID;
}

function simpleChecker(docs: readonly ToolDoc[], calls: readonly CheckedCall[], expected: readonly ExpectedCall[]) {
  if (calls.length !== 1) return invalid('simple_function_checker:wrong_count', 'Wrong number of functions.');
  const [call] = calls as [CheckedCall];
  const { name } = expectedCallParts(expected[0]);
  const doc = findDoc(docs, name);
  return doc ? simpleFunctionChecker(doc, call, expected[0]) : docNotFound(name);
}

/** BFCL's `multiple_function_checker`: the right number of calls, and the first matching the first expected. */
function multipleChecker(docs: readonly ToolDoc[], calls: readonly CheckedCall[], expected: readonly ExpectedCall[]) {
  if (calls.length !== expected.length) {
    return invalid('multiple_function_checker:wrong_count', 'Wrong number of functions.');
  }
  const [call] = calls;
  // Nothing expected and nothing called (BFCL has no such case, and would fail on it).
  if (call === undefined) return VALID;
  const { name } = expectedCallParts(expected[0]);
  const doc = findDoc(docs, name);
  return doc ? simpleFunctionChecker(doc, call, expected[0]) : docNotFound(name);
}

/**
 * BFCL's `parallel_function_checker_no_order`: each expected call, in order, takes the first call not taken yet
 * that matches it (greedy, so an early loose match can leave a later expected call without one).
 */
function parallelChecker(docs: readonly ToolDoc[], calls: readonly CheckedCall[], expected: readonly ExpectedCall[]) {
  if (calls.length !== expected.length) {
    return invalid('parallel_function_checker_no_order:wrong_count', 'Wrong number of functions.');
  }
  const matched = new Set<number>();
  for (const [i, expectedCall] of expected.entries()) {
    const { name } = expectedCallParts(expectedCall);
    const doc = findDoc(docs, name);
    if (!doc) return docNotFound(name);
    const subErrors: string[] = [];
    let found = false;
    for (const [index, call] of calls.entries()) {
      if (matched.has(index)) continue;
      const result = simpleFunctionChecker(doc, call, expectedCall);
      if (result.valid) {
        matched.add(index);
        found = true;
        break;
      }
      subErrors.push(`Model Result Index ${index}: ${result.error ?? result.errorType ?? ''}`);
    }
    if (!found) {
      const considered = calls.map((_, index) => index).filter((index) => !matched.has(index));
      return invalid(
        'parallel_function_checker_no_order:cannot_find_match',
        `Could not find a matching function among index [${considered.join(', ')}] of model output ` +
          `for index ${i} of possible answers.`,
        ...subErrors,
      );
    }
  }
  return VALID;
}

/** Scores a case's calls by its rule, as BFCL's `ast_checker` and its relevance checks do. */
export function checkCalls(
  rule: MatchRule,
  docs: readonly ToolDoc[],
  calls: readonly CheckedCall[],
  expected: readonly ExpectedCall[],
): CheckResult {
  switch (rule) {
    case 'simple':
      return simpleChecker(docs, calls, expected);
    case 'multiple':
      return multipleChecker(docs, calls, expected);
    case 'parallel':
      return parallelChecker(docs, calls, expected);
    case 'no-call':
      return calls.length === 0
        ? VALID
        : invalid('irrelevance_error:decoder_success', 'Valid syntax. Successfully decode AST when it should not.');
    case 'any-call':
      return calls.length > 0
        ? VALID
        : invalid('relevance_error:decoder_failed', 'Invalid syntax. Failed to decode AST when it should have.');
    default:
      return rule satisfies never;
  }
}
