import { cleanup, render, type RenderResult } from '@testing-library/react';
import { userEvent, type UserEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach } from 'vitest';
import { createAppStore, type AppStore } from '../store/createAppStore.js';
import type { PageDevice } from '../store/deviceSlice.js';
import { AppStoreProvider } from '../store/StoreContext.js';
import type { AppData } from '../store/types.js';
import type { FakeHost } from './fakeHost.js';
import { memoryStorage } from './testFixtures.js';

// Vitest runs without globals here, so Testing Library cannot register its own cleanup: each test starts on an
// empty document, and a prompt left mounted by the previous test cannot catch this test's Esc.
afterEach(cleanup);

/** A page with no clipboard, notifications or tabs: the components under test never reach for them. */
const noPageDevice: PageDevice = {
  readClipboard: () => Promise.reject(new Error('No clipboard in component tests.')),
  writeClipboard: () => Promise.reject(new Error('No clipboard in component tests.')),
  systemNotify: () => false,
  open: () => false,
};

export interface Rendered extends RenderResult {
  readonly store: AppStore;
  readonly user: UserEvent;
}

/** Renders real components over the real store, which reaches the fake Host only through its contract. */
export function renderWithStore(ui: ReactNode, host: FakeHost, state: Partial<AppData> = {}): Rendered {
  const store = createAppStore({ api: host.api, storage: memoryStorage() }, noPageDevice);
  store.setState(state);
  const user = userEvent.setup({ delay: null });
  return { ...render(<AppStoreProvider store={store}>{ui}</AppStoreProvider>), store, user };
}
