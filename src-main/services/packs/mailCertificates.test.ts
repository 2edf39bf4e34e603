import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretStore } from '../../privacy/secretStore.js';
import { openStore } from '../../store/store.js';
import type { ProbeTarget } from '../../tools/builtin/mail/certificateProbe.js';
import { MailCertificates } from './mailCertificates.js';
import { PackSettingsService } from './packSettingsService.js';

const SHA = (byte: string) => Array.from({ length: 32 }, () => byte).join(':');
const CERT = {
  subject: 'CN=mail.home.test',
  issuer: 'CN=mail.home.test',
  altNames: 'DNS:mail.home.test',
  validFrom: '2026-12-01T00:00:00.000Z',
  validTo: '2026-12-03T00:00:00.000Z',
  sha256: SHA('AB'),
};

function setup() {
  const dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'hb-certs-')));
  const store = openStore(':memory:');
  const settings = new PackSettingsService({
    settings: store.settings,
    secrets: new SecretStore({ dataDir, notice: () => undefined }),
    dataDir,
    offline: () => false,
  });
  const asked: string[] = [];
  const probes: ProbeTarget[] = [];
  let shown = CERT;
  const certificates = new MailCertificates({
    settings,
    egress: (url, feature, source) => asked.push(`${feature} ${url} ${source}`),
    probe: async (target) => {
      probes.push(target);
      return {
        check: { host: target.host, port: target.port, certificate: shown, trust: 'untrusted', problem: 'self-signed' },
        pem: `PEM of ${shown.sha256}`,
      };
    },
  });
  return { settings, certificates, asked, probes, show: (sha: string) => (shown = { ...CERT, sha256: sha }) };
}

const IMAP = { host: '192.168.1.5', port: 993, secure: true, user: 'me' };

describe('MailCertificates', () => {
  it('checks through the egress guard, trusts only the certificate shown, and hands the pin to the tools', async () => {
    const { settings, certificates, asked, probes, show } = setup();
    await expect(certificates.check('imap')).rejects.toThrow(/Set up and save the IMAP server first/);
    settings.set({ imap: IMAP, imapPassword: 'pw' });
    expect(() => certificates.trust('imap', CERT.sha256)).toThrow(/check the IMAP server's certificate first/i);
    expect(await certificates.check('imap')).toMatchObject({ account: 'imap', certificate: CERT, trust: 'untrusted' });
    expect(asked).toEqual(["mail imaps://192.168.1.5:993 settings (check the IMAP server's certificate)"]);
    expect(() => certificates.trust('imap', SHA('CD'))).toThrow(/is AB:AB.*not CD:CD/);
    const view = certificates.trust('imap', CERT.sha256);
    expect(view.trustedCertificates).toEqual({ imap: { ...CERT, host: IMAP.host, port: IMAP.port }, smtp: null });
    expect(JSON.stringify(view)).not.toContain('PEM of');
    expect(settings.config().imap).toMatchObject({ pinned: { sha256: CERT.sha256, pem: `PEM of ${CERT.sha256}` } });
    // The next check shows whether the server still has it: the probe knows the pin.
    show(SHA('CD'));
    await certificates.check('imap');
    expect(probes.at(-1)?.pinned?.sha256).toBe(CERT.sha256);
    // The server's new certificate, once shown, may be trusted instead; a server moved elsewhere drops the pin.
    certificates.trust('imap', SHA('CD'));
    expect(settings.config().imap?.pinned?.sha256).toBe(SHA('CD'));
    settings.set({ imap: { ...IMAP, host: '192.168.1.6' } });
    expect(settings.view().trustedCertificates.imap).toBeNull();
    expect(settings.config().imap).not.toHaveProperty('pinned');
    expect(settings.set({ imap: IMAP }).trustedCertificates.imap).toBeNull();
    expect(certificates.trust('imap', null).trustedCertificates.imap).toBeNull();
  });
});
