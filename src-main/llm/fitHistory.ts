import type { ChatTurn } from './engineTypes.js';

/** A turn with its size in tokens (its text plus the chat template's markup around it). */
export interface SizedTurn {
  readonly turn: ChatTurn;
  readonly tokens: number;
}

export interface FittedHistory {
  readonly history: ChatTurn[];
  /** Turns of the task left out (the note that says so is not counted). */
  readonly dropped: number;
}

/** What the model reads where earlier turns were left out. */
export function omissionNote(dropped: number): string {
  return `[${dropped} earlier ${dropped === 1 ? 'message was' : 'messages were'} left out to fit the model's context.]`;
}

/**
 * The turns that fit in `budget` tokens. The rule: when everything fits, everything stays. Otherwise the oldest
 * turns go first, whole exchanges at a time (a user message with the replies and tool calls that followed it),
 * never part of one; the task's first user message (its goal) stays while it fits, and a one-line note (`noteTokens`
 * long) stands where the dropped turns were.
 *
 * The cut moves in steps of about half the budget, measured from the oldest turn: it stays in the same place for
 * several replies as the task grows, so the kept part's prefix (the goal, the note and the older kept turns) is
 * the same from one reply to the next and the engine can reuse what it evaluated.
 */
export function fitHistory(turns: readonly SizedTurn[], budget: number, noteTokens: number): FittedHistory {
  const total = sum(turns);
  if (total <= budget) return { history: turns.map((t) => t.turn), dropped: 0 };

  // The goal: the first turn when the user wrote it.
  const goal = turns[0]?.turn.role === 'user' ? turns[0] : undefined;
  const step = Math.max(1, Math.floor(budget / 2));
  const attempt = (withGoal: boolean): FittedHistory | undefined => {
    const head = withGoal && goal ? [goal] : [];
    const rest = turns.slice(head.length);
    // Where an exchange may be cut: before each user turn, and after everything.
    const cuts: number[] = [];
    rest.forEach((t, i) => {
      if (t.turn.role === 'user' && i > 0) cuts.push(i);
    });
    cuts.push(rest.length);
    const room = budget - noteTokens - sum(head);
    let level = 1;
    let droppedTokens = 0;
    let from = 0;
    for (const cut of cuts) {
      droppedTokens += sum(rest.slice(from, cut));
      from = cut;
      // A cut is taken only where the dropped part reaches the next step; the last cut (everything) always is.
      if (droppedTokens < level * step && cut !== rest.length) continue;
      while (droppedTokens >= level * step) level++;
      const kept = rest.slice(cut);
      if (sum(kept) <= room) {
        const dropped = rest.length - kept.length;
        const note: ChatTurn = { role: 'assistant', text: omissionNote(dropped) };
        return { history: [...head.map((t) => t.turn), note, ...kept.map((t) => t.turn)], dropped };
      }
    }
    return undefined;
  };
  const fitted = attempt(true) ?? attempt(false);
  if (fitted) return fitted;
  // Not even the note fits: no history at all.
  return { history: [], dropped: turns.length };
}

function sum(turns: readonly SizedTurn[]): number {
  return turns.reduce((total, t) => total + t.tokens, 0);
}
