import { describe, expect, it } from 'vitest';
import { canMove, ToolCallStateSchema, type ToolCallState } from './tools.js';

// The queue's rules as a table: every (from, to) pair of states, and whether a call may move so. A change to
// CALL_TRANSITIONS that lets a call run twice, or run after a denial, fails here at once.
const STATES = ToolCallStateSchema.options;
const ALLOWED: ReadonlyArray<readonly [ToolCallState, ToolCallState]> = [
  ['pending', 'approved'],
  ['pending', 'denied'],
  ['pending', 'expired'],
  ['approved', 'executing'],
  ['approved', 'expired'],
  ['executing', 'done'],
  ['executing', 'failed'],
  ['executing', 'interrupted'],
  // An interrupted call may have run: it can only be dismissed, never run again.
  ['interrupted', 'denied'],
];

describe('how a call may change state', () => {
  const pairs = STATES.flatMap((from) => STATES.map((to) => [from, to] as const));
  const allowed = new Set(ALLOWED.map(([from, to]) => `${from}>${to}`));

  it.each(pairs)('%s → %s', (from, to) => {
    expect(canMove(from, to)).toBe(allowed.has(`${from}>${to}`));
  });

  it('runs a call only from approved, and nothing leaves a final state', () => {
    for (const from of STATES) expect(canMove(from, 'executing'), from).toBe(from === 'approved');
    for (const final of ['done', 'failed', 'denied', 'rejected', 'expired'] as const) {
      for (const to of STATES) expect(canMove(final, to), `${final} → ${to}`).toBe(false);
    }
  });

  it('never approves what was denied, interrupted or already run', () => {
    for (const from of ['denied', 'interrupted', 'executing', 'done', 'failed'] as const) {
      expect(canMove(from, 'approved'), from).toBe(false);
    }
  });
});
