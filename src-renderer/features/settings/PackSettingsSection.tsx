import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { PackSettingsView } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { useAppStore } from '../../store/StoreContext.js';
import { MailCertificatePanel } from './MailCertificatePanel.js';
import './packSettings.css';
import {
  FOLDER_FIELDS,
  fieldOfHostError,
  inputsFromView,
  patchFromInputs,
  type MailKind,
  type PackInputs,
  type PackProblems,
  type ServerInputs,
} from './packSettingsForm.js';

const MAIL_KINDS: readonly { kind: MailKind; label: string }[] = [
  { kind: 'none', label: 'None' },
  { kind: 'maildir', label: 'A Maildir folder' },
  { kind: 'mbox', label: 'An mbox file' },
  { kind: 'imap', label: 'An IMAP account' },
];

/**
 * The tool packs' settings: folders (empty means the default shown), time zone, search endpoint, where mail is read
 * from, and the SMTP and IMAP servers. Passwords are write-only: the Host says only whether one is set. What the user
 * typed stays in the form when the Host refuses it; the refusal is shown beside the Save button and on its field.
 */
export function PackSettingsSection() {
  const view = useAppStore((s) => s.packSettings);
  const busy = useAppStore((s) => s.packSettingsBusy);
  const error = useAppStore((s) => s.packSettingsError);
  const load = useAppStore((s) => s.loadPackSettings);
  const save = useAppStore((s) => s.savePackSettings);
  const dismissError = useAppStore((s) => s.dismissPackSettingsError);
  const [inputs, setInputs] = useState<PackInputs | null>(null);
  const [problems, setProblems] = useState<PackProblems>({});
  const [saved, setSaved] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    void load();
  }, [load]);
  // The Host's answer (first load, a save) replaces the fields; a refusal leaves them as typed.
  const viewKey = view ? JSON.stringify(view) : '';
  useEffect(() => {
    if (viewKey) setInputs(inputsFromView(JSON.parse(viewKey) as PackSettingsView));
  }, [viewKey]);

  const hostField = error ? fieldOfHostError(error.message) : null;
  const focusField = (id: string | null | undefined) => {
    if (id) form.current?.querySelector<HTMLElement>(`[data-field="${id}"]`)?.focus();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!inputs) return;
    setSaved(false);
    const { patch, problems: found } = patchFromInputs(inputs);
    setProblems(found);
    if (Object.keys(found).length > 0) {
      focusField(Object.keys(found)[0]);
      return;
    }
    const refused = await save(patch);
    if (refused === null) {
      setSaved(true);
      // The passwords went to the Host; they are never shown again.
      setInputs(
        (current) =>
          current && {
            ...current,
            smtp: { ...current.smtp, password: '', clearPassword: false },
            imap: { ...current.imap, password: '', clearPassword: false },
          },
      );
    } else focusField(fieldOfHostError(refused.message));
  };

  const problemOf = (id: string) => problems[id] ?? (hostField === id ? error?.message : undefined);
  // A certificate check reaches the saved server: one typed but not saved yet is not the one it would show.
  const savedInputs = view && inputsFromView(view);
  const unsaved = (name: 'smtp' | 'imap') =>
    !savedInputs ||
    !inputs ||
    (['enabled', 'host', 'port', 'secure'] as const).some((key) => inputs[name][key] !== savedInputs[name][key]);

  return (
    <section className="settings-section" aria-labelledby="packs-heading" data-testid="pack-settings">
      <h2 id="packs-heading">Tool packs</h2>
      <p className="muted">
        Where the calendar, contacts, notes and mail tools keep their files (open formats other apps read too), and the
        servers web search and mail use. An empty folder means the default shown in it.
      </p>
      {!inputs || !view ? (
        error ? (
          <ErrorNotice error={error} testId="pack-settings-error" />
        ) : (
          <p className="muted">Loading…</p>
        )
      ) : (
        <form ref={form} className="pack-settings-form" onSubmit={(e) => void onSubmit(e)} noValidate>
          <fieldset className="pack-fieldset">
            <legend>Folders</legend>
            {FOLDER_FIELDS.map(({ key, label }) => (
              <TextField
                key={key}
                id={key}
                label={label}
                value={inputs.folders[key]}
                placeholder={view.resolved[key]}
                problem={problemOf(key)}
                onChange={(value) => setInputs({ ...inputs, folders: { ...inputs.folders, [key]: value } })}
              />
            ))}
          </fieldset>

          <fieldset className="pack-fieldset">
            <legend>Calendar and reminders</legend>
            <TextField
              id="timeZone"
              label="Time zone"
              hint="An IANA name such as Europe/Lisbon; empty uses this computer's."
              value={inputs.timeZone}
              placeholder={Intl.DateTimeFormat().resolvedOptions().timeZone}
              problem={problemOf('timeZone')}
              onChange={(timeZone) => setInputs({ ...inputs, timeZone })}
            />
          </fieldset>

          <fieldset className="pack-fieldset">
            <legend>Web search</legend>
            <TextField
              id="searchEndpoint"
              label="Search endpoint"
              hint="A SearXNG-style address answering ?q=…&format=json. Empty turns web search off."
              type="url"
              value={inputs.searchEndpoint}
              placeholder="https://searx.example/search"
              problem={problemOf('searchEndpoint')}
              onChange={(searchEndpoint) => setInputs({ ...inputs, searchEndpoint })}
            />
          </fieldset>

          <fieldset className="pack-fieldset">
            <legend>Mail</legend>
            <label className="field">
              <span>Read mail from</span>
              <select
                data-testid="pack-mailSource"
                data-field="mail.kind"
                value={inputs.mailKind}
                onChange={(e) => setInputs({ ...inputs, mailKind: e.target.value as MailKind })}
              >
                {MAIL_KINDS.map(({ kind, label }) => (
                  <option key={kind} value={kind}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            {(inputs.mailKind === 'maildir' || inputs.mailKind === 'mbox') && (
              <TextField
                id="mail.path"
                label={inputs.mailKind === 'mbox' ? 'mbox file' : 'Maildir folder'}
                value={inputs.mailPath}
                placeholder={inputs.mailKind === 'mbox' ? '/home/you/mail/inbox.mbox' : '/home/you/Maildir'}
                problem={problemOf('mail.path')}
                onChange={(mailPath) => setInputs({ ...inputs, mailPath })}
              />
            )}
            <ServerFields
              name="smtp"
              title="Send mail through an SMTP server"
              server={inputs.smtp}
              passwordSet={view.smtpPasswordSet}
              certificate={
                <MailCertificatePanel
                  account="smtp"
                  trusted={view.trustedCertificates.smtp}
                  unsaved={unsaved('smtp')}
                />
              }
              problemOf={problemOf}
              onChange={(smtp) => setInputs({ ...inputs, smtp: { ...inputs.smtp, ...smtp } })}
            >
              <TextField
                id="smtp.from"
                label="From address"
                value={inputs.smtp.from}
                placeholder="you@example.org"
                problem={problemOf('smtp.from')}
                onChange={(from) => setInputs({ ...inputs, smtp: { ...inputs.smtp, from } })}
              />
            </ServerFields>
            <ServerFields
              name="imap"
              title="Read mail from an IMAP server"
              server={inputs.imap}
              passwordSet={view.imapPasswordSet}
              certificate={
                <MailCertificatePanel
                  account="imap"
                  trusted={view.trustedCertificates.imap}
                  unsaved={unsaved('imap')}
                />
              }
              problemOf={problemOf}
              onChange={(imap) => setInputs({ ...inputs, imap: { ...inputs.imap, ...imap } })}
            />
          </fieldset>

          {error && (
            <ErrorNotice
              error={error}
              testId="pack-settings-error"
              onDismiss={() => {
                setProblems({});
                dismissError();
              }}
            />
          )}
          <div className="pack-settings-actions">
            <Button type="submit" variant="primary" data-testid="pack-settings-save" disabled={busy}>
              Save
            </Button>
            {saved && !busy && (
              <span className="muted" role="status" data-testid="pack-settings-saved">
                Saved.
              </span>
            )}
          </div>
        </form>
      )}
    </section>
  );
}

function TextField(props: {
  id: string;
  label: string;
  value: string;
  placeholder?: string;
  hint?: string;
  problem?: string | undefined;
  type?: 'text' | 'url' | 'password';
  disabled?: boolean;
  onChange(value: string): void;
}) {
  const testId = `pack-${props.id.replace('.', '-')}`;
  const helpId = `${testId}-help`;
  return (
    <label className="field">
      <span>{props.label}</span>
      <input
        type={props.type ?? 'text'}
        data-testid={testId}
        data-field={props.id}
        value={props.value}
        placeholder={props.placeholder}
        disabled={props.disabled}
        spellCheck={false}
        autoComplete={props.type === 'password' ? 'new-password' : 'off'}
        aria-invalid={props.problem ? true : undefined}
        aria-describedby={props.hint || props.problem ? helpId : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {(props.hint || props.problem) && (
        <span id={helpId}>
          {props.hint && <span className="muted">{props.hint}</span>}
          {props.problem && (
            <span className="field-problem" data-testid={`${testId}-problem`}>
              {' '}
              {props.problem}
            </span>
          )}
        </span>
      )}
    </label>
  );
}

/** Host, port, TLS, user and a write-only password for one mail server, behind a checkbox that turns it on. */
function ServerFields(props: {
  name: 'smtp' | 'imap';
  title: string;
  server: ServerInputs;
  passwordSet: boolean;
  /** The server's certificate: checked, and trusted by its fingerprint where no known authority signed it. */
  certificate: ReactNode;
  problemOf(id: string): string | undefined;
  onChange(change: Partial<ServerInputs>): void;
  children?: ReactNode;
}) {
  const { name, server, onChange } = props;
  const label = name.toUpperCase();
  return (
    <div className="pack-server" data-testid={`pack-${name}`}>
      <label className="checkbox">
        <input
          type="checkbox"
          data-testid={`pack-${name}-enabled`}
          checked={server.enabled}
          onChange={(e) => onChange({ enabled: e.target.checked })}
        />
        <span>{props.title}</span>
      </label>
      {server.enabled && (
        <div className="pack-server-fields">
          <TextField
            id={`${name}.host`}
            label={`${label} server`}
            value={server.host}
            placeholder={`${name}.example.org`}
            problem={props.problemOf(`${name}.host`)}
            onChange={(host) => onChange({ host })}
          />
          <TextField
            id={`${name}.port`}
            label="Port"
            value={server.port}
            problem={props.problemOf(`${name}.port`)}
            onChange={(port) => onChange({ port })}
          />
          <label className="checkbox">
            <input
              type="checkbox"
              data-testid={`pack-${name}-secure`}
              checked={server.secure}
              onChange={(e) => onChange({ secure: e.target.checked })}
            />
            <span>TLS from the first byte (ports 465 and 993); otherwise STARTTLS when offered</span>
          </label>
          <TextField
            id={`${name}.user`}
            label="User name"
            value={server.user}
            problem={props.problemOf(`${name}.user`)}
            onChange={(user) => onChange({ user })}
          />
          {props.children}
          <TextField
            id={`${name}.password`}
            label="Password"
            type="password"
            value={server.password}
            disabled={server.clearPassword}
            placeholder={props.passwordSet ? 'Saved; type a new one to replace it' : 'Not set'}
            onChange={(password) => onChange({ password })}
          />
          <span className="muted" data-testid={`pack-${name}-password-state`}>
            {props.passwordSet ? 'Password: set' : 'Password: not set'}
          </span>
          {props.passwordSet && (
            <label className="checkbox">
              <input
                type="checkbox"
                data-testid={`pack-${name}-password-clear`}
                checked={server.clearPassword}
                onChange={(e) => onChange({ clearPassword: e.target.checked, password: '' })}
              />
              <span>Remove the saved password</span>
            </label>
          )}
          {props.certificate}
        </div>
      )}
    </div>
  );
}
