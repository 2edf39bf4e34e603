import { memo } from 'react';
import { taskStatusOf, type TaskSummary } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { formatRelativeTime, taskStatusLabel } from '../../ui/format.js';
import { useNow } from '../../ui/useNow.js';
import { useAppStore } from '../../store/StoreContext.js';
import { selectApprovalCount, selectOpenTaskId, selectPage, selectTasks } from '../../store/selectors.js';
import type { Page } from '../../store/types.js';

/** Past tasks, newest first, and the way to start a new one. */
export function TaskSidebar() {
  const tasks = useAppStore(selectTasks);
  const openTaskId = useAppStore(selectOpenTaskId);
  const page = useAppStore(selectPage);
  const tasksError = useAppStore((s) => s.tasksError);
  const newTask = useAppStore((s) => s.newTask);
  const openTask = useAppStore((s) => s.openTask);
  const now = useNow();

  return (
    <nav className="sidebar" aria-label="Tasks">
      <div className="sidebar-top">
        <p className="brand">Homebody</p>
        <Button
          variant="primary"
          className="new-task"
          data-testid="new-task-button"
          onClick={newTask}
          aria-keyshortcuts="Control+N Meta+N"
          title="New task (Ctrl+N)"
        >
          New task
        </Button>
      </div>
      <PageNav />
      {tasksError && <ErrorNotice error={tasksError} className="sidebar-error" />}
      <h2 className="sidebar-heading" id="task-list-heading">
        Recent tasks
      </h2>
      {tasks.length === 0 ? <p className="muted sidebar-empty">No tasks yet.</p> : null}
      <ul className="task-list" data-testid="task-list" aria-labelledby="task-list-heading">
        {tasks.map((task) => (
          <TaskRow
            key={task.id}
            task={task}
            current={page === 'chat' && task.id === openTaskId}
            now={now}
            onOpen={openTask}
          />
        ))}
      </ul>
    </nav>
  );
}

const PAGES: readonly { page: Page; label: string }[] = [
  { page: 'chat', label: 'Chat' },
  { page: 'history', label: 'History' },
  { page: 'approvals', label: 'Approvals' },
  { page: 'settings', label: 'Settings' },
  { page: 'privacy', label: 'Privacy' },
  { page: 'audit', label: 'Audit log' },
  { page: 'models', label: 'Models' },
  { page: 'doctor', label: 'Doctor' },
  { page: 'eval', label: 'Evaluation' },
];

/** Chat, History, Approvals (with how many calls wait), Settings, Privacy, Audit log, Models, Doctor, Evaluation. */
function PageNav() {
  const page = useAppStore(selectPage);
  const setPage = useAppStore((s) => s.setPage);
  const waiting = useAppStore(selectApprovalCount);
  return (
    <ul className="page-nav" aria-label="Pages">
      {PAGES.map((p) => (
        <li key={p.page}>
          <button
            type="button"
            className="page-nav-item"
            data-testid={`nav-${p.page}`}
            aria-current={page === p.page ? 'page' : undefined}
            onClick={() => setPage(p.page)}
          >
            <span>{p.label}</span>
            {p.page === 'approvals' && waiting > 0 && (
              <span className="nav-badge" data-testid="approvals-badge" aria-label={`${waiting} waiting`}>
                {waiting}
              </span>
            )}
          </button>
        </li>
      ))}
    </ul>
  );
}

const TaskRow = memo(function TaskRow({
  task,
  current,
  now,
  onOpen,
}: {
  task: TaskSummary;
  current: boolean;
  now: number;
  onOpen: (taskId: string) => Promise<void>;
}) {
  const status = taskStatusLabel(task);
  const when = formatRelativeTime(task.updatedAt, now);
  return (
    <li>
      <button
        type="button"
        className="task-item"
        data-testid="task-item"
        data-task-id={task.id}
        aria-current={current ? 'true' : undefined}
        onClick={() => void onOpen(task.id)}
      >
        <span className="task-item-title">{task.title || 'Untitled task'}</span>
        <span className="task-item-meta">
          <time dateTime={isoOrUndefined(task.updatedAt)}>{when}</time>
          {status && (
            <span className={`task-status status-${taskStatusOf(task)}`} data-testid="task-status">
              {' '}
              · {status}
            </span>
          )}
        </span>
      </button>
    </li>
  );
});

function isoOrUndefined(timestamp: number): string | undefined {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
