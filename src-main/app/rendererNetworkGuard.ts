import type { ObservedConnection } from '../privacy/egressLedger.js';
import { APP_ORIGIN, isAppUrl } from './appOrigin.js';

/** The part of Electron's Session the guard uses (main.ts passes the default session; tests a fake). */
export interface RendererSession {
  readonly webRequest: {
    onBeforeRequest(
      listener: (details: { url: string }, callback: (response: { cancel: boolean }) => void) => void,
    ): void;
  };
}

export type RendererRequestVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

const BLOCKED_REASON =
  "The app window loads only Homebody's own files; the request was cancelled before it left the machine.";
/** A ledger entry stays short whatever the page asked for. */
const MAX_RECORDED_URL = 500;

/**
 * What the app window may load: its own files (homebody://app), devtools' own pages, and data: and blob: URLs of our
 * page, which are read from memory and open no connection. Everything else, http(s), ws(s), file: and any other
 * scheme, is cancelled. The CSP already stops the page from asking; this stops whatever gets past it (an extension,
 * devtools' remote front end, a CSP bug) and makes it visible in the ledger.
 */
export function rendererRequestVerdict(url: string): RendererRequestVerdict {
  if (isAppUrl(url)) return { allowed: true };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'devtools' || scheme === 'data') return { allowed: true };
  if (scheme === 'blob' && url.slice('blob:'.length).startsWith(`${APP_ORIGIN}/`)) return { allowed: true };
  return { allowed: false, reason: BLOCKED_REASON };
}

/** The URL as the ledger keeps it: no query, fragment or credentials (they may carry tokens), and not too long. */
export function recordedUrl(raw: string): string {
  let kept: string;
  try {
    const url = new URL(raw);
    url.search = '';
    url.hash = '';
    url.username = '';
    url.password = '';
    kept = url.href;
  } catch {
    kept = raw.replace(/[?#].*$/s, '');
  }
  return kept.length > MAX_RECORDED_URL ? `${kept.slice(0, MAX_RECORDED_URL)}…` : kept;
}

/**
 * Cancels every request of the app window that rendererRequestVerdict refuses, then reports it to `record` (the
 * Host's recordConnection, which writes the egress ledger); cancelling first means a failing record never lets a
 * request through. Electron keeps one onBeforeRequest listener per session, so this must be the only one.
 */
export function guardRendererNetwork(session: RendererSession, record: (observed: ObservedConnection) => void): void {
  session.webRequest.onBeforeRequest((details, callback) => {
    const verdict = rendererRequestVerdict(details.url);
    callback({ cancel: !verdict.allowed });
    if (verdict.allowed) return;
    try {
      record({
        source: 'renderer',
        url: recordedUrl(details.url),
        via: 'renderer',
        allowed: false,
        reason: verdict.reason,
      });
    } catch (error) {
      console.error('[homebody] could not record a cancelled renderer request', error);
    }
  });
}
