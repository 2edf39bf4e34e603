import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Badge } from '../../ui/Badge.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { formatBytes } from '../../ui/format.js';
import { ProgressBar } from '../../ui/ProgressBar.js';
import { RemoteModelBadge } from '../../ui/RemoteMarks.js';
import { useAppStore } from '../../store/StoreContext.js';
import { selectIsStreaming, selectModelState, selectReadyModel } from '../../store/selectors.js';
import { Composer } from './Composer.js';
import { MessageList } from './MessageList.js';

/** The chat window with a ready model, or a read-only view of a task when no model is loaded. */
export function ChatView({ readOnly }: { readOnly: boolean }) {
  const model = useAppStore(selectReadyModel);
  const modelState = useAppStore(selectModelState);
  const streaming = useAppStore(selectIsStreaming);
  const { title, chatError } = useAppStore(
    useShallow((s) => ({ title: s.openTaskSummary?.title ?? null, chatError: s.chatError })),
  );
  const { stop, requestOnboarding, dismissChatError } = useAppStore(
    useShallow((s) => ({ stop: s.stop, requestOnboarding: s.requestOnboarding, dismissChatError: s.dismissChatError })),
  );

  // Esc stops the reply from anywhere on the page.
  useEffect(() => {
    if (!streaming || readOnly) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        void stop();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [streaming, readOnly, stop]);

  return (
    <main className="main chat" data-testid="chat" aria-label={title ?? 'New task'}>
      <header className="chat-header">
        <div className="chat-title">
          <h1 className="task-title">{title ?? 'New task'}</h1>
          {model ? (
            <p className="model-line">
              <span className="sr-only">Model: </span>
              <span data-testid="model-name" className="model-name" title={model.path}>
                {model.name}
              </span>
              <span className="muted">
                {' '}
                {model.remote ? '' : ` · ${formatBytes(model.sizeBytes)}`} · {model.contextSize.toLocaleString()} tokens
                context
              </span>
              {model.remote && <RemoteModelBadge remote={model.remote} />}
              {model.synthetic && (
                <Badge tone="warning" testId="synthetic-badge">
                  Test model: random weights, replies are noise
                </Badge>
              )}
            </p>
          ) : modelState?.status === 'loading' ? (
            <div className="model-line chat-model-loading" data-testid="chat-model-loading">
              <span className="muted">
                Loading <span className="path">{modelState.path}</span>
              </span>
              <ProgressBar value={modelState.progress} label="Model loading progress" />
            </div>
          ) : (
            <p className="model-line muted">No model loaded</p>
          )}
        </div>
        {!readOnly && (
          <Button data-testid="change-model-button" onClick={requestOnboarding}>
            Change model
          </Button>
        )}
      </header>

      <p className="sr-only" role="status">
        {streaming ? 'Homebody is replying…' : ''}
      </p>
      <MessageList emptyHint={readOnly ? 'This task has no messages.' : 'Ask anything to start a new task.'} />

      {chatError && <ErrorNotice error={chatError} onDismiss={dismissChatError} className="chat-error" />}

      {readOnly ? (
        <div className="readonly-notice" data-testid="readonly-notice" role="status">
          <p>This task is read-only: a model is needed to continue it.</p>
          <Button variant="primary" onClick={requestOnboarding}>
            Open a model
          </Button>
        </div>
      ) : (
        <Composer />
      )}
    </main>
  );
}
