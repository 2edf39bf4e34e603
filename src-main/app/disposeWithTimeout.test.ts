import { describe, expect, it } from 'vitest';
import { disposeWithTimeout } from './disposeWithTimeout.js';

describe('disposeWithTimeout', () => {
  it('reports a finished disposal', async () => {
    expect(await disposeWithTimeout(async () => {}, 1000)).toBe('disposed');
  });

  it('reports a failure, whether rejected or thrown', async () => {
    expect(await disposeWithTimeout(() => Promise.reject(new Error('busy')), 1000)).toBe('failed');
    expect(
      await disposeWithTimeout(() => {
        throw new Error('sync');
      }, 1000),
    ).toBe('failed');
  });

  it('stops waiting after the timeout', async () => {
    expect(await disposeWithTimeout(() => new Promise<void>(() => {}), 20)).toBe('timed-out');
  });
});
