import { useId, useRef, useState, type FormEvent } from 'react';
import { DELETE_ALL_CONFIRMATION, type AppError } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { Dialog } from '../../ui/Dialog.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { useAppStore } from '../../store/StoreContext.js';

/**
 * Asks before "delete all my data": the user types the confirmation words (the button stays disabled until they
 * match), may add the downloaded models, and sees the deletion run. Escape or Cancel closes it, except while it runs.
 */
export function DeleteAllDialog({
  onClose,
  onDeleted,
}: {
  onClose: () => void;
  onDeleted: (result: { deletedBytes: number; removed: string[] }) => void;
}) {
  const deleteAllData = useAppStore((s) => s.deleteAllData);
  const busy = useAppStore((s) => s.dataDeleting);
  const titleId = useId();
  const bodyId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [typed, setTyped] = useState('');
  const [includeModels, setIncludeModels] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const matches = typed.trim() === DELETE_ALL_CONFIRMATION;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!matches || busy) return;
    setError(null);
    const outcome = await deleteAllData(typed, includeModels);
    if (outcome.ok) {
      onDeleted(outcome.value);
      onClose();
    } else {
      setError(outcome.error);
    }
  };

  return (
    <Dialog
      labelledBy={titleId}
      describedBy={bodyId}
      role="alertdialog"
      onClose={() => !busy && onClose()}
      initialFocus={inputRef}
      className="confirm-dialog delete-all-dialog"
      testId="delete-all-dialog"
    >
      <form className="dialog-body" onSubmit={(e) => void onSubmit(e)} aria-busy={busy}>
        <h2 id={titleId} className="dialog-title">
          Delete all my data
        </h2>
        <div id={bodyId} className="dialog-text">
          <p>
            Every task and message, tool call, approval, the audit log and the connection ledger, your settings and
            network rules, saved passwords and tokens, MCP servers, undo copies, and the notes, calendar, contacts, mail
            and reminders folders in the data folder are deleted for good. Folders of your own chosen elsewhere are
            kept. This cannot be undone.
          </p>
        </div>
        <label className="field">
          <span>
            Type <strong>{DELETE_ALL_CONFIRMATION}</strong> to confirm
          </span>
          <input
            ref={inputRef}
            type="text"
            data-testid="delete-confirm-input"
            value={typed}
            autoComplete="off"
            spellCheck={false}
            disabled={busy}
            onChange={(e) => setTyped(e.target.value)}
          />
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            data-testid="delete-include-models"
            checked={includeModels}
            disabled={busy}
            onChange={(e) => setIncludeModels(e.target.checked)}
          />
          <span>Also delete downloaded models</span>
        </label>
        {busy && (
          <div className="delete-progress" role="status" data-testid="delete-progress">
            <progress aria-label="Deleting your data" />
            <span>Deleting your data…</span>
          </div>
        )}
        {error && <ErrorNotice error={error} testId="delete-error" />}
        <div className="dialog-actions">
          <Button data-testid="delete-cancel" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" data-testid="delete-confirm-ok" disabled={!matches || busy}>
            {busy ? 'Deleting…' : 'Delete everything'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
