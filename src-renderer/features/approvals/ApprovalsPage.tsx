import { memo, useMemo, useRef, useState } from 'react';
import type { AppError, ToolCall } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { ToolCallDetails } from '../../ui/ToolCallDetails.js';
import { parseArgsJson } from '../../ui/toolFormat.js';
import { useAppStore } from '../../store/StoreContext.js';
import { selectQueue, selectTasks } from '../../store/selectors.js';
import { DenyReasonField } from '../../ui/DenyReasonField.js';
import { ArgumentFieldsEditor } from './ArgumentFieldsEditor.js';

/** Calls that wait for the user's approval, one by one or several at once. */
export function ApprovalsPage() {
  const queue = useAppStore(selectQueue);
  const tasks = useAppStore(selectTasks);
  const loaded = useAppStore((s) => s.approvalsLoaded);
  const listError = useAppStore((s) => s.approvalsError);
  const loadApprovals = useAppStore((s) => s.loadApprovals);
  const approveCalls = useAppStore((s) => s.approveCalls);
  const denyCalls = useAppStore((s) => s.denyCalls);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [bulkError, setBulkError] = useState<AppError | null>(null);
  const [busy, setBusy] = useState(false);

  const titles = useMemo(() => new Map(tasks.map((t) => [t.id, t.title])), [tasks]);
  // Only calls still waiting count as selected (one may have been decided elsewhere meanwhile).
  const selectedIds = queue.filter((c) => selected.has(c.id)).map((c) => c.id);
  const selectedPending = queue.filter((c) => selected.has(c.id) && c.state === 'pending').map((c) => c.id);

  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const bulk = async (action: 'approve' | 'deny') => {
    const ids = action === 'approve' ? selectedPending : selectedIds;
    if (ids.length === 0) return;
    setBusy(true);
    setBulkError(null);
    const error = action === 'approve' ? await approveCalls(ids) : await denyCalls(ids);
    setBusy(false);
    setBulkError(error);
    if (!error) setSelected(new Set());
  };

  return (
    <main className="main page approvals-page" data-testid="approvals-page" aria-labelledby="approvals-heading">
      <header className="page-header">
        <h1 id="approvals-heading">Approvals</h1>
        <p className="muted">Calls Homebody may not run alone wait here until you approve or deny them.</p>
      </header>
      {listError && <ErrorNotice error={listError} onDismiss={() => void loadApprovals()} />}
      {queue.length === 0 ? (
        <p className="empty-hint muted" data-testid="approvals-empty">
          {loaded ? 'Nothing waits for your approval.' : 'Loading…'}
        </p>
      ) : (
        <>
          <div className="bulk-actions">
            <Button
              variant="primary"
              data-testid="approvals-approve-selected"
              disabled={busy || selectedPending.length === 0}
              onClick={() => void bulk('approve')}
            >
              Approve selected
            </Button>
            <Button
              variant="danger"
              data-testid="approvals-deny-selected"
              disabled={busy || selectedIds.length === 0}
              onClick={() => void bulk('deny')}
            >
              Deny selected
            </Button>
            <span className="muted">{selectedIds.length > 0 ? `${selectedIds.length} selected` : ''}</span>
          </div>
          {bulkError && <ErrorNotice error={bulkError} onDismiss={() => setBulkError(null)} />}
          <ul className="approval-list">
            {queue.map((call) => (
              <ApprovalItem
                key={call.id}
                call={call}
                taskTitle={call.taskId === null ? null : (titles.get(call.taskId) ?? null)}
                selected={selected.has(call.id)}
                onSelect={toggle}
              />
            ))}
          </ul>
        </>
      )}
    </main>
  );
}

type Mode = 'idle' | 'edit';

const ApprovalItem = memo(function ApprovalItem({
  call,
  taskTitle,
  selected,
  onSelect,
}: {
  call: ToolCall;
  taskTitle: string | null;
  selected: boolean;
  onSelect: (id: string, on: boolean) => void;
}) {
  const approveCalls = useAppStore((s) => s.approveCalls);
  const denyCalls = useAppStore((s) => s.denyCalls);
  const [mode, setMode] = useState<Mode>('idle');
  const originalText = JSON.stringify(call.args, null, 2);
  const [argsText, setArgsText] = useState(originalText);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<AppError | null>(null);
  const [busy, setBusy] = useState(false);
  // Set before the first await: a second Enter in the reason field (which stays enabled) must not answer again.
  const answering = useRef(false);
  const interrupted = call.state === 'interrupted';
  const editedArgs = useMemo(() => {
    const parsed = parseArgsJson(argsText);
    return parsed.ok ? parsed.args : null;
  }, [argsText]);

  const run = async (action: () => Promise<AppError | null>) => {
    if (answering.current) return;
    answering.current = true;
    setBusy(true);
    setError(null);
    const result = await action();
    answering.current = false;
    setBusy(false);
    setError(result);
  };

  const approve = () => run(() => approveCalls([call.id]));
  // The call runs, and its task does not go on: the model is told the outcome with the user's next message.
  const approveOnly = () => run(() => approveCalls([call.id], undefined, { continueTask: false }));
  const deny = () => run(() => denyCalls([call.id], reason));
  const approveEdited = () => {
    const parsed = parseArgsJson(argsText);
    if (!parsed.ok) {
      setError({ code: 'INVALID_REQUEST', message: parsed.error });
      return;
    }
    // Unchanged arguments are approved as they are, so the call is not recorded as approved with edits.
    const edited = JSON.stringify(parsed.args) !== JSON.stringify(call.args);
    void run(() => approveCalls([call.id], edited ? parsed.args : undefined));
  };
  const cancelEdit = () => {
    setArgsText(originalText);
    setMode('idle');
  };

  return (
    <li
      className={`approval-item${interrupted ? ' approval-interrupted' : ''}`}
      data-testid="approval-item"
      data-call-id={call.id}
      data-state={call.state}
    >
      <div className="approval-select-row">
        <label className="approval-select">
          <input
            type="checkbox"
            data-testid="approval-select"
            checked={selected}
            onChange={(e) => onSelect(call.id, e.target.checked)}
            aria-label={`Select ${call.description.title}`}
          />
        </label>
        <div className="approval-body">
          <ToolCallDetails call={call} titleAs="h2" />
          <p className="muted approval-meta">
            {taskTitle ? `Task: ${taskTitle} · ` : call.taskId === null ? 'From the command line · ' : ''}
            <time dateTime={new Date(call.createdAt).toISOString()}>{new Date(call.createdAt).toLocaleString()}</time>
          </p>
          {interrupted ? (
            <>
              <p className="approval-interrupted-note" data-testid="approval-interrupted">
                This was running when Homebody stopped; it may have run already and will not run again.
              </p>
              <div className="approval-actions">
                <Button
                  data-testid="approval-deny"
                  disabled={busy}
                  onClick={() => void run(() => denyCalls([call.id]))}
                >
                  Dismiss
                </Button>
              </div>
            </>
          ) : (
            <>
              <div className="approval-actions">
                {/* While editing, the only approval is of the arguments shown, never the originals behind them. */}
                {mode === 'idle' && (
                  <Button
                    variant="primary"
                    data-testid="approval-approve"
                    disabled={busy}
                    onClick={() => void approve()}
                  >
                    Approve
                  </Button>
                )}
                {mode === 'idle' && call.taskId !== null && (
                  <Button
                    data-testid="approval-approve-only"
                    disabled={busy}
                    title="Runs the call; the task goes on only when you write to it again"
                    onClick={() => void approveOnly()}
                  >
                    Approve without continuing
                  </Button>
                )}
                <Button variant="danger" data-testid="approval-deny" disabled={busy} onClick={() => void deny()}>
                  Deny
                </Button>
                <Button
                  data-testid="approval-edit"
                  disabled={busy}
                  aria-expanded={mode === 'edit'}
                  onClick={() => (mode === 'edit' ? approveEdited() : setMode('edit'))}
                >
                  {mode === 'edit' ? 'Approve with these arguments' : 'Edit and approve'}
                </Button>
                {mode !== 'idle' && (
                  <Button variant="ghost" disabled={busy} onClick={cancelEdit}>
                    Cancel
                  </Button>
                )}
              </div>
              {mode === 'idle' && (
                <DenyReasonField
                  className="field field-inline"
                  label="Reason if you deny (optional; Homebody sees it)"
                  testId="approval-deny-reason"
                  value={reason}
                  onChange={setReason}
                  onDeny={() => void deny()}
                />
              )}
              {mode === 'edit' && (
                <ArgumentFieldsEditor args={editedArgs} original={call.args} disabled={busy} onChange={setArgsText} />
              )}
              {mode === 'edit' && (
                <label className="field">
                  <span>Arguments (JSON)</span>
                  <textarea
                    data-testid="approval-args"
                    className="code-input"
                    rows={Math.min(16, argsText.split('\n').length + 1)}
                    value={argsText}
                    spellCheck={false}
                    onChange={(e) => setArgsText(e.target.value)}
                  />
                </label>
              )}
            </>
          )}
          {error && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="approval-error" />}
        </div>
      </div>
    </li>
  );
});
