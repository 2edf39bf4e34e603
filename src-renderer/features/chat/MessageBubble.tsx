import { memo } from 'react';
import { onlyThought, type Message } from '../../../src-shared/contract/index.js';
import { useAppStore } from '../../store/StoreContext.js';
import { Button } from '../../ui/Button.js';
import { formatStats, messageStateNote } from '../../ui/format.js';
import { RemoteReplyMark } from '../../ui/RemoteMarks.js';
import { ThoughtDetails } from '../../ui/ThoughtDetails.js';

/** One message. Memoised: while a reply streams only its own bubble re-renders. */
export const MessageBubble = memo(function MessageBubble({ message }: { message: Message }) {
  if (message.role === 'user') {
    return (
      <li className="message message-user" data-testid="message-user" data-message-id={message.id}>
        <div className="bubble" aria-label="You said">
          <p className="message-text">{message.text}</p>
        </div>
      </li>
    );
  }
  const streaming = message.state === 'streaming';
  const note = messageStateNote(message.state, message.error);
  const empty = message.text.length === 0;
  // A reply that wrote nothing (its calls are on the timeline beside it) shows no empty bubble, only its notes.
  const bubble = !empty || streaming || message.reasoning.length > 0;
  return (
    <li
      className="message message-assistant"
      data-testid="message-assistant"
      data-state={message.state}
      data-message-id={message.id}
    >
      {bubble && (
        <div className="bubble" aria-label="Homebody replied" aria-busy={streaming}>
          <ThoughtDetails message={message} />
          {onlyThought(message) ? (
            <OnlyThoughtNote />
          ) : empty && streaming ? (
            <p className="message-text typing" aria-label="Homebody is writing">
              <span className="dot" />
              <span className="dot" />
              <span className="dot" />
            </p>
          ) : (
            <p className="message-text">
              {message.text}
              {streaming && <span className="caret" aria-hidden="true" />}
            </p>
          )}
        </div>
      )}
      {(note || message.contextNote || message.remote || (!streaming && message.stats)) && (
        <div className="message-meta">
          {message.remote && <RemoteReplyMark remote={message.remote} testId="message-remote" />}
          {note && <span className={`message-state state-${message.state}`}>{note}</span>}
          {message.contextNote && (
            <span className="message-context-note" data-testid="message-context-note" role="note">
              {message.contextNote}
            </span>
          )}
          {!streaming && message.stats && (
            <span className="message-stats" data-testid="message-stats">
              {formatStats(message.stats)}
            </span>
          )}
        </div>
      )}
    </li>
  );
});

/** A reply that only thought: said plainly, with the way to the setting that stops it (the thought stays above). */
function OnlyThoughtNote() {
  const setPage = useAppStore((s) => s.setPage);
  return (
    <div className="message-only-thought" role="note" data-testid="message-only-thought">
      <p>The model only thought and gave no answer. Try again, or turn thinking off for this model in Models.</p>
      <Button variant="ghost" data-testid="message-only-thought-models" onClick={() => setPage('models')}>
        Open Models
      </Button>
    </div>
  );
}
