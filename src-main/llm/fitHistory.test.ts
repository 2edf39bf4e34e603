import { describe, expect, it } from 'vitest';
import type { ChatTurn } from './engineTypes.js';
import { fitHistory, omissionNote, type SizedTurn } from './fitHistory.js';

const u = (text: string, tokens = 10): SizedTurn => ({ turn: { role: 'user', text }, tokens });
const a = (text: string, tokens = 10): SizedTurn => ({ turn: { role: 'assistant', text }, tokens });
const texts = (turns: readonly ChatTurn[]) => turns.map((t) => t.text);
const NOTE = 5;

/** A task of `n` exchanges: a user message, a tool call and a reply each (10 tokens a turn). */
function task(n: number): SizedTurn[] {
  return Array.from({ length: n }, (_, i) => [u(`u${i}`), a(`call${i}`), a(`r${i}`)]).flat();
}

describe('fitHistory', () => {
  it('keeps everything that fits, unchanged and without a note', () => {
    const turns = task(3);
    expect(fitHistory(turns, 90, NOTE)).toEqual({ history: turns.map((t) => t.turn), dropped: 0 });
  });

  it('drops the oldest whole exchanges first, keeps the goal, and leaves a note where they were', () => {
    const fitted = fitHistory(task(6), 100, NOTE);
    const kept = texts(fitted.history);
    expect(kept[0]).toBe('u0');
    expect(kept[1]).toBe(omissionNote(fitted.dropped));
    // What follows the note starts with a user message: no exchange is cut in half.
    expect(kept[2]).toMatch(/^u\d$/);
    const last = kept.slice(2);
    expect(last).toEqual(
      texts(
        task(6)
          .slice(-last.length)
          .map((t) => t.turn),
      ),
    );
    expect(fitted.dropped).toBe(18 - 1 - last.length);
    expect(10 + NOTE + last.length * 10).toBeLessThanOrEqual(100);
  });

  it('never leaves the newest exchanges out while older ones stay', () => {
    for (let n = 2; n < 20; n++) {
      const fitted = fitHistory(task(n), 120, NOTE);
      const kept = texts(fitted.history).filter((t) => /^[ur]|^call/.test(t) && t !== 'u0');
      const all = texts(task(n).map((t) => t.turn)).slice(1);
      expect(kept).toEqual(all.slice(all.length - kept.length));
      expect(fitted.history.length - (fitted.dropped > 0 ? 1 : 0)).toBe(3 * n - fitted.dropped);
    }
  });

  it('moves the cut in steps, so the kept prefix stays the same from one reply to the next', () => {
    const budget = 200;
    const cuts: number[] = [];
    for (let n = 7; n < 30; n++) {
      const fitted = fitHistory(task(n), budget, NOTE);
      cuts.push(fitted.dropped);
      expect(texts(fitted.history).length * 10).toBeLessThanOrEqual(budget);
    }
    // The dropped count changes only now and then (each time by about half the budget), not on every reply.
    const changes = cuts.filter((c, i) => i > 0 && c !== cuts[i - 1]).length;
    expect(changes).toBeGreaterThan(0);
    expect(changes).toBeLessThan(cuts.length / 3);
    for (let i = 1; i < cuts.length; i++) expect(cuts[i]).toBeGreaterThanOrEqual(cuts[i - 1]!);
  });

  it('lets the goal go too when the goal alone is too big to keep', () => {
    const turns = [u('goal', 80), a('r0'), u('u1'), a('r1')];
    const fitted = fitHistory(turns, 50, NOTE);
    expect(texts(fitted.history)).toEqual([omissionNote(2), 'u1', 'r1']);
    expect(fitted.dropped).toBe(2);
  });

  it('drops everything when not even the newest exchange fits', () => {
    const fitted = fitHistory([u('u0'), a('r0'), u('u1', 500), a('r1')], 40, NOTE);
    expect(texts(fitted.history)).toEqual(['u0', omissionNote(3)]);
    expect(fitted.dropped).toBe(3);
    expect(fitHistory([u('u0', 100)], 40, NOTE)).toEqual({
      history: [{ role: 'assistant', text: omissionNote(1) }],
      dropped: 1,
    });
    expect(fitHistory([u('u0', 100)], 2, NOTE)).toEqual({ history: [], dropped: 1 });
  });

  it('handles a history that begins with a reply', () => {
    const fitted = fitHistory([a('hello', 50), u('u1'), a('r1')], 40, NOTE);
    expect(texts(fitted.history)).toEqual([omissionNote(1), 'u1', 'r1']);
  });
});
