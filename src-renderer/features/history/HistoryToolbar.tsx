import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import type { AppError, ExportFormat } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { saveFile } from '../../ui/saveFile.js';
import { useAppStore } from '../../store/StoreContext.js';
import { countLabel, importSummary } from '../../store/historyView.js';
import { selectHistoryEntries, selectHistorySelection, selectHistoryTotal } from '../../store/selectors.js';
import type { Outcome } from '../../store/types.js';

type Status = { kind: 'export' | 'import' | 'delete'; text: string };

/** The selection, and what can be done with it or with everything: export, import, delete. */
export function HistoryToolbar() {
  const entries = useAppStore(selectHistoryEntries);
  const total = useAppStore(selectHistoryTotal);
  const selection = useAppStore(selectHistorySelection);
  const setHistorySelection = useAppStore((s) => s.setHistorySelection);
  const clearHistorySelection = useAppStore((s) => s.clearHistorySelection);
  const exportHistory = useAppStore((s) => s.exportHistory);
  const importHistory = useAppStore((s) => s.importHistory);
  const deleteHistory = useAppStore((s) => s.deleteHistory);
  const deleteAllHistory = useAppStore((s) => s.deleteAllHistory);
  const id = useId();
  const [format, setFormat] = useState<ExportFormat>('json');
  const [busy, setBusy] = useState<'export' | 'import' | null>(null);
  const [status, setStatus] = useState<Status | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const [confirm, setConfirm] = useState<'selected' | 'all' | null>(null);
  const selectAllRef = useRef<HTMLInputElement>(null);

  const selected = selection.size;
  const allShownSelected =
    entries.length > 0 && selected >= entries.length && entries.every((e) => selection.has(e.id));

  useEffect(() => {
    if (selectAllRef.current) selectAllRef.current.indeterminate = selected > 0 && !allShownSelected;
  }, [selected, allShownSelected]);

  const run = async <T,>(kind: 'export' | 'import', action: () => Promise<Outcome<T>>, done: (value: T) => string) => {
    setBusy(kind);
    setError(null);
    setStatus(null);
    const outcome = await action();
    setBusy(null);
    if (outcome.ok) setStatus({ kind, text: done(outcome.value) });
    else setError(outcome.error);
  };

  const exportTasks = (ids: string[] | null) =>
    run(
      'export',
      () => exportHistory(ids, format),
      (file) => {
        saveFile(file);
        return `Exported ${countLabel(file.tasks, 'task')} to ${file.fileName}.`;
      },
    );

  const onImport = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    void run(
      'import',
      async () => {
        let content: string;
        try {
          content = await file.text();
        } catch {
          return { ok: false, error: { code: 'INTERNAL', message: `Could not read ${file.name}.` } };
        }
        return importHistory(content);
      },
      importSummary,
    );
  };

  const deleted = (n: number, all: boolean) => {
    setError(null);
    setStatus({
      kind: 'delete',
      text: all ? `Deleted the whole history (${countLabel(n, 'task')}).` : `Deleted ${countLabel(n, 'task')}.`,
    });
  };

  return (
    <div className="history-toolbar" role="toolbar" aria-label="Selected tasks and the whole history">
      <div className="history-toolbar-row">
        <label className="checkbox history-select-all">
          <input
            ref={selectAllRef}
            type="checkbox"
            data-testid="history-select-all"
            checked={allShownSelected}
            disabled={entries.length === 0}
            onChange={(e) =>
              e.target.checked ? setHistorySelection(entries.map((entry) => entry.id)) : clearHistorySelection()
            }
          />
          <span>
            {total !== null && entries.length < total
              ? `Select the ${countLabel(entries.length, 'loaded task')}`
              : 'Select all'}
          </span>
        </label>
        <span className="muted" data-testid="history-selection-count" aria-live="polite">
          {selected > 0 ? `${countLabel(selected, 'task')} selected` : ''}
        </span>
        {selected > 0 && (
          <Button variant="ghost" data-testid="history-clear-selection" onClick={clearHistorySelection}>
            Clear selection
          </Button>
        )}
        <span className="history-toolbar-spacer" />
        <label className="field-inline" htmlFor={`${id}-format`}>
          Format
        </label>
        <select
          id={`${id}-format`}
          title="JSON can be imported again; Markdown is for reading"
          data-testid="history-export-format"
          value={format}
          onChange={(e) => setFormat(e.target.value === 'md' ? 'md' : 'json')}
        >
          <option value="json">JSON</option>
          <option value="md">Markdown</option>
        </select>
        <Button
          data-testid="history-export-selected"
          disabled={busy !== null || selected === 0}
          onClick={() => void exportTasks([...selection])}
        >
          Export selected
        </Button>
        <Button
          variant="danger"
          data-testid="history-delete-selected"
          disabled={selected === 0}
          onClick={() => setConfirm('selected')}
        >
          Delete selected…
        </Button>
      </div>
      <div className="history-toolbar-row">
        <span className="field-inline">Whole history</span>
        <Button
          data-testid="history-export-all"
          disabled={busy !== null || total === 0}
          onClick={() => void exportTasks(null)}
        >
          Export everything
        </Button>
        <label className={`btn btn-secondary file-button${busy !== null ? ' is-disabled' : ''}`}>
          {busy === 'import' ? 'Importing…' : 'Import…'}
          <input
            type="file"
            accept="application/json,.json"
            data-testid="history-import"
            className="sr-only"
            disabled={busy !== null}
            onChange={onImport}
          />
        </label>
        <Button
          variant="danger"
          data-testid="history-delete-all"
          disabled={total === 0}
          onClick={() => setConfirm('all')}
        >
          Delete everything…
        </Button>
        <p
          className="muted history-action-status"
          role="status"
          data-testid="history-action-status"
          data-kind={status?.kind}
        >
          {busy === 'export' ? 'Exporting…' : busy === 'import' ? 'Importing…' : (status?.text ?? '')}
        </p>
      </div>
      {error && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="history-action-error" />}
      {confirm === 'selected' && (
        <ConfirmDialog
          title={`Delete ${countLabel(selected, 'task')}?`}
          confirmLabel={`Delete ${countLabel(selected, 'task')}`}
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            const outcome = await deleteHistory([...selection]);
            if (!outcome.ok) return outcome.error;
            deleted(outcome.value, false);
            return null;
          }}
        >
          <p>
            Their messages, tool calls and audit entries are erased from this computer, and they no longer appear in
            search. <strong>This cannot be undone.</strong> Export them first to keep a copy.
          </p>
        </ConfirmDialog>
      )}
      {confirm === 'all' && (
        <ConfirmDialog
          title="Delete the whole history?"
          confirmLabel="Delete everything"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            const outcome = await deleteAllHistory();
            if (!outcome.ok) return outcome.error;
            deleted(outcome.value, true);
            return null;
          }}
        >
          <p>
            Every task — all messages, tool calls and their audit entries — is erased from this computer.{' '}
            <strong>This cannot be undone.</strong> Use “Export everything” first to keep a copy.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
