import { useEffect } from 'react';
import { ApprovalsPage } from '../features/approvals/ApprovalsPage.js';
import { AuditPage } from '../features/audit/AuditPage.js';
import { ChatView } from '../features/chat/ChatView.js';
import { HistoryPage } from '../features/history/HistoryPage.js';
import { ModelsPage } from '../features/models/ModelsPage.js';
import { PrivacyPage } from '../features/privacy/PrivacyPage.js';
import { DoctorPage } from '../features/doctor/DoctorPage.js';
import { EvalPage } from '../features/eval/EvalPage.js';
import { DeviceLayer } from '../features/device/DeviceLayer.js';
import { TaskSidebar } from '../features/history/TaskSidebar.js';
import { Onboarding } from '../features/onboarding/Onboarding.js';
import { SearchPalette } from '../features/search/SearchPalette.js';
import { SettingsPage } from '../features/settings/SettingsPage.js';
import { ErrorNotice } from '../ui/ErrorNotice.js';
import { useAppStore } from '../store/StoreContext.js';
import { selectBanner, selectConnection, selectMainView, selectNotices, selectPage } from '../store/selectors.js';

/** Sidebar of tasks beside the main area: onboarding, the chat, or a read-only task. */
export function App() {
  const view = useAppStore(selectMainView);
  const page = useAppStore(selectPage);
  const newTask = useAppStore((s) => s.newTask);
  const openSearch = useAppStore((s) => s.openSearch);

  // Ctrl+N / Cmd+N starts a new task and Ctrl+K / Cmd+K searches the history, from anywhere.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      const key = event.key.toLowerCase();
      if (key === 'n') {
        event.preventDefault();
        newTask();
      } else if (key === 'k') {
        event.preventDefault();
        // Not over a question that waits for an answer (a confirmation); the open palette handles its own.
        if (!document.querySelector('dialog[open]')) openSearch();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [newTask, openSearch]);

  return (
    <div className="app">
      <a className="skip-link" href="#main-area">
        Skip to main content
      </a>
      <TaskSidebar />
      <div className="main-area" id="main-area">
        <Banner />
        {page === 'history' ? (
          <HistoryPage />
        ) : page === 'approvals' ? (
          <ApprovalsPage />
        ) : page === 'settings' ? (
          <SettingsPage />
        ) : page === 'privacy' ? (
          <PrivacyPage />
        ) : page === 'audit' ? (
          <AuditPage />
        ) : page === 'models' ? (
          <ModelsPage />
        ) : page === 'doctor' ? (
          <DoctorPage />
        ) : page === 'eval' ? (
          <EvalPage />
        ) : (
          <MainView view={view} />
        )}
      </div>
      <SearchPalette />
      <DeviceLayer />
    </div>
  );
}

function MainView({ view }: { view: ReturnType<typeof selectMainView> }) {
  switch (view) {
    case 'starting':
      return (
        <main className="main starting" aria-busy="true">
          <p className="muted">Starting Homebody…</p>
        </main>
      );
    case 'onboarding':
      return <Onboarding />;
    case 'chat':
      return <ChatView readOnly={false} />;
    case 'readonly':
      return <ChatView readOnly />;
    default:
      return view satisfies never;
  }
}

function Banner() {
  const banner = useAppStore(selectBanner);
  const connection = useAppStore(selectConnection);
  const dismissBanner = useAppStore((s) => s.dismissBanner);
  const notices = useAppStore(selectNotices);
  const dismissNotice = useAppStore((s) => s.dismissNotice);
  return (
    <>
      {notices.map((notice, i) => (
        <ErrorNotice
          key={`${notice.code}-${i}`}
          error={notice}
          onDismiss={() => dismissNotice(i)}
          className="banner"
          testId="startup-notice"
        />
      ))}
      {connection === 'reconnecting' && (
        <p className="connection-note" role="status">
          Reconnecting to Homebody…
        </p>
      )}
      {banner && <ErrorNotice error={banner} onDismiss={dismissBanner} className="banner" />}
    </>
  );
}
