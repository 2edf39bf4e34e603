import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request the test server answered. */
export interface ServedRequest {
  readonly method: string;
  readonly path: string;
  /** The Range header, if any ("bytes=0-99"). */
  readonly range: string | null;
  /** Body bytes written to the socket for it (counted as written, so a cut request counts what went out). */
  bytes: number;
  /** The server cut this response on purpose. */
  cut: boolean;
}

export interface ModelServerOptions {
  /** Cut (destroy the socket of) the first ranged GET after this many body bytes: a dropped connection. */
  readonly cutFirstRangeAfterBytes?: number;
  /** Answer 404 for every request. */
  readonly notFound?: boolean;
  /** Answer ranged requests with this status (403: a signed URL that expired mid-download). */
  readonly refuseRangesWith?: number;
}

/**
 * A local HTTP server on 127.0.0.1 that serves one file at any path ending in its name (so both a plain URL and a
 * Hugging Face style `/owner/repo/resolve/main/<name>` work), with Range support like a real file host. It counts
 * the bytes it sends, can cut a connection halfway, and can hold (stall) ranged responses until released.
 */
export class ModelServer {
  readonly requests: ServedRequest[] = [];
  private readonly server = createServer((req, res) => this.handle(req, res));
  private readonly sockets = new Set<Socket>();
  private readonly data: Buffer;
  private cutDone = false;
  private stallAt: number | null = null;
  private stallWaiters: Array<() => void> = [];
  private rangedSent = 0;
  private holdOffset: number | null = null;
  private holdWaiters: Array<() => void> = [];
  /** Ranged responses waiting at the hold offset now. */
  held = 0;

  private constructor(
    private readonly filePath: string,
    readonly fileName: string,
    private readonly options: ModelServerOptions,
  ) {
    this.data = readFileSync(filePath);
  }

  static async start(filePath: string, fileName: string, options: ModelServerOptions = {}): Promise<ModelServer> {
    const server = new ModelServer(filePath, fileName, options);
    server.server.on('connection', (socket) => {
      server.sockets.add(socket);
      socket.on('close', () => server.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.server.listen(0, '127.0.0.1', resolve));
    return server;
  }

  get size(): number {
    return this.data.length;
  }

  get origin(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** A plain URL of the file. */
  get url(): string {
    return `${this.origin}/download/files/${this.fileName}`;
  }

  /** Total body bytes sent in ranged responses (the part of the file actually fetched by the download streams). */
  get rangedBytes(): number {
    return this.requests.filter((r) => r.range !== null).reduce((sum, r) => sum + r.bytes, 0);
  }

  /** From now on, ranged responses stop sending once `bytes` more ranged bytes in all went out, until `release`. */
  stallAfter(bytes: number): void {
    this.stallAt = this.rangedSent + bytes;
  }

  /**
   * Every ranged response whose range crosses file offset `offset` sends up to it and waits there until `release`
   * (the other ranges go on): a transfer held halfway, whatever ranges the client splits the file into.
   */
  holdAt(offset: number): void {
    this.holdOffset = offset;
  }

  release(): void {
    this.stallAt = null;
    this.holdOffset = null;
    const waiters = [...this.stallWaiters, ...this.holdWaiters];
    this.stallWaiters = [];
    this.holdWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Forgets the requests counted so far (e.g. at a simulated restart). */
  resetCounts(): void {
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    this.release();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', this.origin).pathname;
    const range = req.headers.range ?? null;
    const record: ServedRequest = { method: req.method ?? 'GET', path, range, bytes: 0, cut: false };
    this.requests.push(record);
    if (this.options.notFound || !decodeURIComponent(path).endsWith(`/${this.fileName}`)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (range && this.options.refuseRangesWith) {
      res.writeHead(this.options.refuseRangesWith, { 'content-type': 'text/plain' }).end('refused');
      return;
    }
    const size = this.data.length;
    let start = 0;
    let end = size - 1;
    let status = 200;
    if (range) {
      const match = /^bytes=(\d*)-(\d*)$/.exec(range);
      if (!match || (match[1] === '' && match[2] === '')) {
        res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
        return;
      }
      if (match[1] === '') {
        start = Math.max(0, size - Number(match[2]));
      } else {
        start = Number(match[1]);
        if (match[2] !== '') end = Math.min(Number(match[2]), size - 1);
      }
      if (start > end || start >= size) {
        res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
        return;
      }
      status = 206;
    }
    const headers: Record<string, string | number> = {
      'accept-ranges': 'bytes',
      'content-type': 'application/octet-stream',
      'content-length': end - start + 1,
    };
    if (status === 206) headers['content-range'] = `bytes ${start}-${end}/${size}`;
    res.writeHead(status, headers);
    // Headers go out at once, as a file host sends them, even while the body is held back.
    res.flushHeaders();
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const cutAfter =
      range !== null && !this.cutDone && this.options.cutFirstRangeAfterBytes !== undefined
        ? this.options.cutFirstRangeAfterBytes
        : null;
    if (cutAfter !== null) this.cutDone = true;
    void this.send(res, record, start, end + 1, cutAfter);
  }

  /** Writes [from, to) in 64 KiB pieces, honouring backpressure, the stall and the cut. */
  private async send(res: ServerResponse, record: ServedRequest, from: number, to: number, cutAfter: number | null) {
    const piece = 64 * 1024;
    let position = from;
    while (position < to) {
      if (res.destroyed) return;
      if (record.range !== null) {
        while (this.stallAt !== null && this.rangedSent >= this.stallAt) {
          await new Promise<void>((resolve) => this.stallWaiters.push(resolve));
          if (res.destroyed) return;
        }
      }
      if (record.range !== null && this.holdOffset !== null && position === this.holdOffset) {
        this.held++;
        await new Promise<void>((resolve) => this.holdWaiters.push(resolve));
        this.held--;
        if (res.destroyed) return;
      }
      let length = Math.min(piece, to - position);
      if (record.range !== null && this.holdOffset !== null && position < this.holdOffset) {
        length = Math.min(length, this.holdOffset - position);
      }
      if (cutAfter !== null) length = Math.min(length, cutAfter - record.bytes);
      if (record.range !== null && this.stallAt !== null) length = Math.min(length, this.stallAt - this.rangedSent);
      if (length > 0) {
        const chunk = this.data.subarray(position, position + length);
        position += length;
        record.bytes += length;
        if (record.range !== null) this.rangedSent += length;
        if (!res.write(chunk)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              res.off('drain', done);
              res.off('close', done);
              resolve();
            };
            res.on('drain', done);
            res.on('close', done);
          });
        }
      }
      if (cutAfter !== null && record.bytes >= cutAfter) {
        record.cut = true;
        res.socket?.destroy();
        return;
      }
    }
    res.end();
  }

  /** The file's path on disk (what is served). */
  get path(): string {
    return this.filePath;
  }
}
