import { useId, useRef, useState } from 'react';
import { useAppStore } from '../../store/StoreContext.js';
import { selectReadyModel } from '../../store/selectors.js';
import type { RemoteConsentRequest } from '../../store/types.js';
import { Button } from '../../ui/Button.js';
import { Dialog } from '../../ui/Dialog.js';

/**
 * Asked when the model in use runs on another computer and this task has not been allowed to use it: the Host
 * refused the message before saving anything. "Send it there" sends the same text again with the user's agreement
 * for this task; Cancel (the focus, so Enter alone sends nothing away) or Esc leaves the text in the box.
 */
export function RemoteConsentDialog({
  consent,
  onSent,
}: {
  consent: RemoteConsentRequest;
  /** The message was accepted: the composer empties its box. */
  onSent: () => void;
}) {
  const model = useAppStore(selectReadyModel);
  const send = useAppStore((s) => s.send);
  const dismiss = useAppStore((s) => s.dismissRemoteConsent);
  const titleId = useId();
  const bodyId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const remote = model?.remote;

  const agree = async () => {
    setBusy(true);
    const sent = await send(consent.text, { allowRemote: true });
    setBusy(false);
    // Refused again (the model changed meanwhile, the node is gone): the chat shows why, the text stays.
    if (sent) onSent();
  };

  return (
    <Dialog
      labelledBy={titleId}
      describedBy={bodyId}
      role="alertdialog"
      onClose={() => !busy && dismiss()}
      initialFocus={cancelRef}
      className="confirm-dialog remote-consent-dialog"
      testId="remote-consent-dialog"
    >
      <div className="dialog-body">
        <h2 id={titleId} className="dialog-title">
          {remote ? `Send this task to ${remote.label ?? remote.url}?` : 'Send this task to another computer?'}
        </h2>
        <div id={bodyId} className="dialog-text">
          <p data-testid="remote-consent-message">{consent.message}</p>
          {remote && (
            <p>
              Model <strong>{remote.model}</strong> at <span className="path">{remote.url}</span>
              {remote.fingerprint ? ', its certificate pinned.' : ', over plain http: readable on the network.'}
            </p>
          )}
          <p className="muted">
            You are asked once per task. To keep a task on this computer, choose a model on it in Models.
          </p>
        </div>
        <div className="dialog-actions">
          <Button ref={cancelRef} data-testid="remote-consent-cancel" onClick={dismiss} disabled={busy}>
            Cancel
          </Button>
          <Button variant="primary" data-testid="remote-consent-allow" onClick={() => void agree()} disabled={busy}>
            {busy ? 'Sending…' : 'Send it there'}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
