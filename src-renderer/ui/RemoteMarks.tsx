import type { ModelInfo, RemoteMark } from '../../src-shared/contract/index.js';

/**
 * On a reply a model on another computer wrote (the chat and History): which model, on which node. The URL is in
 * the tooltip and read out, so the mark says where the conversation went, not only a name the user gave.
 */
export function RemoteReplyMark({ remote, testId }: { remote: RemoteMark; testId: string }) {
  return (
    <span className="remote-mark" data-testid={testId} data-remote-url={remote.url} title={remote.url}>
      Written on another computer: {remote.model} at {remote.label}
      <span className="sr-only"> ({remote.url})</span>
    </span>
  );
}

/** Beside the model's name while the model in use runs on another computer. */
export function RemoteModelBadge({ remote }: { remote: NonNullable<ModelInfo['remote']> }) {
  return (
    <span className="badge badge-warning remote-model-badge" data-testid="remote-model-badge" title={remote.url}>
      On another computer: {remote.label ?? remote.url}
      <span className="sr-only"> ({remote.url})</span>
    </span>
  );
}
