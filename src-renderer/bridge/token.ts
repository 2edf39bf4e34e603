import { TOKEN_QUERY } from '../../src-shared/contract/index.js';

const TOKEN_STORAGE_KEY = 'homebody.token';

export interface TokenSources {
  document: Pick<Document, 'querySelector'>;
  location: Pick<Location, 'href' | 'search'>;
  history: Pick<History, 'replaceState' | 'state'>;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
}

/**
 * Browser mode's per-launch token: the server writes it into the
 * `homebody-token` meta tag; a `?token=` link and the tab's sessionStorage are
 * fallbacks. The token is kept for reloads and removed from the address bar.
 */
export function readToken(sources: TokenSources): string | null {
  const meta = sources.document.querySelector('meta[name="homebody-token"]')?.getAttribute('content') ?? '';
  const query = new URLSearchParams(sources.location.search).get(TOKEN_QUERY) ?? '';
  const token = meta || query || sources.storage.getItem(TOKEN_STORAGE_KEY) || null;
  if (token) {
    try {
      sources.storage.setItem(TOKEN_STORAGE_KEY, token);
    } catch {
      // Storage can be unavailable (private mode); the token still works for this page.
    }
  }
  if (new URLSearchParams(sources.location.search).has(TOKEN_QUERY)) {
    const url = new URL(sources.location.href);
    url.searchParams.delete(TOKEN_QUERY);
    sources.history.replaceState(sources.history.state, '', url.pathname + url.search + url.hash);
  }
  return token;
}
