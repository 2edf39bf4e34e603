import {
  HomebodyError,
  type CertificateCheck,
  type EgressFeature,
  type MailAccount,
  type PackSettingsView,
  type ServerCertificate,
} from '../../../src-shared/contract/index.js';
import { probeCertificate, type ProbeTarget, type ProbeResult } from '../../tools/builtin/mail/certificateProbe.js';
import type { PackSettingsService } from './packSettingsService.js';

const LABEL: Readonly<Record<MailAccount, string>> = { imap: 'IMAP', smtp: 'SMTP' };

/** What a check showed the user: the only certificate that may be trusted next for that account. */
interface Shown {
  readonly host: string;
  readonly port: number;
  readonly certificate: ServerCertificate;
  readonly pem: string;
}

/**
 * Trusting a mail server's certificate by its fingerprint, shown to the user first: `check` connects to the saved
 * account's server (through the egress guard) and shows its certificate; `trust` then pins exactly that certificate
 * for that account. The pin is checked by the TLS layer of every later connection (serverTls.ts), not here.
 */
export class MailCertificates {
  private readonly shown = new Map<MailAccount, Shown>();

  constructor(
    private readonly deps: {
      readonly settings: PackSettingsService;
      /** The egress guard's check: throws NETWORK_BLOCKED (and records the refusal) when the server may not be reached. */
      readonly egress: (url: string, feature: EgressFeature, source: string) => unknown;
      readonly probe?: (target: ProbeTarget) => Promise<ProbeResult>;
    },
  ) {}

  async check(account: MailAccount): Promise<CertificateCheck> {
    const server = this.deps.settings.config()[account];
    if (!server) {
      throw new HomebodyError('INVALID_REQUEST', `Set up and save the ${LABEL[account]} server first, then check it.`);
    }
    const scheme = `${account}${server.secure ? 's' : ''}`;
    this.deps.egress(
      `${scheme}://${server.host}:${server.port}`,
      'mail',
      `settings (check the ${LABEL[account]} server's certificate)`,
    );
    const result = await (this.deps.probe ?? probeCertificate)({
      protocol: account,
      host: server.host,
      port: server.port,
      secure: server.secure,
      pinned: server.pinned,
    });
    const { certificate } = result.check;
    if (certificate && result.pem) {
      this.shown.set(account, { host: server.host, port: server.port, certificate, pem: result.pem });
    } else this.shown.delete(account);
    return { account, ...result.check };
  }

  trust(account: MailAccount, sha256: string | null): PackSettingsView {
    if (sha256 === null) {
      this.deps.settings.setTrustedCertificate(account, null);
      return this.deps.settings.view();
    }
    const server = this.deps.settings.current()[account];
    const shown = this.shown.get(account);
    if (!server || !shown || shown.host !== server.host || shown.port !== server.port) {
      throw new HomebodyError(
        'INVALID_REQUEST',
        `Check the ${LABEL[account]} server's certificate first: only a certificate you were shown for this server can be trusted.`,
      );
    }
    if (shown.certificate.sha256 !== sha256) {
      throw new HomebodyError(
        'INVALID_REQUEST',
        `The ${LABEL[account]} server's certificate is ${shown.certificate.sha256}, not ${sha256}: check it again and ` +
          'trust the one you are shown.',
      );
    }
    this.deps.settings.setTrustedCertificate(account, {
      ...shown.certificate,
      host: shown.host,
      port: shown.port,
      pem: shown.pem,
    });
    return this.deps.settings.view();
  }
}
