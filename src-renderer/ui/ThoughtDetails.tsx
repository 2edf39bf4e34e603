import type { Message } from '../../src-shared/contract/index.js';

type Thought = Pick<Message, 'reasoning' | 'state' | 'stats'>;

/**
 * What the collapsed thought says: "Thinking…" while the reply streams, then how many tokens it took; a reply
 * recorded before the engine counted them says only "Thinking".
 */
export function thoughtSummary(message: Thought): string {
  if (message.state === 'streaming') return 'Thinking…';
  const count = message.stats?.reasoningTokens;
  if (count === undefined) return 'Thinking';
  return `Thought for ${count.toLocaleString()} ${count === 1 ? 'token' : 'tokens'}`;
}

/**
 * A reply's thought, collapsed: a native disclosure, so its summary takes the focus with Tab and opens with Enter or
 * Space. Nothing when the model did not think.
 */
export function ThoughtDetails({ message }: { message: Thought }) {
  if (message.reasoning.length === 0) return null;
  return (
    <details className="reasoning" data-testid="message-reasoning">
      <summary data-testid="message-reasoning-summary">{thoughtSummary(message)}</summary>
      <p className="reasoning-text">{message.reasoning}</p>
    </details>
  );
}
