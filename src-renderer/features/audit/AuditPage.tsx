import { useEffect } from 'react';
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
                <td>{e.summary}</td>
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
