import { onlyThought, type ChatStats, type Message } from '../../src-shared/contract/index.js';

/** What `homebody run --json` prints: the keys it always had, then the reply's thought when it has one. */
export interface RunJson {
  taskId: string;
  /** A reply another computer wrote carries `remote` ({url, model, label}); the others have only role and text. */
  messages: Array<{ role: Message['role']; text: string; remote?: NonNullable<Message['remote']> }>;
  stats: ChatStats | null;
  state: Message['state'];
  /** The reply's thought text, when the model thought: a reply that was all thought is visible here. */
  reasoning?: string;
  /** How many of the reply's tokens were thought, when the engine counted them. */
  reasoningTokens?: number;
}

/** The keys of a reply that did not think stay the four they always were (a count of 0 adds nothing). */
export function runJson(taskId: string, messages: readonly Message[], final: Message): RunJson {
  const reasoningTokens = final.stats?.reasoningTokens;
  const thought = final.reasoning.length > 0 || (reasoningTokens ?? 0) > 0;
  return {
    taskId,
    messages: messages.map((m) => ({ role: m.role, text: m.text, ...(m.remote ? { remote: m.remote } : {}) })),
    stats: final.stats ?? null,
    state: final.state,
    ...(thought ? { reasoning: final.reasoning } : {}),
    ...(thought && reasoningTokens !== undefined ? { reasoningTokens } : {}),
  };
}

/** Printed where the answer would have been, for a reply that only thought. */
export const ONLY_THOUGHT_NOTE = '(the model only thought; no answer)';

/** The line after a streamed reply on stdout: the note when there was no answer, else nothing. */
export function answerNote(final: Message): string | null {
  return onlyThought(final) ? ONLY_THOUGHT_NOTE : null;
}

/** The figures line on stderr after a reply; the thought tokens among them when there were any. */
export function statsLine(final: Message, taskId: string): string | null {
  const s = final.stats;
  if (!s) return null;
  const thought = s.reasoningTokens ? ` (${s.reasoningTokens} thinking)` : '';
  return (
    `[${final.state}] ${s.completionTokens} tokens${thought}, ${s.tokensPerSecond?.toFixed(1) ?? '-'} tokens/s, ` +
    `first token ${s.ttftMs?.toFixed(0) ?? '-'} ms, prompt ${s.promptTokens} tokens · task ${taskId}`
  );
}
