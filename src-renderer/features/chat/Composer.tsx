import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '../../ui/Button.js';
import { isPrompt } from '../../ui/toolFormat.js';
import { useAppStore } from '../../store/StoreContext.js';
import { selectIsStreaming, selectModelStatus, selectOpenTaskId } from '../../store/selectors.js';
import { RemoteConsentDialog } from './RemoteConsentDialog.js';

/** Enter sends, Shift+Enter starts a new line; locked while a reply streams, with Stop in place of Send. */
export function Composer() {
  const streaming = useAppStore(selectIsStreaming);
  const openTaskId = useAppStore(selectOpenTaskId);
  // While a model loads the box stays writable; sending waits until it is ready.
  const modelReady = useAppStore(selectModelStatus) === 'ready';
  const send = useAppStore((s) => s.send);
  const stop = useAppStore((s) => s.stop);
  // The Host asks first when the model in use is on another computer; the text stays here until the user agrees.
  const remoteConsent = useAppStore((s) => s.remoteConsent);
  const [text, setText] = useState('');
  const inputRef = useRef<HTMLTextAreaElement>(null);

  // A reply that ended at a prompt leaves the focus on the prompt (Enter allows a read, Esc denies).
  const asking = useAppStore((s) => s.toolCalls.some(isPrompt));

  // A new or newly opened task, the end of a reply, a prompt answered or the consent question closed: put the cursor
  // back in the box. Not while that question is open: its Cancel holds the focus, so Enter alone sends nothing away.
  const consentOpen = remoteConsent !== null;
  useEffect(() => {
    if (!streaming && !asking && !consentOpen) inputRef.current?.focus();
  }, [streaming, asking, consentOpen, openTaskId]);

  const submit = async () => {
    if (streaming || !modelReady || !text.trim()) return;
    if (await send(text)) setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form
      className="composer"
      aria-label="Write to Homebody"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <textarea
        ref={inputRef}
        data-testid="composer-input"
        className="composer-input"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        disabled={streaming}
        rows={3}
        placeholder={
          streaming
            ? 'Homebody is replying…'
            : modelReady
              ? 'Ask Homebody… (Enter to send, Shift+Enter for a new line)'
              : 'Write now; you can send once the model has loaded.'
        }
        aria-label="Message"
      />
      <div className="composer-actions">
        {streaming && (
          <Button variant="danger" data-testid="stop-button" onClick={() => void stop()} aria-keyshortcuts="Escape">
            Stop
          </Button>
        )}
        <Button
          type="submit"
          variant="primary"
          data-testid="send-button"
          disabled={streaming || !modelReady || !text.trim()}
        >
          Send
        </Button>
      </div>
      {remoteConsent && <RemoteConsentDialog consent={remoteConsent} onSent={() => setText('')} />}
    </form>
  );
}
