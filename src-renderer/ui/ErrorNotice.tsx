import { isOfflineRefusal, type AppError } from '../../src-shared/contract/index.js';
import { PrivacyPageLink } from './PrivacyPageLink.js';

export interface ErrorNoticeProps {
  error: AppError;
  testId?: string;
  onDismiss?: () => void;
  className?: string;
}

/**
 * An error shown where it happened, in words a user can act on; announced by screen readers. A connection offline
 * mode refused also offers the Privacy page, where that host can be allowed.
 */
export function ErrorNotice({ error, testId, onDismiss, className }: ErrorNoticeProps) {
  return (
    <div
      role="alert"
      className={['error-notice', className].filter(Boolean).join(' ')}
      data-testid={testId}
      data-error-code={error.code}
    >
      <span className="error-notice-text">{error.message}</span>
      {error.code === 'NETWORK_BLOCKED' && isOfflineRefusal(error.message) && <PrivacyPageLink />}
      {onDismiss && (
        <button type="button" className="error-notice-dismiss" onClick={onDismiss} aria-label="Dismiss this message">
          ×
        </button>
      )}
    </div>
  );
}
