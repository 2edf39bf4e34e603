/**
 * Values printed as a chat template rendered by Hugging Face transformers prints them: Python's `str()` and the
 * `tojson` filter transformers defines (`json.dumps(x, ensure_ascii=False)`, default separators `, ` and `: `).
 * Models were trained on text rendered so; a prompt Homebody evaluates must be that text, byte for byte.
 */
import { WrittenNumber } from '../writtenJson.js';

/** Python's `repr(float)`: the shortest round-trip digits, fixed notation for exponents -4..15. */
export function reprFloat(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mantissa = '0', exponentText = '0'] = Math.abs(x).toExponential().split('e');
  const exponent = Number(exponentText);
  const digits = mantissa.replace('.', '');
  if (exponent < -4 || exponent >= 16) {
    const shown = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${shown}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  return `${sign}${whole}.${digits.slice(exponent + 1) || '0'}`;
}

/** An int as Python prints it: every digit (Python ints do not round), `-0` as `0`. */
function intText(literal: string): string {
  const trimmed = literal.replace(/^-?0+(?=\d)/, (m) => (m.startsWith('-') ? '-' : ''));
  return trimmed === '-0' ? '0' : trimmed;
}

/** A number as Python prints the value `json.loads` makes of it (an int keeps its digits, a float is repr'd). */
function numberText(value: number | WrittenNumber): string {
  if (value instanceof WrittenNumber) return value.isFloat ? reprFloat(value.value) : intText(value.text);
  // A number from JavaScript (a schema's bound, a default) was an int in the JSON it came from when it is whole.
  if (Number.isInteger(value))
    return Math.abs(value) < 1e21 ? String(value === 0 ? 0 : value) : BigInt(value).toString();
  return reprFloat(value);
}

/** `json.dumps(value, ensure_ascii=False)`. JSON.stringify escapes a string exactly as json.dumps does then. */
export function pyJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' || value instanceof WrittenNumber) {
    const n = value instanceof WrittenNumber ? value.value : value;
    // json.dumps writes Python's float specials so; no JSON parser reads them back.
    if (Number.isNaN(n)) return 'NaN';
    if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
    return numberText(value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyJson).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => `${JSON.stringify(key)}: ${pyJson(item)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(String(value));
}

/** Python's `str()` of a scalar (a template's `value | string`): `True`, `None`, `5.0`. */
export function pyStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number' || value instanceof WrittenNumber) return numberText(value);
  if (typeof value === 'string') return value;
  // Containers are printed by the template through tojson; str() of one (Python's repr) is not used here.
  return pyJson(value);
}
