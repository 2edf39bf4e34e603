import type { ToolContext } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';

/** Redirects followed before giving up; each hop is asked of the egress guard like the first request. */
export const MAX_REDIRECTS = 5;
/** Bytes read from a response at most; the rest is never downloaded. */
export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
/** For the whole request, redirects included (the tool worker's own limit is 30 s). */
export const DEFAULT_TIMEOUT_MS = 20_000;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface GuardedGetOptions {
  /** What the egress guard records the connection as ("web page", "web search"). */
  readonly purpose: string;
  readonly accept: string;
  readonly maxBytes?: number;
  readonly timeoutMs?: number;
}

export interface GuardedResponse {
  /** The address that answered, after redirects. */
  readonly url: URL;
  readonly status: number;
  /** Lower-cased media type without parameters ("text/html"); "" when the server sent none. */
  readonly mediaType: string;
  readonly charset: string | null;
  readonly body: Uint8Array;
  /** The body was longer than maxBytes and was cut there. */
  readonly truncated: boolean;
}

/** A URL the tools may open: http or https, no credentials in it. */
export function webUrl(raw: string, what = 'The address'): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ToolError(
      'INVALID_INPUT',
      `${what} "${raw.slice(0, 200)}" is not a valid URL (e.g. https://example.org/page).`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ToolError(
      'INVALID_INPUT',
      `${what} uses ${url.protocol.replace(/:$/, '')}; only http and https are fetched.`,
    );
  if (url.username || url.password)
    throw new ToolError('INVALID_INPUT', `${what} carries a user name or password; they are never sent.`);
  return url;
}

/**
 * GET with the app's rules: every request, redirects included, is first asked of the egress guard (which refuses
 * everything offline), redirects are followed by hand (at most MAX_REDIRECTS, http/https only), the body is read up
 * to a byte cap, and the whole exchange stops at a timeout or when the call is cancelled. A non-2xx answer is a
 * REMOTE_ERROR with its status.
 */
export async function guardedGet(start: URL, ctx: ToolContext, options: GuardedGetOptions): Promise<GuardedResponse> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([ctx.signal, timeout]);
  let url = start;
  for (let hop = 0; ; hop++) {
    await ctx.services.egress(url.href, options.purpose);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'GET',
        redirect: 'manual',
        signal,
        headers: { accept: options.accept, 'user-agent': 'Homebody (on-device assistant)' },
      });
    } catch (error) {
      throw networkError(error, url, ctx.signal, timeout, timeoutMs);
    }
    if (REDIRECTS.has(response.status)) {
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (!location)
        throw new ToolError('REMOTE_ERROR', `${url.host} answered ${response.status} without saying where to go.`);
      if (hop >= MAX_REDIRECTS)
        throw new ToolError(
          'REMOTE_ERROR',
          `${start.host} redirected more than ${MAX_REDIRECTS} times; stopped at ${url.href}.`,
        );
      url = redirectTarget(location, url);
      continue;
    }
    if (response.status < 200 || response.status > 299) {
      await response.body?.cancel();
      const text = response.statusText ? ` ${response.statusText}` : '';
      throw new ToolError('REMOTE_ERROR', `${url.href} answered ${response.status}${text}.`);
    }
    const { body, truncated } = await readCapped(response, maxBytes, url, ctx.signal, timeout, timeoutMs);
    const [mediaType = '', ...params] = (response.headers.get('content-type') ?? '').split(';');
    const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1]).find(Boolean) ?? null;
    return { url, status: response.status, mediaType: mediaType.trim().toLowerCase(), charset, body, truncated };
  }
}

/** Where a redirect points, if the tools may go there; a redirect elsewhere is the server's failure, not the input's. */
function redirectTarget(location: string, from: URL): URL {
  try {
    return webUrl(new URL(location, from).href, `${from.host} redirected to an address that`);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ToolError(
      'REMOTE_ERROR',
      why.startsWith(from.host)
        ? why
        : `${from.host} redirected to "${location.slice(0, 200)}", which is not a valid URL.`,
    );
  }
}

async function readCapped(
  response: Response,
  maxBytes: number,
  url: URL,
  callSignal: AbortSignal,
  timeout: AbortSignal,
  timeoutMs: number,
): Promise<{ body: Uint8Array; truncated: boolean }> {
  if (!response.body) return { body: new Uint8Array(0), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = maxBytes - size;
      if (value.byteLength >= room) {
        chunks.push(value.subarray(0, room));
        size += room;
        // More than the cap (or exactly it with more to come): stop downloading here.
        truncated = value.byteLength > room || !(await reader.read()).done;
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } catch (error) {
    throw networkError(error, url, callSignal, timeout, timeoutMs);
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return { body, truncated };
}

function networkError(
  error: unknown,
  url: URL,
  callSignal: AbortSignal,
  timeout: AbortSignal,
  timeoutMs: number,
): ToolError {
  if (callSignal.aborted) return new ToolError('IO_ERROR', `The request to ${url.host} was cancelled.`);
  if (timeout.aborted)
    return new ToolError('REMOTE_ERROR', `${url.host} did not answer within ${Math.round(timeoutMs / 1000)} s.`);
  // undici reports "fetch failed" with the system error (ECONNREFUSED, ENOTFOUND, ...) as its cause.
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const why =
    typeof cause?.code === 'string'
      ? cause.code
      : typeof cause?.message === 'string'
        ? cause.message
        : error instanceof Error
          ? error.message
          : String(error);
  return new ToolError('REMOTE_ERROR', `Could not reach ${url.host}: ${why}.`);
}

/** The body as text: the declared charset, else a <meta charset> near the top (HTML), else UTF-8. */
export function decodeBody(response: GuardedResponse, html: boolean): string {
  let charset = response.charset;
  if (!charset && html) {
    const head = new TextDecoder('latin1').decode(response.body.subarray(0, 2048));
    charset = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1] ?? null;
  }
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(response.body);
  } catch {
    // An unknown label: UTF-8 with replacement characters is still readable.
    return new TextDecoder('utf-8').decode(response.body);
  }
}
