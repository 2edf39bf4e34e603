import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { objectSchema, shownArg } from '../files/common.js';
import { evaluateSafely, loadMath } from './safeMath.js';
import { asNumber, asText, formatNumber, groupDigits, plain, summarizer } from '../summaryText.js';

export type ConvertUnitsArgs = { value: number; from: string; to: string };

/** Names people write for temperatures, as mathjs spells them. */
const ALIASES: Record<string, string> = {
  c: 'degC',
  '°c': 'degC',
  celsius: 'degC',
  f: 'degF',
  '°f': 'degF',
  fahrenheit: 'degF',
  kelvin: 'K',
};

const unitName = (text: string): string => ALIASES[text.trim().toLowerCase()] ?? text.trim();

export const convertUnits: BuiltinToolDefinition<ConvertUnitsArgs> = {
  name: 'convert_units',
  description: 'Convert a measurement between units: length, weight, volume, speed, temperature (C, F, K), time, data.',
  parameters: objectSchema(
    {
      value: { type: 'number', description: 'The amount, e.g. 5.' },
      from: { type: 'string', minLength: 1, maxLength: 40, description: 'Its unit, e.g. "miles", "lb", "C".' },
      to: { type: 'string', minLength: 1, maxLength: 40, description: 'The unit wanted, e.g. "km", "kg", "F".' },
    },
    ['value', 'from', 'to'],
  ),
  risk: 'read',
  touches: 'nothing',
  forPeople: {
    title: 'Convert units',
    text: 'Converts an amount from one unit to another, such as miles to kilometres or Fahrenheit to Celsius.',
  },
  describe(args) {
    return {
      title: 'Convert units',
      summary: `Convert ${shownArg(args.value)} ${shownArg(args.from)} to ${shownArg(args.to)}.`,
      details: [],
    };
  },
  summarize: summarizer<ConvertUnitsArgs>((r) => {
    const from = asText(r.from);
    const text = asText(r.result);
    if (from === undefined || text === undefined) return null;
    const value = asNumber(r.value);
    const unit = asText(r.unit);
    const result = value !== undefined && unit !== undefined ? `${formatNumber(value, 6)} ${unit}` : text;
    return `${unitsForPeople(from)} = ${unitsForPeople(result)}`;
  }),
  async run(args) {
    const { math } = await loadMath();
    const from = unitName(args.from);
    const to = unitName(args.to);
    // Unit names go through the same checked evaluator; only names that are units get this far.
    for (const name of [from, to]) {
      if (!/^[A-Za-z][A-Za-z0-9_^/ ]*$/.test(name) || !math.Unit.isValuelessUnit(name.split(/[ ^/]/)[0] ?? '')) {
        throw new ToolError(
          'INVALID_INPUT',
          `"${name}" is not a unit I know (try km, mi, lb, kg, degC, degF, l, gal).`,
        );
      }
    }
    const { value, text } = await evaluateSafely(`${Number(args.value)} ${from} to ${to}`);
    const number = math.isUnit(value) ? value.toNumber(to) : undefined;
    return {
      result: {
        from: `${args.value} ${from}`,
        result: text,
        ...(number !== undefined ? { value: Number(number.toPrecision(12)), unit: to } : {}),
      },
    };
  },
};

/** "100 degF" as people write it: "100 °F". */
function unitsForPeople(text: string): string {
  return groupDigits(plain(text, 60))
    .replace(/\bdegC\b/g, '°C')
    .replace(/\bdegF\b/g, '°F');
}
