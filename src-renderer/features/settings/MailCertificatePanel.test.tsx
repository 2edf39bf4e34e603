// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CertificateCheck, PackSettingsView, TrustedCertificate } from '../../../src-shared/contract/index.js';
import { ApiCallError } from '../../bridge/apiError.js';
import { fakeHost, type FakeAnswers } from '../../testing/fakeHost.js';
import { renderWithStore } from '../../testing/renderWithStore.js';
import { PackSettingsSection } from './PackSettingsSection.js';

const SHA = Array.from({ length: 32 }, (_, i) => (i * 7).toString(16).padStart(2, '0').toUpperCase()).join(':');
const OTHER_SHA = SHA.replace(/^..:/, 'FF:');

const CERTIFICATE = {
  subject: 'CN=mail.home.lan',
  issuer: 'CN=mail.home.lan',
  altNames: 'DNS:mail.home.lan',
  validFrom: '2026-01-01T00:00:00.000Z',
  validTo: '2036-01-01T00:00:00.000Z',
  sha256: SHA,
};

const VIEW: PackSettingsView = {
  calendarDir: '',
  contactsDir: '',
  notesDir: '',
  mailDir: '',
  mailSource: { kind: 'imap' },
  smtp: null,
  imap: { host: 'mail.home.lan', port: 993, secure: true, user: 'me' },
  searchEndpoint: null,
  timeZone: 'Europe/Lisbon',
  resolved: { calendarDir: '/d/calendar', contactsDir: '/d/contacts', notesDir: '/d/notes', mailDir: '/d/mail' },
  smtpPasswordSet: false,
  imapPasswordSet: true,
  trustedCertificates: { imap: null, smtp: null },
};

const CHECKED: CertificateCheck = {
  account: 'imap',
  host: 'mail.home.lan',
  port: 993,
  certificate: CERTIFICATE,
  trust: 'untrusted',
  problem: 'self-signed certificate',
};

const PINNED: TrustedCertificate = { ...CERTIFICATE, host: 'mail.home.lan', port: 993 };

function render(answers: FakeAnswers = {}) {
  let view = VIEW;
  const host = fakeHost({
    'packs.settings': () => view,
    'packs.checkCertificate': () => CHECKED,
    'packs.trustCertificate': ({ sha256 }) => {
      view = { ...view, trustedCertificates: { ...view.trustedCertificates, imap: sha256 ? PINNED : null } };
      return view;
    },
    ...answers,
  });
  return { ...renderWithStore(<PackSettingsSection />, host), host };
}

describe("a mail server's certificate in Settings", () => {
  it('shows what the server presents, then trusts exactly that fingerprint for that server', async () => {
    const { host, user } = render();
    await user.click(await screen.findByTestId('pack-imap-certificate-check'));
    const result = await screen.findByTestId('pack-imap-certificate-result');
    expect(result.dataset.trust).toBe('untrusted');
    expect(result.textContent).toContain('mail.home.lan:993');
    expect(result.textContent).toContain('self-signed certificate');
    expect(result.textContent).toContain(SHA);
    expect(result.textContent).toContain('CN=mail.home.lan');
    expect(host.requestsTo('packs.trustCertificate')).toEqual([]);

    await user.click(screen.getByTestId('pack-imap-certificate-trust'));
    expect(host.requestsTo('packs.trustCertificate')).toEqual([{ account: 'imap', sha256: SHA }]);
    expect((await screen.findByTestId('pack-imap-certificate-trusted')).textContent).toContain(SHA);
    expect(screen.getByTestId('pack-imap-certificate-result').dataset.trust).toBe('pinned');
    expect(screen.queryByTestId('pack-imap-certificate-trust')).toBeNull();

    await user.click(screen.getByTestId('pack-imap-certificate-untrust'));
    expect(host.requestsTo('packs.trustCertificate')).toEqual([
      { account: 'imap', sha256: SHA },
      { account: 'imap', sha256: null },
    ]);
    await waitFor(() => expect(screen.queryByTestId('pack-imap-certificate-trusted')).toBeNull());
  });

  it('offers no trust for a certificate the computer already trusts', async () => {
    const { user } = render({ 'packs.checkCertificate': () => ({ ...CHECKED, trust: 'system', problem: null }) });
    await user.click(await screen.findByTestId('pack-imap-certificate-check'));
    expect((await screen.findByTestId('pack-imap-certificate-result')).dataset.trust).toBe('system');
    expect(screen.queryByTestId('pack-imap-certificate-trust')).toBeNull();
  });

  it('checks only the saved server: a host typed but not saved disables the check', async () => {
    const { host, user } = render();
    const check = await screen.findByTestId<HTMLButtonElement>('pack-imap-certificate-check');
    await user.type(screen.getByTestId('pack-imap-host'), 'x');
    expect(check.disabled).toBe(true);
    await user.click(check);
    expect(host.requestsTo('packs.checkCertificate')).toEqual([]);
  });

  it("shows the Host's refusal in place and keeps the certificate untrusted", async () => {
    const { user } = render({
      'packs.trustCertificate': () => {
        throw new ApiCallError(
          'INVALID_REQUEST',
          `The IMAP server's certificate is ${OTHER_SHA}, not ${SHA}: check it again and trust the one you are shown.`,
        );
      },
    });
    await user.click(await screen.findByTestId('pack-imap-certificate-check'));
    await user.click(await screen.findByTestId('pack-imap-certificate-trust'));
    expect((await screen.findByTestId('pack-imap-certificate-error')).textContent).toContain('check it again');
    expect(screen.queryByTestId('pack-imap-certificate-trusted')).toBeNull();
    expect(screen.getByTestId('pack-imap-certificate-result').dataset.trust).toBe('untrusted');
  });
});
