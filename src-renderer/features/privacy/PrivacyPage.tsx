import { useEffect } from 'react';
import { useAppStore } from '../../store/StoreContext.js';
import { ConnectionsSection } from './ConnectionsSection.js';
import { NetworkSection } from './NetworkSection.js';
import { StorageSection } from './StorageSection.js';
import './privacy.css';

/** What may leave this computer, what tried to, and what Homebody keeps on it. */
export function PrivacyPage() {
  const loadPrivacy = useAppStore((s) => s.loadPrivacy);

  useEffect(() => {
    void loadPrivacy();
  }, [loadPrivacy]);

  return (
    <main className="main page privacy-page" data-testid="privacy-page" aria-labelledby="privacy-heading">
      <header className="page-header">
        <h1 id="privacy-heading">Privacy</h1>
        <p className="muted">What may leave this computer, what tried to, and what Homebody keeps on it.</p>
      </header>
      <NetworkSection />
      <ConnectionsSection />
      <StorageSection />
    </main>
  );
}
