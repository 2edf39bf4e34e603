import { memo, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  onlyThought,
  taskStatusWords,
  type AppError,
  type ExportFormat,
  type Message,
  type TaskDetail,
  type ToolCall,
} from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { RecordCaseButton } from '../eval/RecordCaseButton.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { ThoughtDetails } from '../../ui/ThoughtDetails.js';
import { ToolCallDetails } from '../../ui/ToolCallDetails.js';
import { formatDuration, isoDateTime, messageStateNote, span } from '../../ui/format.js';
import { saveFile } from '../../ui/saveFile.js';
import { actorLabel, decidedByLabel, formatAuditTime, toolCallStateLabel } from '../../ui/toolFormat.js';
import { useAppStore } from '../../store/StoreContext.js';
import { countLabel, timelineTotals } from '../../store/historyView.js';
import { buildTimeline, timelineKey } from '../../store/timeline.js';
import { RemoteReplyMark } from '../../ui/RemoteMarks.js';

/**
 * One task from start to end, read-only: every message with its time and figures, and every tool call with
 * what was decided, by whom, what it did and how long it took.
 */
export function TaskTimeline({ taskId, onBack }: { taskId: string; onBack: () => void }) {
  const detail = useAppStore((s) => s.timelineDetail);
  const error = useAppStore((s) => s.timelineError);
  const summary = useAppStore((s) => s.historyEntries.find((e) => e.id === taskId) ?? null);
  const openTask = useAppStore((s) => s.openTask);
  const exportHistory = useAppStore((s) => s.exportHistory);
  const deleteHistory = useAppStore((s) => s.deleteHistory);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [actionError, setActionError] = useState<AppError | null>(null);
  const [exported, setExported] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);

  // The view replaces the list: its heading takes the focus so a screen reader starts here.
  useEffect(() => headingRef.current?.focus(), [taskId]);

  const title = detail?.task.title ?? summary?.title ?? '';
  const exportTask = async (format: ExportFormat) => {
    setActionError(null);
    const outcome = await exportHistory([taskId], format);
    if (!outcome.ok) return setActionError(outcome.error);
    saveFile(outcome.value);
    setExported(`Exported to ${outcome.value.fileName}.`);
  };

  return (
    <main className="main page timeline-page" data-testid="task-timeline" aria-labelledby="timeline-heading">
      <nav className="timeline-nav" aria-label="Back">
        <Button variant="ghost" data-testid="timeline-back" onClick={onBack}>
          ← Back to history
        </Button>
      </nav>
      <header className="page-header timeline-header">
        <h1 id="timeline-heading" ref={headingRef} tabIndex={-1} data-testid="timeline-title">
          {title || 'Untitled task'}
        </h1>
        <div className="timeline-actions">
          <Button data-testid="timeline-open-chat" onClick={() => void openTask(taskId)}>
            Open in chat
          </Button>
          <Button data-testid="timeline-export-json" onClick={() => void exportTask('json')}>
            Export JSON
          </Button>
          <Button data-testid="timeline-export-md" onClick={() => void exportTask('md')}>
            Export Markdown
          </Button>
          <RecordCaseButton key={taskId} taskId={taskId} />
          <Button variant="danger" data-testid="timeline-delete" onClick={() => setConfirmDelete(true)}>
            Delete…
          </Button>
        </div>
      </header>
      {exported && (
        <p className="muted" role="status">
          {exported}
        </p>
      )}
      {actionError && (
        <ErrorNotice error={actionError} onDismiss={() => setActionError(null)} testId="timeline-action-error" />
      )}
      {error && <ErrorNotice error={error} testId="timeline-error" />}
      {detail ? (
        <TimelineBody detail={detail} />
      ) : (
        !error && (
          <p className="empty-hint muted" aria-busy="true">
            Loading…
          </p>
        )
      )}
      {confirmDelete && (
        <ConfirmDialog
          title="Delete this task?"
          confirmLabel="Delete this task"
          onClose={() => setConfirmDelete(false)}
          onConfirm={async () => {
            const outcome = await deleteHistory([taskId]);
            // Deleting closes the timeline: the list shows again without the task.
            return outcome.ok ? null : outcome.error;
          }}
        >
          <p>
            “{title || 'Untitled task'}”, its messages, tool calls and audit entries are erased from this computer.{' '}
            <strong>This cannot be undone.</strong>
          </p>
        </ConfirmDialog>
      )}
    </main>
  );
}

function TimelineBody({ detail }: { detail: TaskDetail }) {
  const items = useMemo(() => buildTimeline(detail.messages, detail.toolCalls), [detail.messages, detail.toolCalls]);
  const totals = useMemo(() => timelineTotals(detail), [detail]);
  const { task } = detail;
  return (
    <>
      <dl className="timeline-summary" data-testid="timeline-summary">
        <Fact label="Status">{taskStatusWords(task)}</Fact>
        <Fact label="Started">
          <time dateTime={isoDateTime(task.createdAt)}>{formatAuditTime(task.createdAt)}</time>
        </Fact>
        <Fact label="Last active">
          <time dateTime={isoDateTime(task.updatedAt)}>{formatAuditTime(task.updatedAt)}</time>
        </Fact>
        <Fact label="Messages">{detail.messages.length.toLocaleString()}</Fact>
        <Fact label="Tool calls">{detail.toolCalls.length.toLocaleString()}</Fact>
        <Fact label="Tokens" testId="timeline-total-tokens">
          {totals.tokens.toLocaleString()}
        </Fact>
        {totals.toolTime !== null && <Fact label="Time in tools">{formatDuration(totals.toolTime)}</Fact>}
      </dl>
      {items.length === 0 ? (
        <p className="empty-hint muted">This task has no messages.</p>
      ) : (
        <ol className="timeline" aria-label="Timeline">
          {items.map((item) =>
            item.kind === 'message' ? (
              <TimelineMessage key={timelineKey(item)} message={item.message} />
            ) : (
              <TimelineCall key={timelineKey(item)} call={item.call} />
            ),
          )}
        </ol>
      )}
    </>
  );
}

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="timeline-fact">
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

const TimelineMessage = memo(function TimelineMessage({ message }: { message: Message }) {
  const who = message.role === 'user' ? 'You' : 'Homebody';
  const note = messageStateNote(message.state, message.error);
  const { stats } = message;
  return (
    <li
      className={`timeline-item timeline-message timeline-${message.role}`}
      data-testid="timeline-message"
      data-message-id={message.id}
      data-role={message.role}
      data-state={message.state}
    >
      <div className="timeline-item-head">
        <h3 className="timeline-who">{who}</h3>
        <time className="muted" dateTime={isoDateTime(message.createdAt)}>
          {formatAuditTime(message.createdAt)}
        </time>
        {note && <span className={`message-state state-${message.state}`}>{note}</span>}
        {message.remote && <RemoteReplyMark remote={message.remote} testId="timeline-remote" />}
        {message.contextNote && (
          <span className="message-context-note muted" data-testid="timeline-context-note" role="note">
            {message.contextNote}
          </span>
        )}
      </div>
      <ThoughtDetails message={message} />
      <p className="message-text">
        {message.text ||
          (onlyThought(message) ? (
            <span className="muted" data-testid="timeline-only-thought">
              (no answer: the model only thought)
            </span>
          ) : (
            <span className="muted">(no text)</span>
          ))}
      </p>
      {stats && (
        <dl className="timeline-facts" data-testid="timeline-message-stats">
          <Fact label="Prompt">{countLabel(stats.promptTokens, 'token')}</Fact>
          <Fact label="Reply">{countLabel(stats.completionTokens, 'token')}</Fact>
          {stats.reasoningTokens !== undefined && (
            <Fact label="Thinking" testId="timeline-reasoning-tokens">
              {countLabel(stats.reasoningTokens, 'token')}
            </Fact>
          )}
          {stats.ttftMs !== null && <Fact label="First token">{formatDuration(stats.ttftMs)}</Fact>}
          {stats.tokensPerSecond !== null && <Fact label="Speed">{stats.tokensPerSecond.toFixed(1)} tokens/s</Fact>}
        </dl>
      )}
    </li>
  );
});

function undoLabel(undo: ToolCall['undo']): string | null {
  switch (undo) {
    case null:
      return null;
    case 'available':
      return 'Can be undone';
    case 'undone':
      return 'Undone';
    case 'failed':
      return 'Undo failed';
    default:
      return undo satisfies never;
  }
}

function deciderLabel(decidedBy: ToolCall['decidedBy']): string {
  return decidedBy === null ? 'No one yet' : decidedBy === 'user' ? 'You' : actorLabel(decidedBy);
}

const TimelineCall = memo(function TimelineCall({ call }: { call: ToolCall }) {
  const undoToolCall = useAppStore((s) => s.undoToolCall);
  const [error, setError] = useState<AppError | null>(null);
  const [busy, setBusy] = useState(false);
  const decision = decidedByLabel(call);
  const undo = undoLabel(call.undo);
  const waited = span(call.createdAt, call.decidedAt);
  const ran = span(call.startedAt, call.finishedAt);
  const result = call.result === null || call.result === undefined ? null : resultText(call.result);

  return (
    <li
      className={`timeline-item timeline-call toolcall-${call.state}`}
      data-testid="timeline-toolcall"
      data-call-id={call.id}
      data-tool={call.tool}
      data-state={call.state}
    >
      <div className="timeline-item-head">
        <span className="timeline-who">
          Tool call <code>{call.tool}</code>
        </span>
        <time className="muted" dateTime={isoDateTime(call.createdAt)}>
          {formatAuditTime(call.createdAt)}
        </time>
      </div>
      <ToolCallDetails call={call} />
      <dl className="timeline-facts">
        <Fact label="Decision" testId="timeline-decision">
          {decision ?? (call.state === 'expired' ? 'Never decided' : 'Not decided')}
        </Fact>
        <Fact label="Decided by" testId="timeline-decided-by">
          <span data-decided-by={call.decidedBy ?? ''}>{deciderLabel(call.decidedBy)}</span>
        </Fact>
        <Fact label="State" testId="timeline-state">
          {toolCallStateLabel(call)}
        </Fact>
        {waited !== null && <Fact label="Waited for a decision">{formatDuration(waited)}</Fact>}
        {ran !== null && (
          <Fact label="Ran for" testId="timeline-duration">
            {formatDuration(ran)}
          </Fact>
        )}
        {undo && (
          <Fact label="Undo" testId="timeline-undo">
            {undo}
          </Fact>
        )}
        {call.reason && <Fact label="Reason">“{call.reason}”</Fact>}
      </dl>
      {/* A failed call's state already says why; any other state with an error says it here. */}
      {call.error && call.state !== 'failed' && call.state !== 'rejected' && (
        <p className="timeline-call-error" role="note" data-testid="timeline-call-error">
          {call.error}
        </p>
      )}
      {result !== null && (
        <details className="timeline-result">
          <summary>Result</summary>
          <pre data-testid="timeline-result">{result}</pre>
        </details>
      )}
      {call.undo === 'available' && (
        <div className="toolcall-actions">
          <Button
            data-testid="timeline-undo-button"
            disabled={busy}
            onClick={async () => {
              setBusy(true);
              setError(await undoToolCall(call.id));
              setBusy(false);
            }}
          >
            Undo
          </Button>
        </div>
      )}
      {error && <ErrorNotice error={error} onDismiss={() => setError(null)} />}
    </li>
  );
});

/** A result as readable text: strings as they are, anything else as indented JSON; very long ones cut. */
function resultText(result: unknown, max = 20_000): string {
  let text: string;
  if (typeof result === 'string') text = result;
  else {
    try {
      text = JSON.stringify(result, null, 2) ?? String(result);
    } catch {
      text = String(result);
    }
  }
  return text.length > max
    ? `${text.slice(0, max)}\n… (${(text.length - max).toLocaleString()} more characters)`
    : text;
}
