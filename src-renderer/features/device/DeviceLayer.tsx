import { useAppStore } from '../../store/StoreContext.js';
import { Button } from '../../ui/Button.js';
import './device.css';

/**
 * Above everything: the toasts (reminders that fell due, notifications the browser would not show) and, in browser
 * mode, the question before an address the assistant asked to open is opened (the click also lets the browser
 * open a new tab).
 */
export function DeviceLayer() {
  const toasts = useAppStore((s) => s.toasts);
  const dismiss = useAppStore((s) => s.dismissToast);
  const openRequest = useAppStore((s) => s.openRequest);
  const answerOpen = useAppStore((s) => s.answerOpen);
  const canAsk = typeof Notification !== 'undefined' && Notification.permission === 'default';
  return (
    <div className="device-layer">
      {openRequest && (
        <div className="device-open" role="alertdialog" aria-labelledby="device-open-title" data-testid="device-open">
          <p id="device-open-title">Homebody was allowed to open:</p>
          <p className="device-open-target" data-testid="device-open-target">
            {openRequest.target}
          </p>
          <div className="device-open-actions">
            <Button variant="primary" onClick={() => void answerOpen(true)} data-testid="device-open-confirm">
              Open
            </Button>
            <Button onClick={() => void answerOpen(false)} data-testid="device-open-cancel">
              Cancel
            </Button>
          </div>
        </div>
      )}
      <ul className="toasts" aria-live="polite">
        {toasts.map((toast) => (
          <li key={toast.id} className="toast" role="status" data-testid="toast">
            <strong data-testid="toast-title">{toast.title}</strong>
            <span data-testid="toast-body">{toast.body}</span>
            {canAsk && (
              <button type="button" className="link" onClick={() => void Notification.requestPermission()}>
                Show as system notifications
              </button>
            )}
            <button type="button" aria-label="Dismiss" onClick={() => dismiss(toast.id)} data-testid="toast-dismiss">
              ×
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
