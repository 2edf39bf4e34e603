import { useEffect } from 'react';
import { basisSentence, type AuditEvent } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { actorLabel, formatAuditTime } from '../../ui/toolFormat.js';
import { useAppStore } from '../../store/StoreContext.js';

/** What happened, newest first: every proposal, decision, run and policy change. */
export function AuditPage() {
  const events = useAppStore((s) => s.auditEvents);
  const hasMore = useAppStore((s) => s.auditHasMore);
  const loading = useAppStore((s) => s.auditLoading);
  const error = useAppStore((s) => s.auditError);
  const loadAudit = useAppStore((s) => s.loadAudit);
  const loadOlderAudit = useAppStore((s) => s.loadOlderAudit);
  const openTask = useAppStore((s) => s.openTask);

  useEffect(() => {
    void loadAudit();
  }, [loadAudit]);

  return (
    <main className="main page audit-page" data-testid="audit-page" aria-labelledby="audit-heading">
      <header className="page-header">
        <h1 id="audit-heading">Audit log</h1>
        <Button onClick={() => void loadAudit()} disabled={loading}>
          Refresh
        </Button>
      </header>
      {error && <ErrorNotice error={error} testId="audit-error" />}
      {events.length === 0 ? (
        <p className="empty-hint muted">{loading ? 'Loading…' : 'Nothing recorded yet.'}</p>
      ) : (
        <table className="audit-table">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Summary</th>
              <th scope="col">Task</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e) => (
              <tr key={e.id} data-testid="audit-row" data-kind={e.kind} data-actor={e.actor}>
                <td>
                  <time dateTime={new Date(e.at).toISOString()}>{formatAuditTime(e.at)}</time>
                </td>
                <td>{actorLabel(e.actor)}</td>
                <td>
                  <code>{e.kind}</code>
                </td>
                <td className="audit-summary">
                  {e.summary}
                  {e.basis && (
                    <span className="audit-basis muted" data-testid="audit-basis" data-basis={e.basis.kind}>
                      Why: {basisSentence(e.basis)}
                    </span>
                  )}
                  <AuditPaths event={e} />
                </td>
                <td>
                  {e.taskId && (
                    <Button variant="ghost" data-testid="audit-open-task" onClick={() => void openTask(e.taskId!)}>
                      Open task
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {hasMore && (
        <Button data-testid="audit-load-older" onClick={() => void loadOlderAudit()} disabled={loading}>
          Load older
        </Button>
      )}
    </main>
  );
}

/** The files an event concerns, absolute, each with the granted folder it lies in. */
function AuditPaths({ event }: { event: AuditEvent }) {
  if (event.paths.length === 0) return null;
  return (
    <ul className="audit-paths" data-testid="audit-paths">
      {event.paths.map((p) => (
        <li key={p.arg}>
          <code>{p.path}</code>
          {p.root && (
            <span className="muted">
              {' '}
              in {p.root}
              {p.untrusted ? ' (untrusted content)' : ''}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
