/**
 * TLS for the mail servers. By default a server's certificate must be one this computer's certificate authorities
 * vouch for, for the server's name. The user may instead trust one exact certificate for an account (after seeing
 * it in Settings): then the TLS layer itself accepts that certificate as the only trust anchor and checks its
 * fingerprint during the handshake, so a different certificate is refused before anything is sent. Verification is
 * never turned off.
 */
import type { ConnectionOptions, PeerCertificate } from 'node:tls';
import type { PinnedCertificate } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';

/** The error a pinned connection fails with when the server shows another certificate. */
export const PIN_MISMATCH = 'CERT_NOT_THE_TRUSTED_ONE';

/** What the mail clients (imapflow, nodemailer) pass to tls.connect for one account. */
export function tlsOptions(pinned: PinnedCertificate | undefined): ConnectionOptions {
  if (!pinned) return {};
  return {
    // The trusted certificate is the only anchor: a self-signed one verifies, and so does a CA-issued one whose
    // issuer this computer does not know (allowPartialTrustChain, Node 20.18+), and nothing else does.
    ca: [pinned.pem],
    allowPartialTrustChain: true,
    // Called by the TLS layer once the chain verified: the name check is replaced by the exact fingerprint, since
    // the user trusted this certificate for this account (a home server reached by its address, say).
    checkServerIdentity: (_host: string, cert: PeerCertificate) => {
      if (cert.fingerprint256 === pinned.sha256) return undefined;
      const error = new Error(`The server's certificate (SHA-256 ${cert.fingerprint256}) is not the one trusted.`);
      (error as NodeJS.ErrnoException).code = PIN_MISMATCH;
      return error;
    },
  } as ConnectionOptions;
}

/** OpenSSL's and Node's codes for a certificate that was refused, in words. */
const CERTIFICATE_PROBLEMS: Readonly<Record<string, string>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'it was issued by a certificate authority this computer does not know (self-signed)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its issuer is not known to this computer',
  UNABLE_TO_GET_ISSUER_CERT: 'its issuer is not known to this computer',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its issuer is not known to this computer',
  CERT_HAS_EXPIRED: 'it has expired',
  CERT_NOT_YET_VALID: 'it is not valid yet',
  CERT_REVOKED: 'it was revoked',
  CERT_SIGNATURE_FAILURE: 'its signature is not valid',
  CERT_UNTRUSTED: 'it is not trusted',
  INVALID_CA: 'its issuer is not a certificate authority',
  ERR_TLS_CERT_ALTNAME_INVALID: 'it is for another name',
  HOSTNAME_MISMATCH: 'it is for another name',
};

/** The problem with a certificate, in words, from the code the TLS layer gave; undefined when it is no such code. */
export function certificateProblem(code: string | undefined): string | undefined {
  if (code === undefined) return undefined;
  if (code === PIN_MISMATCH) return 'it is not the certificate you trusted for this account';
  return CERTIFICATE_PROBLEMS[code];
}

/** The certificate error somewhere in what a mail library threw (they wrap it, or keep its code). */
function certificateCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === 'string' && certificateProblem(e.code)) return e.code;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string') {
      const named = Object.keys(CERTIFICATE_PROBLEMS).find((code) => message.includes(code));
      if (named) return named;
      if (/self[- ]signed certificate/i.test(message)) return 'DEPTH_ZERO_SELF_SIGNED_CERT';
      if (message.includes('is not the one trusted')) return PIN_MISMATCH;
    }
    e = e.cause as typeof e;
  }
  return undefined;
}

/**
 * A refused certificate as a ToolError the user can act on: what was wrong, that nothing was sent, and where to look
 * at the certificate and trust it. Undefined when `err` is not about the certificate.
 */
export function certificateError(
  err: unknown,
  server: { kind: 'IMAP' | 'SMTP'; host: string; pinned?: PinnedCertificate | undefined },
): ToolError | undefined {
  const code = certificateCode(err);
  if (!code) return undefined;
  const where = `Settings › Tool packs › Mail, "Check the certificate" for the ${server.kind} server`;
  if (server.pinned) {
    return new ToolError(
      'REMOTE_ERROR',
      `The ${server.kind} server ${server.host} presented a certificate that is not the one you trusted for this ` +
        `account (trusted: SHA-256 ${server.pinned.sha256}); nothing was sent to it. If the server's certificate ` +
        `really changed, look at the new one in ${where} and trust it there.`,
    );
  }
  return new ToolError(
    'REMOTE_ERROR',
    `The ${server.kind} server ${server.host} presented a certificate this computer does not trust ` +
      `(${certificateProblem(code)}); nothing was sent to it. If it is your own server, look at its certificate in ` +
      `${where} and trust it there.`,
  );
}
