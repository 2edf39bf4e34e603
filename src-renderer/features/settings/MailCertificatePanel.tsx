import { useState } from 'react';
import type {
  AppError,
  CertificateCheck,
  MailAccount,
  ServerCertificate,
  TrustedCertificate,
} from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { useAppStore } from '../../store/StoreContext.js';

const TRUST_TEXT: Readonly<Record<CertificateCheck['trust'], string>> = {
  system: 'Trusted by this computer: a certificate authority it knows signed it.',
  pinned: 'Trusted because you trusted this exact certificate for this server.',
  untrusted: 'Not trusted: no certificate authority this computer knows signed it, and you have not trusted it.',
  unavailable: 'No certificate was seen.',
};

/**
 * A saved mail server's TLS certificate: "Check" connects to the server (asking the network guard) and shows what it
 * presents; a certificate no known authority signed can then be trusted by its fingerprint, exactly that one, for
 * this host and port only. The Host refuses to trust anything it did not just show (packs.trustCertificate).
 */
export function MailCertificatePanel(props: {
  account: MailAccount;
  trusted: TrustedCertificate | null;
  /** The form differs from what is saved: the check would reach the saved server, not the one typed. */
  unsaved: boolean;
}) {
  const { account, trusted } = props;
  const check = useAppStore((s) => s.checkMailCertificate);
  const trust = useAppStore((s) => s.trustMailCertificate);
  const [checked, setChecked] = useState<CertificateCheck | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const [busy, setBusy] = useState(false);
  const label = account.toUpperCase();
  const testId = `pack-${account}-certificate`;

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };
  const onCheck = () =>
    run(async () => {
      const result = await check(account);
      if ('code' in result) {
        setChecked(null);
        setError(result);
      } else setChecked(result);
    });
  const onTrust = (sha256: string | null) =>
    run(async () => {
      const failed = await trust(account, sha256);
      if (failed) setError(failed);
      else setChecked(checked && sha256 ? { ...checked, trust: 'pinned', problem: null } : null);
    });

  return (
    <div className="pack-certificate" data-testid={testId}>
      {trusted && (
        <div data-testid={`${testId}-trusted`}>
          <p>
            You trust the certificate of {trusted.host}:{trusted.port} with the fingerprint{' '}
            <code className="fingerprint">{trusted.sha256}</code>.
          </p>
          <Button data-testid={`${testId}-untrust`} disabled={busy} onClick={() => void onTrust(null)}>
            Stop trusting it
          </Button>
        </div>
      )}
      <Button data-testid={`${testId}-check`} disabled={busy || props.unsaved} onClick={() => void onCheck()}>
        {busy ? 'Checking…' : `Check the ${label} server's certificate`}
      </Button>
      {props.unsaved && <span className="muted"> Save first: the check connects to the saved server.</span>}
      {error && <ErrorNotice error={error} testId={`${testId}-error`} onDismiss={() => setError(null)} />}
      {checked && (
        <div role="status" data-testid={`${testId}-result`} data-trust={checked.trust}>
          <p>
            {checked.host}:{checked.port}: {TRUST_TEXT[checked.trust]}
            {checked.problem && <> {checked.problem}</>}
          </p>
          {checked.certificate && <CertificateFacts certificate={checked.certificate} />}
          {checked.trust === 'untrusted' && checked.certificate && (
            <Button
              variant="danger"
              data-testid={`${testId}-trust`}
              disabled={busy}
              onClick={() => void onTrust(checked.certificate!.sha256)}
            >
              Trust this certificate for {checked.host}:{checked.port}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

/** What a certificate viewer shows first; the fingerprint is what to compare with the one the server's owner gives. */
function CertificateFacts({ certificate }: { certificate: ServerCertificate }) {
  return (
    <dl className="certificate-facts">
      <dt>Issued to</dt>
      <dd>{certificate.subject}</dd>
      <dt>Names</dt>
      <dd>{certificate.altNames || '(none listed)'}</dd>
      <dt>Issued by</dt>
      <dd>{certificate.issuer}</dd>
      <dt>Valid</dt>
      <dd>
        {certificate.validFrom} to {certificate.validTo}
      </dd>
      <dt>SHA-256 fingerprint</dt>
      <dd>
        <code className="fingerprint">{certificate.sha256}</code>
      </dd>
    </dl>
  );
}
