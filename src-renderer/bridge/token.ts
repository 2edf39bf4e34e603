import { TOKEN_QUERY } from '../../src-shared/contract/index.js';

const TOKEN_STORAGE_KEY = 'homebody.token';

export interface TokenSources {
  document: Pick<Document, 'querySelector'>;
  location: Pick<Location, 'href' | 'search'>;
  history: Pick<History, 'replaceState' | 'state'>;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
}

/**
 * Why browser mode's page has no token to use: missing (opened without the printed address, in a tab that never
 * had it), not-accepted (the address carried one the server did not take: an old launch's, or mistyped), refused
 * (the server turned down the one the tab kept: Homebody was started again since).
 */
export type TokenProblem = 'missing' | 'not-accepted' | 'refused';

export type TokenReading = { readonly token: string } | { readonly token: null; readonly problem: TokenProblem };

/**
 * Browser mode's per-launch token. It lives only in the page, never in a cookie: the server writes it into the
 * `homebody-token` meta tag when the address carries the right one (the printed address), and the tab keeps it in
 * sessionStorage for reloads. A `?token=` is always removed from the address bar and never read here: the server
 * already judged it, and taking it would let a wrong one replace the tab's good one.
 */
export function readToken(sources: TokenSources): TokenReading {
  const meta = sources.document.querySelector('meta[name="homebody-token"]')?.getAttribute('content') ?? '';
  const inAddress = new URLSearchParams(sources.location.search).has(TOKEN_QUERY);
  if (inAddress) {
    const url = new URL(sources.location.href);
    url.searchParams.delete(TOKEN_QUERY);
    sources.history.replaceState(sources.history.state, '', url.pathname + url.search + url.hash);
  }
  if (meta) {
    try {
      sources.storage.setItem(TOKEN_STORAGE_KEY, meta);
    } catch {
      // Storage can be unavailable (private mode); the token still works for this page, not after a reload.
    }
    return { token: meta };
  }
  const kept = readStored(sources.storage);
  if (kept) return { token: kept };
  return { token: null, problem: inAddress ? 'not-accepted' : 'missing' };
}

/** The server refused the kept token (a new launch): a reload must not try it again. */
export function forgetToken(storage: Pick<Storage, 'removeItem'>): void {
  try {
    storage.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // Nothing was kept.
  }
}

function readStored(storage: Pick<Storage, 'getItem'>): string | null {
  try {
    return storage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}
