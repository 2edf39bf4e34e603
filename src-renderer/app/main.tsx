import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createHostClient } from '../bridge/index.js';
import { connectHost } from '../store/connectHost.js';
import { createAppStore, sessionKeyValueStore } from '../store/createAppStore.js';
import { AppStoreProvider } from '../store/StoreContext.js';
import { App } from './App.js';
import './app.css';
import './tools.css';
import './history.css';
import './models.css';

const client = createHostClient();
const store = createAppStore({ api: client.api, storage: sessionKeyValueStore() });
// Subscribe before the first fetches so no event falls between them.
connectHost(client, store);
void store.getState().init();

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html lacks #root');
createRoot(rootElement).render(
  <StrictMode>
    <AppStoreProvider store={store}>
      <App />
    </AppStoreProvider>
  </StrictMode>,
);
