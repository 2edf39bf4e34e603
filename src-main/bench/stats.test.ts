import { describe, expect, it } from 'vitest';
import { median, percentile, round2, summarize } from './stats.js';

const oneTo100 = Array.from({ length: 100 }, (_, i) => i + 1);

describe('percentile', () => {
  it('interpolates linearly between the nearest ranks', () => {
    expect(percentile(oneTo100, 50)).toBeCloseTo(50.5, 10);
    expect(percentile(oneTo100, 95)).toBeCloseTo(95.05, 10);
    expect(percentile([10, 20], 25)).toBeCloseTo(12.5, 10);
    expect(percentile([1, 2, 3, 4, 5], 50)).toBe(3);
  });

  it('is the minimum at 0 and the maximum at 100', () => {
    expect(percentile([3, 1, 2], 0)).toBe(1);
    expect(percentile([3, 1, 2], 100)).toBe(3);
  });

  it('gives the one sample for any p', () => {
    for (const p of [0, 50, 95, 100]) expect(percentile([7], p)).toBe(7);
  });

  it('sorts a copy, leaving the samples as they were', () => {
    const samples = [5, 1, 4, 2, 3];
    expect(percentile(samples, 50)).toBe(3);
    expect(samples).toEqual([5, 1, 4, 2, 3]);
  });

  it('sorts numerically, not as text', () => {
    expect(percentile([9, 10, 100], 50)).toBe(10);
  });

  it('refuses no samples, a p outside 0 to 100, and samples that are not finite', () => {
    expect(() => percentile([], 50)).toThrow(RangeError);
    expect(() => percentile([1], -1)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(() => percentile([1], Number.NaN)).toThrow(RangeError);
    expect(() => percentile([1, Number.NaN], 50)).toThrow(RangeError);
    expect(() => percentile([1, Number.POSITIVE_INFINITY], 50)).toThrow(RangeError);
  });

  it('never goes below the minimum or above the maximum, and grows with p', () => {
    const samples = [0.4, 12, 3.3, 3.3, 8, 1, 0.9, 25, 2];
    let previous = -Infinity;
    for (let p = 0; p <= 100; p += 5) {
      const value = percentile(samples, p);
      expect(value).toBeGreaterThanOrEqual(0.4);
      expect(value).toBeLessThanOrEqual(25);
      expect(value).toBeGreaterThanOrEqual(previous);
      previous = value;
    }
  });
});

describe('median and summarize', () => {
  it('takes the middle, or the mean of the two middles', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('summarizes count, extremes, mean and percentiles', () => {
    expect(summarize(oneTo100)).toEqual({
      n: 100,
      min: 1,
      max: 100,
      mean: 50.5,
      p50: 50.5,
      p95: expect.closeTo(95.05, 10),
    });
    expect(() => summarize([])).toThrow(RangeError);
  });

  it('rounds figures to two decimals', () => {
    expect(round2(1.23456)).toBe(1.23);
    expect(round2(0.006)).toBe(0.01);
    expect(round2(12)).toBe(12);
  });
});
