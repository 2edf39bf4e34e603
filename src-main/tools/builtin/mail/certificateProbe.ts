/**
 * Looks at a mail server's TLS certificate so the user can see it (Settings) before trusting it: connects, upgrades
 * with STARTTLS where the account does, takes the certificate from the handshake, and closes. It sends no user name,
 * no password and no command past STARTTLS, and reads no mail: the handshake accepts any certificate only so that
 * one that would be refused can be shown, and the verdict this computer's TLS layer reached is reported with it.
 * The connections that log in never accept a certificate so (serverTls.ts).
 */
import { X509Certificate } from 'node:crypto';
import net from 'node:net';
import tls, { type PeerCertificate, type TLSSocket } from 'node:tls';
import type { CertificateCheck, ServerCertificate } from '../../../../src-shared/contract/index.js';
import type { PinnedCertificate } from '../../toolTypes.js';
import { certificateProblem } from './serverTls.js';

const TIMEOUT_MS = 10_000;

export interface ProbeTarget {
  readonly protocol: 'imap' | 'smtp';
  readonly host: string;
  readonly port: number;
  /** TLS from the first byte; otherwise STARTTLS (when the server offers it). */
  readonly secure: boolean;
  readonly pinned?: PinnedCertificate | undefined;
}

/** What a probe saw: the check as the user is shown it, and the certificate itself (to pin it if the user says so). */
export interface ProbeResult {
  readonly check: Omit<CertificateCheck, 'account'>;
  readonly pem: string | null;
}

function names(fields: Record<string, string | string[] | undefined> | undefined): string {
  if (!fields) return '';
  return Object.entries(fields)
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : value}`)
    .join(', ');
}

export function describeCertificate(cert: PeerCertificate): { certificate: ServerCertificate; pem: string } {
  const x509 = new X509Certificate(cert.raw);
  return {
    certificate: {
      subject: names(cert.subject as unknown as Record<string, string>),
      issuer: names(cert.issuer as unknown as Record<string, string>),
      altNames: cert.subjectaltname ?? '',
      validFrom: new Date(x509.validFrom).toISOString(),
      validTo: new Date(x509.validTo).toISOString(),
      sha256: x509.fingerprint256,
    },
    pem: x509.toString(),
  };
}

/** Reads lines from a plain socket until `done` says the reply is complete; answers the reply's lines. */
function readReply(socket: net.Socket, done: (line: string) => boolean): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const lines: string[] = [];
    const onData = (data: Buffer) => {
      buffered += data.toString('latin1');
      let end: number;
      while ((end = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, end).replace(/\r$/, '');
        buffered = buffered.slice(end + 1);
        lines.push(line);
        if (done(line)) {
          cleanup();
          resolve(lines);
          return;
        }
      }
      if (buffered.length > 64 * 1024) fail(new Error('the server sent a reply too long to be a greeting'));
    };
    const onEnd = () => fail(new Error('the server closed the connection'));
    const fail = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('error', fail);
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', fail);
  });
}

/** The STARTTLS exchange of each protocol, on a connected plain socket; false when the server offers no TLS. */
async function startTls(socket: net.Socket, protocol: 'imap' | 'smtp'): Promise<boolean> {
  if (protocol === 'imap') {
    const greeting = await readReply(socket, () => true);
    if (!/^\* (OK|PREAUTH)/i.test(greeting[0] ?? '')) throw new Error(`unexpected greeting: ${greeting[0]}`);
    socket.write('hb1 CAPABILITY\r\n');
    const caps = await readReply(socket, (line) => line.startsWith('hb1 '));
    if (!caps.some((line) => /\bSTARTTLS\b/i.test(line)) && !/\bSTARTTLS\b/i.test(greeting[0] ?? '')) return false;
    socket.write('hb2 STARTTLS\r\n');
    const reply = await readReply(socket, (line) => line.startsWith('hb2 '));
    return /^hb2 OK/i.test(reply.at(-1) ?? '');
  }
  // SMTP: a reply is complete on its line "NNN text" (a dash after the code means more lines follow).
  const complete = (line: string) => /^\d{3}(?!-)/.test(line);
  const greeting = await readReply(socket, complete);
  if (!/^220/.test(greeting.at(-1) ?? '')) throw new Error(`unexpected greeting: ${greeting.at(-1)}`);
  socket.write('EHLO homebody.invalid\r\n');
  const ehlo = await readReply(socket, complete);
  if (!ehlo.some((line) => /^250[ -]STARTTLS\b/i.test(line))) return false;
  socket.write('STARTTLS\r\n');
  const reply = await readReply(socket, complete);
  return /^220/.test(reply.at(-1) ?? '');
}

function handshake(options: tls.ConnectionOptions): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect(options, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Connects to `target` only to see its certificate; never throws for the server's sake (the check says why). */
export async function probeCertificate(target: ProbeTarget): Promise<ProbeResult> {
  const { host, port } = target;
  const unavailable = (problem: string): ProbeResult => ({
    check: { host, port, certificate: null, trust: 'unavailable', problem },
    pem: null,
  });
  let plain: net.Socket | undefined;
  let secured: TLSSocket | undefined;
  const timer = setTimeout(() => {
    plain?.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`));
    secured?.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`));
  }, TIMEOUT_MS);
  try {
    const servername = net.isIP(host) ? undefined : host;
    // rejectUnauthorized: false only so that a certificate this computer refuses can still be shown; nothing but
    // the handshake happens on this connection, and its verdict (authorized, authorizationError) is reported.
    const tlsOptions = { host, port, ...(servername ? { servername } : {}), rejectUnauthorized: false };
    if (target.secure) {
      secured = await handshake(tlsOptions);
    } else {
      plain = net.connect({ host, port });
      await new Promise<void>((resolve, reject) => {
        plain!.once('connect', resolve);
        plain!.once('error', reject);
      });
      if (!(await startTls(plain, target.protocol))) {
        return unavailable(
          `The server offers no TLS (no STARTTLS) on port ${port}: mail to and from it is not encrypted. ` +
            'Use its TLS port if it has one.',
        );
      }
      secured = await handshake({ ...tlsOptions, socket: plain });
    }
    const peer = secured.getPeerCertificate();
    if (!peer || !peer.raw) return unavailable('The server showed no certificate.');
    const { certificate, pem } = describeCertificate(peer);
    const check = (trust: CertificateCheck['trust'], problem: string | null): ProbeResult => ({
      check: { host, port, certificate, trust, problem },
      pem,
    });
    if (target.pinned) {
      return certificate.sha256 === target.pinned.sha256
        ? check('pinned', null)
        : check(
            'untrusted',
            `This is not the certificate you trusted for this account (trusted: SHA-256 ${target.pinned.sha256}).`,
          );
    }
    if (secured.authorized) return check('system', null);
    const code = String(secured.authorizationError ?? '');
    return check('untrusted', `This computer does not trust it: ${certificateProblem(code) ?? code}.`);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return unavailable(`Could not reach ${host}:${port}: ${e.code ? `${e.code} ` : ''}${e.message}`.trim());
  } finally {
    clearTimeout(timer);
    secured?.destroy();
    plain?.destroy();
  }
}
