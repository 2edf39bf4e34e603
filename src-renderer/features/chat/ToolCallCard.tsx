import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { isOfflineRefusal, type AppError, type ToolCall } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { PrivacyPageLink } from '../../ui/PrivacyPageLink.js';
import { ToolCallDetails } from '../../ui/ToolCallDetails.js';
import { decidedByLabel, isPrompt, rawResult, summarizeResult, toolCallStateLabel } from '../../ui/toolFormat.js';
import { useAppStore } from '../../store/StoreContext.js';
import { DenyReasonField } from '../../ui/DenyReasonField.js';

/** One tool call in the chat timeline; a pending prompt-gated call is a permission prompt. */
export const ToolCallCard = memo(function ToolCallCard({ call }: { call: ToolCall }) {
  const undoToolCall = useAppStore((s) => s.undoToolCall);
  const setPage = useAppStore((s) => s.setPage);
  const [error, setError] = useState<AppError | null>(null);
  const [busy, setBusy] = useState(false);
  const prompt = isPrompt(call);
  const decided = decidedByLabel(call);
  // The tool's line for people when it gave one, the result itself one click away; else the result, shortened.
  const line = call.state === 'done' ? call.resultSummary : null;
  const result = call.state === 'done' ? (line ? rawResult(call.result) : summarizeResult(call.result)) : null;

  const undo = async () => {
    setBusy(true);
    setError(await undoToolCall(call.id));
    setBusy(false);
  };

  return (
    <li
      className={`toolcall toolcall-${call.state}${prompt ? ' toolcall-prompt' : ''}`}
      data-testid="toolcall-card"
      data-state={call.state}
      data-gate={call.gate}
      data-tool={call.tool}
      data-call-id={call.id}
    >
      <ToolCallDetails call={call} />
      <p className="toolcall-status">
        <span className={`toolcall-state state-${call.state}`} data-testid="toolcall-state">
          {toolCallStateLabel(call)}
        </span>
        {decided && <span className="muted"> · {decided}</span>}
        {call.reason && call.state === 'denied' && <span className="muted"> · “{call.reason}”</span>}
        {call.undo === 'undone' && (
          <span className="toolcall-undone" data-testid="toolcall-undone">
            {' '}
            · Undone
          </span>
        )}
        {call.undo === 'failed' && <span className="toolcall-undo-failed"> · Undo failed</span>}
      </p>
      {line && (
        <p className="toolcall-outcome" data-testid="toolcall-outcome">
          {line}
        </p>
      )}
      {result &&
        (line ? (
          <details className="toolcall-raw">
            <summary>The result as the assistant read it</summary>
            <pre className="toolcall-result" data-testid="toolcall-result">
              {result}
            </pre>
          </details>
        ) : (
          <p className="toolcall-result" data-testid="toolcall-result">
            {result}
          </p>
        ))}
      {call.state === 'failed' && isOfflineRefusal(call.error) && (
        <div className="toolcall-actions">
          <PrivacyPageLink />
        </div>
      )}
      {call.state === 'interrupted' && (
        <p className="muted toolcall-note">
          This was running when Homebody stopped; it may have run already and will not run again.
        </p>
      )}
      {call.gate === 'queue' && (call.state === 'pending' || call.state === 'interrupted') && (
        <div className="toolcall-actions">
          <Button variant="ghost" data-testid="toolcall-open-approvals" onClick={() => setPage('approvals')}>
            Decide in Approvals
          </Button>
        </div>
      )}
      {call.undo === 'available' && (
        <div className="toolcall-actions">
          <Button data-testid="toolcall-undo" onClick={() => void undo()} disabled={busy}>
            Undo
          </Button>
        </div>
      )}
      {prompt && <PermissionPrompt call={call} onError={setError} />}
      {error && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="toolcall-error" />}
    </li>
  );
});

/**
 * Allow once, allow for this task, always allow (not for irreversible calls), deny (Esc). For a read, "Allow once"
 * takes focus, so Enter allows it. A call that changes something takes no focus at all: a stray Enter typed into
 * the chat must not allow a write; the user moves to a button (Tab, or the mouse) first. Esc always denies.
 */
function PermissionPrompt({ call, onError }: { call: ToolCall; onError: (error: AppError | null) => void }) {
  const answerToolCall = useAppStore((s) => s.answerToolCall);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const allowRef = useRef<HTMLButtonElement>(null);
  const groupRef = useRef<HTMLDivElement>(null);
  const changes = call.risk !== 'read';

  const answer = async (kind: 'allow-once' | 'allow-task' | 'always' | 'deny') => {
    if (busy) return;
    setBusy(true);
    onError(null);
    const error = await answerToolCall(call.id, kind, kind === 'deny' ? reason : null);
    // On success the card re-renders without the prompt; on failure the buttons come back.
    setBusy(false);
    onError(error);
  };
  const answerRef = useRef(answer);
  useLayoutEffect(() => {
    answerRef.current = answer;
  });

  useEffect(() => {
    // The group itself takes focus for a change (announced, and Tab then reaches the first button); no button does.
    if (changes) groupRef.current?.focus();
    else allowRef.current?.focus();
  }, [changes]);

  // Esc denies, before the chat's own Esc (stop the reply) sees it.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        void answerRef.current('deny');
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div
      className="permission-prompt"
      data-testid="permission-prompt"
      role="group"
      aria-label="Permission"
      ref={groupRef}
      tabIndex={-1}
    >
      <p className="permission-question">
        {changes
          ? 'Homebody wants to change something. Check the details, then choose.'
          : 'Homebody wants to do this. Allow it?'}
      </p>
      <div className="permission-actions">
        <Button
          ref={allowRef}
          variant="primary"
          data-testid="prompt-allow-once"
          {...(changes ? {} : { 'aria-keyshortcuts': 'Enter' })}
          disabled={busy}
          onClick={() => void answer('allow-once')}
        >
          Allow once
        </Button>
        <Button data-testid="prompt-allow-task" disabled={busy} onClick={() => void answer('allow-task')}>
          Allow for this task
        </Button>
        {call.risk !== 'irreversible' && (
          <Button data-testid="prompt-always" disabled={busy} onClick={() => void answer('always')}>
            Always allow
          </Button>
        )}
        <Button
          variant="danger"
          data-testid="prompt-deny"
          aria-keyshortcuts="Escape"
          disabled={busy}
          onClick={() => void answer('deny')}
        >
          Deny
        </Button>
      </div>
      <DenyReasonField
        className="permission-reason"
        label="Reason for denying (optional; Homebody sees it)"
        testId="prompt-deny-reason"
        value={reason}
        onChange={setReason}
        onDeny={() => void answer('deny')}
      />
    </div>
  );
}
