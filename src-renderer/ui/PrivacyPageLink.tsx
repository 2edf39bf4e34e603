import { useAppStore } from '../store/StoreContext.js';
import { Button } from './Button.js';

/**
 * Offered wherever offline mode refused a connection: the Privacy page lists the refusal with its "Allow <host> for
 * <feature>" button, so the user can allow exactly that host and try again.
 */
export function PrivacyPageLink() {
  const setPage = useAppStore((s) => s.setPage);
  return (
    <Button variant="ghost" data-testid="open-privacy" onClick={() => setPage('privacy')}>
      Review on the Privacy page
    </Button>
  );
}
