/**
 * One HTTP request to a model on another computer, as every remote request is made: asked of the egress guard first
 * (feature `remote-model`, with what it carries, so the ledger lists it with its bytes up and down), the API key in
 * a header and never in a URL, the server's TLS certificate checked against the fingerprint pinned when the node was
 * added, and each way it can fail turned into an error the user can act on.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { HomebodyError, type ErrorCode } from '../../../src-shared/contract/index.js';
import type { EgressTicket } from '../../privacy/egressGuard.js';

/** Where a node is and how to speak to it. */
export interface NodeEndpoint {
  /** The server's base URL (`http://192.168.1.20:8080`); the API's paths are added to it. */
  readonly url: string;
  /** Sent as `Authorization: Bearer`; never logged, never in the ledger. */
  readonly apiKey?: string;
  /** The SHA-256 fingerprint of the server's certificate (`AB:CD:…`), pinned on first use; https only. */
  readonly fingerprint?: string;
  /** For people, in the ledger and in errors: "llama-server on 192.168.1.20". */
  readonly label: string;
}

/** The guard's check, for this feature: every request passes it before a socket is opened. */
export type NodeGate = (url: string, carried: string) => EgressTicket;

export interface NodeTimeouts {
  /** Until the connection is open. */
  readonly connectMs: number;
  /** Until the server's first byte (the prompt is evaluated before it: long for a long prompt on a slow node). */
  readonly firstByteMs: number;
  /** Between two chunks of a streamed answer. */
  readonly idleMs: number;
}

export const DEFAULT_TIMEOUTS: NodeTimeouts = { connectMs: 10_000, firstByteMs: 300_000, idleMs: 60_000 };

/**
 * The most one answer may send: far above any reply a model writes under its token cap (a 32,000-token reply in
 * OpenAI's stream format is about 10 MB), so only a server that ignores the cap, or sends something else endlessly,
 * reaches it; what it sent is held in memory.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export interface NodeRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: unknown;
  /** What the request carries, for the ledger ("the conversation", "a check"). */
  readonly carried: string;
  readonly signal?: AbortSignal;
  readonly timeouts?: Partial<NodeTimeouts>;
  /** Default DEFAULT_MAX_ANSWER_BYTES. */
  readonly maxBytes?: number;
}

/**
 * A TLS connection to the node, its certificate's SHA-256 fingerprint read, and compared with the one pinned on first
 * use, before anything is written on it. A home server's certificate is usually its own: trust rests on the pin rather
 * than on a certificate authority (with no pin yet, the fingerprint is answered for the user to see and pin).
 */
async function pinnedConnection(
  node: NodeEndpoint,
  url: URL,
  connectMs: number,
  signal: AbortSignal | undefined,
): Promise<{ socket: TLSSocket; fingerprint: string }> {
  const where = `${node.label} (${origin(node.url)})`;
  const socket = tlsConnect({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || 443),
    ...(isIP(url.hostname) ? {} : { servername: url.hostname }),
    rejectUnauthorized: false,
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(remoteError('REMOTE_TIMEOUT', `${where} did not accept the connection within ${connectMs / 1000} s.`));
    }, connectMs);
    const onAbort = () => socket.destroy(Object.assign(new Error('aborted'), { code: 'ABORT_ERR' }));
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    socket.once('error', (error: NodeJS.ErrnoException) => {
      settle();
      reject(signal?.aborted ? (signal.reason ?? error) : socketError(node, error, false));
    });
    socket.once('secureConnect', () => {
      settle();
      const fingerprint = socket.getPeerCertificate().fingerprint256 ?? '';
      if (node.fingerprint && fingerprint !== node.fingerprint) {
        socket.destroy();
        reject(
          remoteError(
            'REMOTE_CERTIFICATE_CHANGED',
            `${where} shows another TLS certificate than the one pinned when it was added (pinned ${node.fingerprint}, now ${fingerprint || 'none'}). Nothing was sent. If the server's certificate was renewed, remove the node and add it again.`,
          ),
        );
        return;
      }
      resolve({ socket, fingerprint });
    });
  });
}

/** A response being read: its status, its body's chunks as they come, and the certificate the server showed. */
export interface NodeResponse {
  readonly status: number;
  readonly fingerprint: string | undefined;
  readonly chunks: AsyncIterable<string>;
}

export function remoteError(code: ErrorCode, message: string, cause?: unknown): HomebodyError {
  return new HomebodyError(code, message, cause === undefined ? undefined : { cause });
}

/** The error for a socket that failed, in words naming the node. */
function socketError(node: NodeEndpoint, error: NodeJS.ErrnoException, started: boolean): HomebodyError {
  const where = `${node.label} (${origin(node.url)})`;
  switch (error.code) {
    case 'ECONNREFUSED':
      return remoteError(
        'REMOTE_UNREACHABLE',
        `Homebody could not reach ${where}: nothing is listening there (connection refused). Check that the server is running and its address and port.`,
        error,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return remoteError('REMOTE_UNREACHABLE', `Homebody could not find ${where}: the name does not resolve.`, error);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return remoteError('REMOTE_UNREACHABLE', `Homebody could not reach ${where}: no route to that address.`, error);
    case 'ECONNRESET':
    case 'EPIPE':
      return remoteError(
        'REMOTE_DROPPED',
        started
          ? `The connection to ${where} was dropped in the middle of the reply. What arrived is kept; nothing is sent again by itself.`
          : `${where} closed the connection before answering.`,
        error,
      );
    default:
      return remoteError('REMOTE_UNREACHABLE', `Homebody could not talk to ${where}: ${error.message}.`, error);
  }
}

export function origin(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * Sends the request and answers its response once the headers came. The body's chunks then stream; reading them
 * past the end of a response that ended early throws REMOTE_DROPPED, and a stall of `idleMs` REMOTE_TIMEOUT. The
 * ticket's byte counts (up and down) are written to the ledger as they grow and when the response ends.
 */
export async function sendToNode(node: NodeEndpoint, gate: NodeGate, req: NodeRequest): Promise<NodeResponse> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...req.timeouts };
  const maxBytes = req.maxBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const url = new URL(req.path.replace(/^\//, ''), node.url.endsWith('/') ? node.url : `${node.url}/`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw remoteError(
      'INVALID_REQUEST',
      `A model on another computer is reached over http or https, not ${url.protocol}`,
    );
  }
  const ticket = gate(url.toString(), req.carried);
  const body = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
  const sent = body?.length ?? 0;
  let received = 0;
  const headers: Record<string, string> = { accept: 'application/json, text/event-stream' };
  if (body) headers['content-type'] = 'application/json';
  if (node.apiKey) headers.authorization = `Bearer ${node.apiKey}`;
  const https = url.protocol === 'https:';
  // Over https the certificate is checked on a connection of its own before the request is written on it.
  const pinned = https ? await pinnedConnection(node, url, timeouts.connectMs, req.signal) : undefined;
  const fingerprint = pinned?.fingerprint;
  const request = https
    ? httpsRequest(url, { method: req.method, headers, createConnection: () => pinned!.socket })
    : httpRequest(url, { method: req.method, headers });
  let failure: HomebodyError | undefined;
  const fail = (error: HomebodyError) => {
    failure ??= error;
    request.destroy(error);
  };
  const onAbort = () => request.destroy(Object.assign(new Error('aborted'), { code: 'ABORT_ERR' }));
  req.signal?.addEventListener('abort', onAbort, { once: true });
  const connectTimer = setTimeout(
    () =>
      fail(
        remoteError(
          'REMOTE_TIMEOUT',
          `${node.label} (${origin(node.url)}) did not accept the connection within ${timeouts.connectMs / 1000} s.`,
        ),
      ),
    timeouts.connectMs,
  );
  if (https) clearTimeout(connectTimer);
  else request.on('socket', (socket) => socket.once('connect', () => clearTimeout(connectTimer)));
  const firstByte = setTimeout(
    () =>
      fail(
        remoteError(
          'REMOTE_TIMEOUT',
          `${node.label} (${origin(node.url)}) did not answer within ${timeouts.firstByteMs / 1000} s.`,
        ),
      ),
    timeouts.firstByteMs,
  );
  const cleanup = () => {
    clearTimeout(connectTimer);
    clearTimeout(firstByte);
    req.signal?.removeEventListener('abort', onAbort);
  };
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request.on('response', resolve);
    request.on('error', (error: NodeJS.ErrnoException) => {
      cleanup();
      ticket.setBytes(received, true, sent);
      if (req.signal?.aborted) reject(req.signal.reason ?? error);
      else reject(failure ?? socketError(node, error, false));
    });
    request.end(body);
  }).catch((error: unknown) => {
    cleanup();
    throw error;
  });
  clearTimeout(firstByte);
  ticket.setBytes(0, false, sent);
  async function* chunks(): AsyncGenerator<string> {
    let idle: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(
        () =>
          fail(
            remoteError(
              'REMOTE_TIMEOUT',
              `${node.label} (${origin(node.url)}) stopped sending for ${timeouts.idleMs / 1000} s in the middle of the reply.`,
            ),
          ),
        timeouts.idleMs,
      );
    };
    response.setEncoding('utf8');
    try {
      arm();
      for await (const chunk of response as AsyncIterable<string>) {
        received += Buffer.byteLength(chunk);
        ticket.setBytes(received, false, sent);
        if (received > maxBytes) {
          throw remoteError(
            'REMOTE_BAD_REPLY',
            `${node.label} (${origin(node.url)}) sent more than ${Math.round(maxBytes / 1024 / 1024)} MB for one answer to ${req.path}, far more than any reply it was asked for. The reply was stopped.`,
          );
        }
        arm();
        yield chunk;
      }
      if (!response.complete) throw socketError(node, Object.assign(new Error('closed'), { code: 'ECONNRESET' }), true);
    } catch (error) {
      if (req.signal?.aborted) throw req.signal.reason ?? error;
      if (failure) throw failure;
      if (error instanceof HomebodyError) throw error;
      throw socketError(node, error as NodeJS.ErrnoException, true);
    } finally {
      clearTimeout(idle);
      cleanup();
      ticket.setBytes(received, true, sent);
      response.destroy();
    }
  }
  return { status: response.statusCode ?? 0, fingerprint, chunks: chunks() };
}

/** The whole body of a short answer, parsed as JSON; a status that is not 2xx is the server's refusal, in its words. */
export async function nodeJson(node: NodeEndpoint, gate: NodeGate, req: NodeRequest): Promise<unknown> {
  return (await nodeAnswer(node, gate, req)).body;
}

/** As nodeJson, with the certificate the server showed (over https) beside the parsed body. */
export async function nodeAnswer(
  node: NodeEndpoint,
  gate: NodeGate,
  req: NodeRequest,
): Promise<{ body: unknown; fingerprint: string | undefined }> {
  const response = await sendToNode(node, gate, req);
  let text = '';
  for await (const chunk of response.chunks) text += chunk;
  if (response.status < 200 || response.status >= 300) throw refusal(node, response.status, text);
  try {
    return { body: JSON.parse(text), fingerprint: response.fingerprint };
  } catch (error) {
    throw remoteError(
      'REMOTE_BAD_REPLY',
      `${node.label} (${origin(node.url)}) answered ${req.path} with something that is not JSON: ${quote(text)}`,
      error,
    );
  }
}

/** The error for a status that is not 2xx, with the server's own message where it gave one. */
export function refusal(node: NodeEndpoint, status: number, body: string): HomebodyError {
  let said = quote(body);
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string };
    const message = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message;
    if (typeof message === 'string') said = quote(message);
  } catch {
    // not JSON: quoted as it is
  }
  const where = `${node.label} (${origin(node.url)})`;
  if (status === 401 || status === 403) {
    return remoteError(
      'REMOTE_REFUSED',
      `${where} refused the API key (HTTP ${status}): ${said}. Check the key in the Models page.`,
    );
  }
  return remoteError('REMOTE_REFUSED', `${where} answered HTTP ${status}: ${said}`);
}

/** A server's text, short enough for a sentence. */
export function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat === '' ? '(nothing)' : `"${flat.length > 160 ? `${flat.slice(0, 160)}…` : flat}"`;
}

/**
 * The events of a server-sent event stream (`data: …` lines, a blank line after each), as their data. A line that is
 * not an event (a server answering something else) is handed on as it is, so the caller can say what came.
 */
export async function* serverSentData(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let buffer = '';
  for await (const chunk of chunks) {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (line === '' || line.startsWith(':') || line.startsWith('event:') || line.startsWith('id:')) continue;
      yield line.startsWith('data:') ? line.slice(5).replace(/^ /, '') : line;
    }
  }
  if (buffer.trim() !== '') yield buffer.startsWith('data:') ? buffer.slice(5).replace(/^ /, '') : buffer;
}
