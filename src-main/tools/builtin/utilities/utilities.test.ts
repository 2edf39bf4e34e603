import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { makePackContext } from '../../../testing/tools/packTestContext.js';
import { calculate } from './calculate.js';
import { convertUnits } from './convertUnits.js';
import { dateCalc } from './dateCalc.js';
import { UTILITY_TOOLS } from './index.js';

const { ctx, cleanup } = makePackContext();
const calc = async (expression: string) =>
  ((await calculate.run({ expression }, ctx)).result as { result: string }).result;
const refused = (expression: string) => calculate.run({ expression }, ctx);

describe('utility tools', () => {
  it('are all read risk', () => {
    expect(UTILITY_TOOLS.map((t) => [t.name, t.risk])).toEqual([
      ['calculate', 'read'],
      ['convert_units', 'read'],
      ['date_calc', 'read'],
    ]);
    cleanup();
  });
});

describe('calculate', () => {
  it('computes arithmetic, functions and units', async () => {
    expect(await calc('(12.5 * 3) / 4')).toBe('9.375');
    expect(await calc('sqrt(2)')).toBe('1.4142135623731');
    expect(await calc('0.1 + 0.2')).toBe('0.3');
    expect(await calc('max(3, 7, 2) + 2^10')).toBe('1031');
    expect(await calc('5 miles to km')).toBe('8.04672 km');
    expect(await calc('15% of 80')).toBe('12');
    expect(await calc('3 km + 200 m')).toBe('3.2 km');
  });

  it('refuses import, createUnit, evaluate, function definitions and ranges, saying so', async () => {
    await expect(refused('import({a: 1})')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/import is not allowed/),
    });
    await expect(refused('createUnit("foo")')).rejects.toMatchObject({ message: expect.stringMatching(/createUnit/) });
    await expect(refused('evaluate("1+1")')).rejects.toMatchObject({ message: expect.stringMatching(/evaluate/) });
    await expect(refused('f(x) = x^2')).rejects.toMatchObject({ message: expect.stringMatching(/Defining/) });
    await expect(refused('x = 5')).rejects.toMatchObject({ message: expect.stringMatching(/Defining/) });
    await expect(refused('1:100000000')).rejects.toMatchObject({ message: expect.stringMatching(/Ranges/) });
    await expect(refused('zeros(100000, 100000)')).rejects.toMatchObject({ message: expect.stringMatching(/zeros/) });
    await expect(refused('[1].constructor')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('refuses huge exponents and results that are not finite', async () => {
    await expect(refused('10^10000')).rejects.toMatchObject({ message: expect.stringMatching(/too large/) });
    await expect(refused('factorial(100000)')).rejects.toMatchObject({ message: expect.stringMatching(/too large/) });
    await expect(refused('1/0')).rejects.toMatchObject({ message: expect.stringMatching(/too large/) });
    await expect(refused('2 +* 3')).rejects.toMatchObject({ message: expect.stringMatching(/not an expression/) });
  });
});

describe('convert_units', () => {
  const convert = async (value: number, from: string, to: string) =>
    (await convertUnits.run({ value, from, to }, ctx)).result as { value: number; unit: string };
  it('converts lengths, weights and temperatures', async () => {
    expect(await convert(5, 'miles', 'km')).toMatchObject({ value: 8.04672, unit: 'km' });
    expect(await convert(100, 'F', 'C')).toMatchObject({ value: 37.7777777778, unit: 'degC' });
    expect(await convert(-40, 'celsius', 'fahrenheit')).toMatchObject({ value: -40 });
    expect(await convert(1, 'kg', 'lb')).toMatchObject({ value: 2.20462262185 });
  });
  it('refuses an unknown unit or a mismatch clearly', async () => {
    await expect(convertUnits.run({ value: 1, from: 'parsecs(', to: 'km' }, ctx)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(convertUnits.run({ value: 1, from: 'kg', to: 'km' }, ctx)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});

describe('date_calc', () => {
  const now = DateTime.fromISO('2026-11-30T10:00:00Z');
  it('adds and subtracts durations, with the weekday', () => {
    expect(dateCalc({ operation: 'add', date: '2026-11-30', duration: '3 days' }, 'Europe/Paris', now)).toEqual({
      result: '2026-12-03T00:00+01:00',
      weekday: 'Thursday',
    });
    expect(dateCalc({ operation: 'subtract', date: 'now', duration: 'P1DT2H' }, 'UTC', now)).toMatchObject({
      result: '2026-11-29T08:00Z',
    });
  });
  it('gives the difference between two dates', () => {
    expect(
      dateCalc({ operation: 'difference', date: '2026-11-30', otherDate: '2026-12-25' }, 'UTC', now),
    ).toMatchObject({ days: 25 });
  });
  it('converts a time between zones, daylight saving included', () => {
    expect(
      dateCalc(
        { operation: 'convert_zone', date: '2026-07-01T09:00', toZone: 'America/New_York' },
        'Europe/Lisbon',
        now,
      ),
    ).toMatchObject({ result: '2026-07-01T04:00-04:00' });
    expect(() =>
      dateCalc({ operation: 'convert_zone', date: '2026-07-01T09:00', toZone: 'Mars/Olympus' }, 'UTC', now),
    ).toThrow(/not a time zone/);
  });
  it('names the weekday of a date, and refuses a date it cannot read', () => {
    expect(dateCalc({ operation: 'weekday', date: '2026-12-25' }, 'UTC', now)).toEqual({
      date: '2026-12-25',
      weekday: 'Friday',
    });
    expect(() => dateCalc({ operation: 'weekday', date: '25/12/2026' }, 'UTC', now)).toThrow(/not a date/);
  });
});
