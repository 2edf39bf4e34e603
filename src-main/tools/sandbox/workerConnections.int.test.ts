import { once } from 'node:events';
import { createServer, connect, type AddressInfo, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WorkerConnections, type ConnectionReport } from './workerConnections.js';

let server: Server;
let bytes = 0;
const port = () => (server.address() as AddressInfo).port;

beforeAll(async () => {
  server = createServer((socket) => socket.on('data', (d: Buffer) => (bytes += d.length)).on('error', () => {}));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
});
afterAll(() => server.close());

let watcher: WorkerConnections | undefined;
afterEach(() => watcher?.dispose());

function setup() {
  const reports: Array<{ callId: string; report: ConnectionReport }> = [];
  watcher = new WorkerConnections((callId, report) => reports.push({ callId, report }));
  watcher.start();
  return { watcher, reports };
}

/** Connects and writes; answers 'sent' or the error code the socket ended with. */
const send = (host = '127.0.0.1') =>
  new Promise<string>((resolve) => {
    const socket = connect(port(), host, () => socket.write('hello', () => resolve('sent')));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  }).then((outcome) => outcome);

describe('WorkerConnections (the tool worker side of the ledger)', () => {
  it('lets a call reach what the guard allowed for it, by host and port, and reports nothing', async () => {
    const { watcher, reports } = setup();
    const outcome = await watcher.run('call-1', async () => {
      watcher.grant('call-1', `http://127.0.0.1:${port()}/page`);
      return send();
    });
    expect(outcome).toBe('sent');
    expect(reports).toEqual([]);
    await vi.waitFor(() => expect(bytes).toBe(5));
  });

  it('closes any other connection before it sends a byte, and reports it for the call that opened it', async () => {
    const { watcher, reports } = setup();
    const before = bytes;
    const outcome = await watcher.run('call-2', async () => {
      // Allowed elsewhere (another port), not here.
      watcher.grant('call-2', 'smtp://127.0.0.1:1');
      return send();
    });
    expect(outcome).toBe('NETWORK_BLOCKED');
    expect(reports).toEqual([
      {
        callId: 'call-2',
        report: {
          kind: 'connection',
          host: '127.0.0.1',
          port: port(),
          route: 'net socket',
          url: `tcp://127.0.0.1:${port()}`,
          allowed: false,
          reason: `The tool opened a connection to 127.0.0.1:${port()} that the egress guard had not allowed for it; it was closed.`,
        },
      },
    ]);
    // A grant ends with its call.
    expect(await watcher.run('call-3', () => send())).toBe('NETWORK_BLOCKED');
    expect(reports.at(-1)?.callId).toBe('call-3');
    expect(bytes).toBe(before);
  });
});
