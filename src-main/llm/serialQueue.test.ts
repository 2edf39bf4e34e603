import { describe, expect, it } from 'vitest';
import { SerialQueue } from './serialQueue.js';

describe('SerialQueue', () => {
  it('runs jobs one after another even when an earlier one fails', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const job =
      (name: string, fail = false) =>
      async () => {
        log.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([queue.run(job('a')), queue.run(job('b', true)), queue.run(job('c'))]);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});
