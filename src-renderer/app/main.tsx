import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { connectHostClient, type TokenProblem } from '../bridge/index.js';
import { connectHost } from '../store/connectHost.js';
import { createAppStore, sessionKeyValueStore } from '../store/createAppStore.js';
import { AppStoreProvider } from '../store/StoreContext.js';
import { AccessTokenNotice } from './AccessTokenNotice.js';
import { App } from './App.js';
import './app.css';
import './tools.css';
import './history.css';
import './models.css';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html lacks #root');
const root: Root = createRoot(rootElement);

// Browser mode without a token it can use: the app does not start, and the page says which address to open.
let disconnect: (() => void) | null = null;
const showTokenNotice = (problem: TokenProblem) => {
  disconnect?.();
  root.render(
    <StrictMode>
      <AccessTokenNotice
        problem={problem}
        command={document.querySelector('meta[name="homebody-command"]')?.getAttribute('content') || null}
      />
    </StrictMode>,
  );
};

const connection = connectHostClient(() => showTokenNotice('refused'));
if (connection.client === null) {
  showTokenNotice(connection.problem);
} else {
  const store = createAppStore({ api: connection.client.api, storage: sessionKeyValueStore() });
  // Subscribe before the first fetches so no event falls between them.
  disconnect = connectHost(connection.client, store);
  void store.getState().init();
  root.render(
    <StrictMode>
      <AppStoreProvider store={store}>
        <App />
      </AppStoreProvider>
    </StrictMode>,
  );
}
