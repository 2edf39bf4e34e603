import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { PolicyModeSchema, type PolicyMode } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { toolBadge } from '../../ui/toolFormat.js';
import { useAppStore } from '../../store/StoreContext.js';
import { policyModeFor, policyModeLabel } from './policyView.js';
import { McpServersSection } from './McpServersSection.js';
import { PackSettingsSection } from './PackSettingsSection.js';

/** Granted folders, a mode per tool, and policy export/import. */
export function SettingsPage() {
  const policy = useAppStore((s) => s.policy);
  const tools = useAppStore((s) => s.tools);
  const settingsError = useAppStore((s) => s.settingsError);
  const busy = useAppStore((s) => s.settingsBusy);
  const loadSettings = useAppStore((s) => s.loadSettings);
  const setToolMode = useAppStore((s) => s.setToolMode);
  const grantFolder = useAppStore((s) => s.grantFolder);
  const revokeFolder = useAppStore((s) => s.revokeFolder);
  const showSettingsError = useAppStore((s) => s.showSettingsError);

  const [path, setPath] = useState('');
  const [untrusted, setUntrusted] = useState(false);
  const folderStates = useAppStore((s) => s.folderStates);
  /** A broad folder waiting for the user's second, explicit confirmation, with the warning the Host gave. */
  const [broad, setBroad] = useState<{ path: string; untrusted: boolean; warning: string } | null>(null);

  useEffect(() => {
    void loadSettings();
  }, [loadSettings]);

  const grant = async (folder: string, asUntrusted: boolean, confirmBroad = false) => {
    const error = await grantFolder(folder, asUntrusted, confirmBroad);
    if (error?.code === 'CONFIRMATION_REQUIRED') {
      setBroad({ path: folder, untrusted: asUntrusted, warning: error.message });
      return;
    }
    setBroad(null);
    if (error === null) {
      setPath('');
      setUntrusted(false);
    }
  };
  const onGrant = (event: FormEvent) => {
    event.preventDefault();
    void grant(path, untrusted);
  };

  return (
    <main className="main page settings-page" data-testid="settings-page" aria-labelledby="settings-heading">
      <header className="page-header">
        <h1 id="settings-heading">Settings</h1>
        <p className="muted">The written boundary of what Homebody may do alone.</p>
      </header>
      {settingsError && (
        <ErrorNotice error={settingsError} onDismiss={() => showSettingsError(null)} testId="settings-error" />
      )}

      <section className="settings-section" aria-labelledby="folders-heading">
        <h2 id="folders-heading">Granted folders</h2>
        <p className="muted">File tools work only inside these folders.</p>
        {policy && policy.folders.length === 0 && <p className="muted">No folders granted yet.</p>}
        <ul className="folder-list">
          {policy?.folders.map((folder) => {
            const changed = folderStates.find((f) => f.path === folder.path && f.state !== 'ok');
            return (
              <li
                key={folder.path}
                className="folder-item"
                data-testid="folder-item"
                data-path={folder.path}
                data-state={changed?.state ?? 'ok'}
              >
                <code className="folder-path">{folder.path}</code>
                {folder.untrusted && <span className="badge badge-warning">Untrusted content</span>}
                {changed && (
                  <>
                    <span className="badge badge-danger" data-testid="folder-changed" title={changed.message ?? ''}>
                      Grants nothing now
                    </span>
                    <span className="folder-note muted">{changed.message}</span>
                    {changed.state !== 'missing' && changed.state !== 'not-a-folder' && (
                      <Button
                        data-testid="folder-regrant"
                        disabled={busy}
                        onClick={() => void grant(folder.path, folder.untrusted)}
                      >
                        Grant again
                      </Button>
                    )}
                  </>
                )}
                <Button
                  variant="ghost"
                  data-testid="folder-remove"
                  disabled={busy}
                  onClick={() => void revokeFolder(folder.path)}
                  aria-label={`Remove ${folder.path}`}
                >
                  Remove
                </Button>
              </li>
            );
          })}
        </ul>
        {broad && (
          <div className="broad-confirm" role="alertdialog" aria-labelledby="broad-heading" data-testid="broad-confirm">
            <h3 id="broad-heading">Grant {broad.path}?</h3>
            <p className="warning-text" data-testid="broad-warning">
              {broad.warning}
            </p>
            <div className="broad-actions">
              <Button data-testid="broad-cancel" onClick={() => setBroad(null)}>
                Cancel
              </Button>
              <Button
                variant="danger"
                data-testid="broad-confirm-button"
                disabled={busy}
                onClick={() => void grant(broad.path, broad.untrusted, true)}
              >
                Grant all of {broad.path}
              </Button>
            </div>
          </div>
        )}
        <form className="folder-form" onSubmit={(e) => void onGrant(e)}>
          <label className="field">
            <span>Folder path</span>
            <input
              type="text"
              data-testid="folder-path-input"
              value={path}
              onChange={(e) => setPath(e.target.value)}
              placeholder="/home/you/Reports"
              spellCheck={false}
            />
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              data-testid="folder-untrusted"
              checked={untrusted}
              onChange={(e) => setUntrusted(e.target.checked)}
            />
            <span>Content here is untrusted (for example Downloads)</span>
          </label>
          <Button type="submit" variant="primary" data-testid="folder-grant-button" disabled={busy || !path.trim()}>
            Grant
          </Button>
        </form>
      </section>

      <section className="settings-section" aria-labelledby="tools-heading">
        <h2 id="tools-heading">Tools</h2>
        <table className="tools-table">
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Risk</th>
              <th scope="col">Mode</th>
            </tr>
          </thead>
          <tbody>
            {tools.map((tool) => {
              const mode = policyModeFor(policy, tool);
              return (
                <tr key={tool.name} data-testid="tool-row" data-tool={tool.name}>
                  <th scope="row">
                    <span className="tool-title" data-testid="tool-title">
                      {tool.title}
                    </span>
                    <span className="tool-description muted" data-testid="tool-text">
                      {tool.text}
                    </span>
                    {/* The name is what the policy file and the command line use. */}
                    <code className="tool-name muted">{tool.name}</code>
                    {tool.description !== tool.text && (
                      <details className="tool-model-text" data-testid="tool-model-text">
                        <summary>What the assistant is told</summary>
                        <p>{tool.description}</p>
                      </details>
                    )}
                  </th>
                  <td>
                    <span
                      className={`risk-badge risk-${tool.risk}`}
                      data-testid="tool-badge"
                      data-touches={tool.touches ?? 'unknown'}
                    >
                      {toolBadge(tool.risk, tool.touches)}
                    </span>
                  </td>
                  <td>
                    <select
                      data-testid="tool-mode"
                      data-tool={tool.name}
                      value={mode}
                      disabled={busy}
                      aria-label={`Mode for ${tool.name}`}
                      onChange={(e) => {
                        const next = PolicyModeSchema.safeParse(e.target.value);
                        if (next.success) void setToolMode(tool.name, next.data);
                      }}
                    >
                      {PolicyModeSchema.options.map((m: PolicyMode) => (
                        <option key={m} value={m} disabled={m === 'auto' && tool.risk === 'irreversible'}>
                          {policyModeLabel(m)}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>

      <PackSettingsSection />

      <McpServersSection />

      <PolicyTransfer />
    </main>
  );
}

/** Export (read-only JSON and a download) and import (a file, then policy.set). */
function PolicyTransfer() {
  const policy = useAppStore((s) => s.policy);
  const importPolicy = useAppStore((s) => s.importPolicy);
  const showSettingsError = useAppStore((s) => s.showSettingsError);
  const [exported, setExported] = useState<string | null>(null);
  const [downloadUrl, setDownloadUrl] = useState<string | null>(null);
  const [imported, setImported] = useState(false);
  const [broadImport, setBroadImport] = useState<{ policy: unknown; warning: string } | null>(null);
  const runImport = (parsed: unknown, confirmBroad = false) => {
    void importPolicy(parsed, confirmBroad).then((error) => {
      if (error?.code === 'CONFIRMATION_REQUIRED') {
        setBroadImport({ policy: parsed, warning: error.message });
        return;
      }
      setBroadImport(null);
      if (error === null) {
        setImported(true);
        setExported(null);
      }
    });
  };

  // The Blob URL lives as long as the link that offers it.
  useEffect(() => {
    if (exported === null) return;
    const url = URL.createObjectURL(new Blob([exported], { type: 'application/json' }));
    setDownloadUrl(url);
    return () => {
      URL.revokeObjectURL(url);
      setDownloadUrl(null);
    };
  }, [exported]);

  const onExport = () => {
    if (policy) setExported(JSON.stringify(policy, null, 2));
  };

  const onImport = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const file = input.files?.[0];
    if (!file) return;
    setImported(false);
    const reader = new FileReader();
    reader.onload = () => {
      input.value = '';
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(reader.result));
      } catch (error) {
        showSettingsError({
          code: 'INVALID_REQUEST',
          message: `${file.name} is not valid JSON: ${(error as Error).message}`,
        });
        return;
      }
      runImport(parsed);
    };
    reader.onerror = () => {
      input.value = '';
      showSettingsError({ code: 'INTERNAL', message: `Could not read ${file.name}.` });
    };
    reader.readAsText(file);
  };

  return (
    <section className="settings-section" aria-labelledby="policy-heading">
      <h2 id="policy-heading">Policy file</h2>
      <div className="policy-actions">
        <Button data-testid="policy-export" disabled={!policy} onClick={onExport}>
          Export policy
        </Button>
        <label className="btn btn-secondary file-button">
          Import policy
          <input
            type="file"
            accept="application/json,.json"
            data-testid="policy-import"
            className="sr-only"
            onChange={onImport}
          />
        </label>
        {broadImport && (
          <div
            className="broad-confirm"
            role="alertdialog"
            aria-label="Import a broad grant"
            data-testid="broad-import"
          >
            <p className="warning-text">{broadImport.warning}</p>
            <div className="broad-actions">
              <Button onClick={() => setBroadImport(null)}>Cancel the import</Button>
              <Button
                variant="danger"
                data-testid="broad-import-confirm"
                onClick={() => runImport(broadImport.policy, true)}
              >
                Import it anyway
              </Button>
            </div>
          </div>
        )}
        {imported && (
          <span className="muted" role="status" data-testid="policy-imported">
            Policy imported.
          </span>
        )}
      </div>
      {exported !== null && (
        <div className="policy-export">
          <textarea
            readOnly
            data-testid="policy-json"
            className="code-input"
            rows={Math.min(20, exported.split('\n').length + 1)}
            value={exported}
            aria-label="Exported policy"
          />
          {downloadUrl && (
            <a
              className="btn btn-secondary"
              href={downloadUrl}
              download="homebody-policy.json"
              data-testid="policy-download"
            >
              Download homebody-policy.json
            </a>
          )}
        </div>
      )}
    </section>
  );
}
