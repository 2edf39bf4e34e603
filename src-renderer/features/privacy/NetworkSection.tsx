import { useId, useRef, useState, type FormEvent } from 'react';
import { EgressFeatureSchema, type EgressFeature } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { useAppStore } from '../../store/StoreContext.js';
import { featureShortLabel } from './featureLabels.js';
import { ruleHostFrom } from './networkRuleForm.js';

/** Offline mode, the rules that let a feature reach a host, and the form that adds one. */
export function NetworkSection() {
  const network = useAppStore((s) => s.privacyNetwork);
  const busy = useAppStore((s) => s.privacyNetworkBusy);
  const error = useAppStore((s) => s.privacyNetworkError);
  const setOfflineMode = useAppStore((s) => s.setOfflineMode);
  const removeNetworkRule = useAppStore((s) => s.removeNetworkRule);
  const offlineHelp = useId();

  return (
    <section className="settings-section" aria-labelledby="network-heading" data-testid="privacy-network">
      <h2 id="network-heading">Network</h2>
      {error && <ErrorNotice error={error} testId="network-error" />}
      {network === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          <label className="checkbox privacy-switch">
            <input
              type="checkbox"
              role="switch"
              data-testid="privacy-offline"
              checked={network.offline}
              disabled={busy}
              aria-describedby={offlineHelp}
              onChange={(e) => void setOfflineMode(e.target.checked)}
            />
            <span>Offline mode</span>
          </label>
          <p className="muted" id={offlineHelp} data-testid="privacy-offline-help">
            {network.offline
              ? 'On: nothing leaves this computer except what a rule below allows.'
              : 'Off: every part of Homebody may connect; web tools still need a rule to reach a host on your own network.'}
          </p>

          <h3 className="privacy-subheading">Rules</h3>
          {network.rules.length === 0 ? (
            <p className="muted" data-testid="network-rules-empty">
              {network.offline ? 'No rules: nothing may connect.' : 'No rules.'}
            </p>
          ) : (
            <ul className="folder-list" data-testid="network-rules">
              {network.rules.map((rule) => (
                <li
                  key={`${rule.feature} ${rule.host}`}
                  className="folder-item"
                  data-testid="network-rule"
                  data-feature={rule.feature}
                  data-host={rule.host}
                >
                  <span className="network-rule-feature">{featureShortLabel(rule.feature)}</span>
                  <code className="folder-path">{rule.host === '*' ? '* (any host)' : rule.host}</code>
                  <Button
                    variant="ghost"
                    data-testid="network-rule-remove"
                    disabled={busy}
                    aria-label={`Remove the rule for ${rule.host} (${featureShortLabel(rule.feature)})`}
                    onClick={() => void removeNetworkRule(rule)}
                  >
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          )}
          <AllowHostForm features={network.features} />
        </>
      )}
    </section>
  );
}

function AllowHostForm({ features }: { features: ReadonlyArray<{ feature: EgressFeature; label: string }> }) {
  const busy = useAppStore((s) => s.privacyNetworkBusy);
  const allowHost = useAppStore((s) => s.allowHost);
  const [feature, setFeature] = useState<EgressFeature>(features[0]?.feature ?? 'model-download');
  const [host, setHost] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const hostRef = useRef<HTMLInputElement>(null);
  const problemId = useId();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = ruleHostFrom(host);
    if (!parsed.ok) {
      setProblem(parsed.problem);
      hostRef.current?.focus();
      return;
    }
    setProblem(null);
    const failure = await allowHost({ feature, host: parsed.host });
    if (failure) {
      setProblem(failure.message);
      hostRef.current?.focus();
    } else {
      setHost('');
    }
  };

  return (
    <form className="folder-form allow-host-form" data-testid="allow-host-form" onSubmit={(e) => void onSubmit(e)}>
      <h3 className="privacy-subheading">Allow a host</h3>
      <div className="allow-host-fields">
        <label className="field">
          <span>Part of Homebody</span>
          <select
            data-testid="allow-host-feature"
            value={feature}
            disabled={busy}
            onChange={(e) => {
              const next = EgressFeatureSchema.safeParse(e.target.value);
              if (next.success) setFeature(next.data);
            }}
          >
            {features.map((f) => (
              <option key={f.feature} value={f.feature}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field allow-host-host">
          <span>Host</span>
          <input
            ref={hostRef}
            type="text"
            data-testid="allow-host-host"
            value={host}
            placeholder="mail.example.org"
            spellCheck={false}
            autoComplete="off"
            disabled={busy}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? problemId : undefined}
            onChange={(e) => {
              setHost(e.target.value);
              if (problem) setProblem(null);
            }}
          />
          {problem && (
            <span id={problemId} className="field-problem" data-testid="allow-host-problem">
              {problem}
            </span>
          )}
        </label>
      </div>
      <Button type="submit" variant="primary" data-testid="allow-host-submit" disabled={busy}>
        Allow
      </Button>
    </form>
  );
}
