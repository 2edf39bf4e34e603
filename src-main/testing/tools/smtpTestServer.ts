/**
 * A real SMTP server on 127.0.0.1 for tests (smtp-server): it checks a login, can refuse recipients, and keeps
 * every message it accepted with its envelope, and counts the connections made to it.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  readonly from: string;
  readonly to: string[];
  readonly raw: Buffer;
}

export interface SmtpTestServer {
  readonly port: number;
  readonly received: ReceivedMail[];
  /** Connections opened to the server, accepted or not. */
  connections(): number;
  close(): Promise<void>;
}

export async function startSmtpTestServer(options: {
  user: string;
  password: string;
  /** Recipients at this domain are refused with 550. */
  refuseDomain?: string;
}): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = [];
  let connections = 0;
  const server = new SMTPServer({
    // Loopback in a test: no TLS, so the login goes in the clear (allowed only here).
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onAuth(auth, _session, callback) {
      if (auth.username === options.user && auth.password === options.password) callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (options.refuseDomain && address.address.endsWith(`@${options.refuseDomain}`))
        callback(Object.assign(new Error(`No such user here: ${address.address}`), { responseCode: 550 }));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((a) => a.address),
          raw: Buffer.concat(chunks),
        });
        callback(null, 'Queued as test-1');
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
