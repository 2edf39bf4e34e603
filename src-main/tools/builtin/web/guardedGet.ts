import { lookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { isPrivateAddress } from '../../../privacy/networkRules.js';
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
 * GET with the app's rules: every request, redirects included, is first asked of the egress guard (feature `web`),
 * redirects are followed by hand (at most MAX_REDIRECTS, http/https only), the body is read up to a byte cap, and
 * the whole exchange stops at a timeout or when the call is cancelled. A non-2xx answer is a REMOTE_ERROR with its
 * status. A host name is resolved here, and refused when it resolves to this machine or the local network unless a
 * rule names that host: the guard judged the name, this judges where it really leads (a public name can point at
 * 127.0.0.1 or a router's admin page).
 */
export async function guardedGet(start: URL, ctx: ToolContext, options: GuardedGetOptions): Promise<GuardedResponse> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([ctx.signal, timeout]);
  let url = start;
  for (let hop = 0; ; hop++) {
    const grant = await ctx.services.egress(url.href, 'web', options.purpose);
    let response: IncomingMessage;
    try {
      response = await requestOnce(url, options.accept, signal, grant.hostNamed ? undefined : publicOnlyLookup);
    } catch (error) {
      throw networkError(error, url, ctx.signal, timeout, timeoutMs);
    }
    const status = response.statusCode ?? 0;
    if (REDIRECTS.has(status)) {
      response.destroy();
      const location = response.headers.location;
      if (!location) throw new ToolError('REMOTE_ERROR', `${url.host} answered ${status} without saying where to go.`);
      if (hop >= MAX_REDIRECTS)
        throw new ToolError(
          'REMOTE_ERROR',
          `${start.host} redirected more than ${MAX_REDIRECTS} times; stopped at ${url.href}.`,
        );
      url = redirectTarget(location, url);
      continue;
    }
    if (status < 200 || status > 299) {
      response.destroy();
      const text = response.statusMessage ? ` ${response.statusMessage}` : '';
      throw new ToolError('REMOTE_ERROR', `${url.href} answered ${status}${text}.`);
    }
    const { body, truncated } = await readCapped(response, maxBytes, url, ctx.signal, timeout, timeoutMs);
    const [mediaType = '', ...params] = (response.headers['content-type'] ?? '').split(';');
    const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1]).find(Boolean) ?? null;
    return { url, status, mediaType: mediaType.trim().toLowerCase(), charset, body, truncated };
  }
}

/** A private address a public-looking name resolved to; the egress guard would have refused it by its address. */
class PrivateAddressError extends Error {
  readonly code = 'EPRIVATEADDRESS';
}

/** dns.lookup, refusing an answer that is this machine or the local network. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, options, (error, address, family) => {
    if (error) {
      callback(error, address, family);
      return;
    }
    const addresses: LookupAddress[] = Array.isArray(address) ? address : [{ address, family: family ?? 4 }];
    const local = addresses.find((a) => isPrivateAddress(a.address));
    if (local) {
      callback(
        new PrivateAddressError(
          `${hostname} resolves to ${local.address}, which is this machine or the local network; the web tools go there only for a host you allowed by name on the Privacy page (Allow "${hostname}" for Web tools).`,
        ),
        address,
        family,
      );
      return;
    }
    callback(null, address, family);
  });
};

/** One GET, no redirect followed, no connection kept for later. */
function requestOnce(
  url: URL,
  accept: string,
  signal: AbortSignal,
  guardedLookup: LookupFunction | undefined,
): Promise<IncomingMessage> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'GET',
        agent: false,
        signal,
        headers: { accept, 'accept-encoding': 'gzip, deflate, br', 'user-agent': 'Homebody (on-device assistant)' },
        ...(guardedLookup ? { lookup: guardedLookup } : {}),
      },
      resolve,
    );
    request.on('error', reject);
    request.end();
  });
}

/** The body as sent, decompressed when the server compressed it. */
function decodedBody(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : null;
  if (!decoder) return response;
  return pipeline(response, decoder, () => undefined);
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
  response: IncomingMessage,
  maxBytes: number,
  url: URL,
  callSignal: AbortSignal,
  timeout: AbortSignal,
  timeoutMs: number,
): Promise<{ body: Uint8Array; truncated: boolean }> {
  const stream = decodedBody(response);
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      // Full already and more came: the rest is never downloaded.
      if (size >= maxBytes) {
        truncated = chunk.byteLength > 0;
        if (truncated) break;
        continue;
      }
      const room = maxBytes - size;
      chunks.push(chunk.byteLength > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(room, chunk.byteLength);
      if (chunk.byteLength > room) {
        truncated = true;
        break;
      }
    }
  } catch (error) {
    throw networkError(error, url, callSignal, timeout, timeoutMs);
  } finally {
    response.destroy();
    stream.destroy();
  }
  return { body: new Uint8Array(Buffer.concat(chunks, size)), truncated };
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
  if (error instanceof PrivateAddressError) return new ToolError('NETWORK_BLOCKED', error.message);
  const code = (error as { code?: unknown } | null)?.code;
  const why = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
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
