import { useId, useRef, useState, type ReactNode } from 'react';
import type { AppError } from '../../src-shared/contract/index.js';
import { Button } from './Button.js';
import { Dialog } from './Dialog.js';
import { ErrorNotice } from './ErrorNotice.js';

export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Runs the action; the dialog stays open showing the error when it answers one. */
  onConfirm: () => Promise<AppError | null>;
  onClose: () => void;
}

/** Asks before a destructive action. Cancel has the focus, so Enter alone never destroys anything. */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onClose }: ConfirmDialogProps) {
  const titleId = useId();
  const bodyId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    const failure = await onConfirm();
    setBusy(false);
    if (failure) setError(failure);
    else onClose();
  };

  return (
    <Dialog
      labelledBy={titleId}
      describedBy={bodyId}
      role="alertdialog"
      onClose={() => !busy && onClose()}
      initialFocus={cancelRef}
      className="confirm-dialog"
      testId="confirm-dialog"
    >
      <div className="dialog-body">
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        <div id={bodyId} className="dialog-text">
          {children}
        </div>
        {error && <ErrorNotice error={error} testId="confirm-error" />}
        <div className="dialog-actions">
          <Button ref={cancelRef} data-testid="confirm-cancel" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button variant="danger" data-testid="confirm-ok" onClick={() => void confirm()} disabled={busy}>
            {busy ? 'Working…' : confirmLabel}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
