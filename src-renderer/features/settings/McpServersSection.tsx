import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { RiskSchema, type McpServerView, type McpToolView } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { Dialog } from '../../ui/Dialog.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { riskLabel } from '../../ui/toolFormat.js';
import { useAppStore } from '../../store/StoreContext.js';
import {
  codeDigits,
  commandParts,
  configFromInputs,
  definitionText,
  emptyMcpInputs,
  toolNotes,
  transportSummary,
  type McpServerInputs,
} from './mcpServerForm.js';
import './mcpServers.css';

const STATUS_LABELS: Record<McpServerView['status'], string> = {
  stopped: 'Stopped',
  starting: 'Starting…',
  running: 'Running',
  failed: 'Failed',
};

/** Settings › MCP servers: add or import servers, enable them, review changed tools, set a tool's risk. */
export function McpServersSection() {
  const servers = useAppStore((s) => s.mcpServers);
  const error = useAppStore((s) => s.mcpError);
  const loadMcp = useAppStore((s) => s.loadMcp);
  const showMcpError = useAppStore((s) => s.showMcpError);
  const loadSettings = useAppStore((s) => s.loadSettings);

  useEffect(() => {
    void loadMcp();
  }, [loadMcp]);

  // The Tools table above lists what the registry offers: MCP tools come and go with their servers and reviews.
  const toolNames = servers
    ?.flatMap((s) => (s.status === 'running' ? s.tools.filter((t) => !t.held).map((t) => t.name) : []))
    .join();
  useEffect(() => {
    if (toolNames !== undefined) void loadSettings();
  }, [toolNames, loadSettings]);
  // Browser mode: a server whose command waits for the user's confirmation in this page.
  const confirming = servers?.find((s) => s.confirmation !== null && s.transport.kind === 'stdio');

  return (
    <section className="settings-section mcp-section" aria-labelledby="mcp-heading" data-testid="mcp-section">
      <h2 id="mcp-heading">MCP servers</h2>
      <p className="muted">
        Programs that give Homebody more tools. A server starts only when you enable it; its tools ask like any other,
        and what they return counts as untrusted content.
      </p>
      {error && <ErrorNotice error={error} onDismiss={() => showMcpError(null)} testId="mcp-error" />}
      {servers && servers.length === 0 && <p className="muted">No MCP servers yet.</p>}
      <ul className="mcp-server-list">
        {servers?.map((server) => (
          <McpServerItem key={server.name} server={server} />
        ))}
      </ul>
      <McpAddForm />
      <McpImport />
      {confirming?.confirmation && confirming.transport.kind === 'stdio' && (
        <McpCommandConfirmation
          key={confirming.confirmation.id}
          server={confirming.name}
          id={confirming.confirmation.id}
          transport={confirming.transport}
        />
      )}
    </section>
  );
}

function McpServerItem({ server }: { server: McpServerView }) {
  const busy = useAppStore((s) => s.mcpBusy.includes(server.name));
  const setEnabled = useAppStore((s) => s.setMcpEnabled);
  const restart = useAppStore((s) => s.restartMcpServer);
  const remove = useAppStore((s) => s.removeMcpServer);
  const setTrust = useAppStore((s) => s.setMcpTrustAnnotations);
  // The toggle shows the user's choice at once; starting a server takes a moment before the Host answers.
  const [choosing, setChoosing] = useState<boolean | null>(null);
  const toggle = async (enabled: boolean) => {
    setChoosing(enabled);
    await setEnabled(server.name, enabled);
    setChoosing(null);
  };
  const [trusting, setTrusting] = useState<boolean | null>(null);
  const toggleTrust = async (trust: boolean) => {
    setTrusting(trust);
    await setTrust(server.name, trust);
    setTrusting(null);
  };
  return (
    <li className="mcp-server" data-testid="mcp-server" data-name={server.name} data-status={server.status}>
      <div className="mcp-server-head">
        <strong>{server.name}</strong>
        <span className={`badge mcp-status mcp-status-${server.status}`} data-testid="mcp-status">
          {STATUS_LABELS[server.status]}
        </span>
        <label className="checkbox">
          <input
            type="checkbox"
            data-testid="mcp-enabled"
            checked={choosing ?? server.enabled}
            disabled={busy}
            onChange={(e) => void toggle(e.target.checked)}
          />
          <span>Enabled</span>
        </label>
        <Button data-testid="mcp-restart" disabled={busy || !server.enabled} onClick={() => void restart(server.name)}>
          Restart
        </Button>
        <Button
          variant="ghost"
          data-testid="mcp-remove"
          disabled={busy}
          onClick={() => void remove(server.name)}
          aria-label={`Remove ${server.name}`}
        >
          Remove
        </Button>
      </div>
      <code className="mcp-transport muted">{transportSummary(server.transport)}</code>
      {server.needsConfirmation && !server.enabled && (
        <p className="muted mcp-note" data-testid="mcp-needs-confirmation">
          It runs a command on this computer: switching it on shows you that exact command to confirm first.
        </p>
      )}
      <label className="checkbox mcp-trust">
        <input
          type="checkbox"
          data-testid="mcp-trust-annotations"
          checked={trusting ?? server.trustAnnotations}
          disabled={busy}
          onChange={(e) => void toggleTrust(e.target.checked)}
        />
        <span>Trust this server’s annotations</span>
      </label>
      <p className="muted mcp-note">
        A server describes its own tools. Off, Homebody does not take its word: a tool that says it only reads still
        asks before every call. On, such a tool asks once per task, like Homebody’s own reads. A tool that says it is
        destructive always waits in the approval queue, either way.
      </p>
      {server.error && (
        <p className="mcp-server-error" role="alert" data-testid="mcp-server-error">
          {server.error}
        </p>
      )}
      {server.tools.length > 0 && (
        <table className="tools-table mcp-tools">
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Risk</th>
            </tr>
          </thead>
          <tbody>
            {server.tools.map((tool) => (
              <McpToolRow key={tool.name} server={server.name} tool={tool} busy={busy} />
            ))}
          </tbody>
        </table>
      )}
      {server.skipped.length > 0 && (
        <ul className="mcp-skipped muted" data-testid="mcp-skipped">
          {server.skipped.map((s) => (
            <li key={s.tool}>
              <code>{s.tool}</code> is not offered: {s.reason}.
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function McpToolRow({ server, tool, busy }: { server: string; tool: McpToolView; busy: boolean }) {
  const setRisk = useAppStore((s) => s.setMcpRisk);
  const review = useAppStore((s) => s.reviewMcpTool);
  return (
    <tr data-testid="mcp-tool" data-tool={tool.name}>
      <th scope="row">
        <code>{tool.name}</code>
        <span className="tool-description muted">{tool.description}</span>
        {tool.held && (
          <div className="mcp-held" role="alert" data-testid="mcp-tool-held">
            <strong>Changed — review.</strong> This tool is not offered until you accept its new definition.
            <div className="mcp-diff">
              <figure>
                <figcaption>What you trusted</figcaption>
                <pre data-testid="mcp-diff-old">{definitionText(tool.held.trusted)}</pre>
              </figure>
              <figure>
                <figcaption>What it says now</figcaption>
                <pre data-testid="mcp-diff-new">{definitionText(tool.held.current)}</pre>
              </figure>
            </div>
            <Button
              variant="primary"
              data-testid="mcp-review"
              disabled={busy}
              onClick={() => void review(server, tool.tool)}
            >
              Accept the change
            </Button>
          </div>
        )}
      </th>
      <td>
        <span className={`risk-badge risk-${tool.risk}`}>{riskLabel(tool.risk)}</span>
        {toolNotes(tool).map((note) => (
          <span key={note} className="badge mcp-tool-note" data-testid="mcp-tool-note">
            {note}
          </span>
        ))}
        <select
          data-testid="mcp-tool-risk"
          aria-label={`Risk of ${tool.name}`}
          value={tool.override ?? ''}
          disabled={busy}
          onChange={(e) => {
            const risk = RiskSchema.safeParse(e.target.value);
            void setRisk(server, tool.tool, risk.success ? risk.data : null);
          }}
        >
          <option value="">As its annotations say ({riskLabel(tool.annotationRisk)})</option>
          {RiskSchema.options.map((r) => (
            <option key={r} value={r}>
              {riskLabel(r)}
            </option>
          ))}
        </select>
      </td>
    </tr>
  );
}

function McpAddForm() {
  const add = useAppStore((s) => s.addMcpServer);
  const showMcpError = useAppStore((s) => s.showMcpError);
  const [inputs, setInputs] = useState<McpServerInputs>(emptyMcpInputs);
  const set = (patch: Partial<McpServerInputs>) => setInputs((current) => ({ ...current, ...patch }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = configFromInputs(inputs);
    if ('error' in parsed) {
      showMcpError({ code: 'INVALID_REQUEST', message: parsed.error });
      return;
    }
    if ((await add(parsed.config)) === null) setInputs(emptyMcpInputs);
  };

  return (
    <form className="mcp-add-form" onSubmit={(e) => void onSubmit(e)} data-testid="mcp-add-form">
      <h3>Add a server</h3>
      <fieldset className="mcp-kind">
        <legend className="sr-only">How Homebody reaches it</legend>
        <label className="checkbox">
          <input type="radio" checked={inputs.kind === 'stdio'} onChange={() => set({ kind: 'stdio' })} />
          <span>A command Homebody starts</span>
        </label>
        <label className="checkbox">
          <input
            type="radio"
            data-testid="mcp-kind-http"
            checked={inputs.kind === 'http'}
            onChange={() => set({ kind: 'http' })}
          />
          <span>A server over HTTP</span>
        </label>
      </fieldset>
      <label className="field">
        <span>Name</span>
        <input data-testid="mcp-name" value={inputs.name} onChange={(e) => set({ name: e.target.value })} />
      </label>
      {inputs.kind === 'stdio' ? (
        <>
          <label className="field">
            <span>Command</span>
            <input
              data-testid="mcp-command"
              value={inputs.command}
              spellCheck={false}
              placeholder="npx"
              onChange={(e) => set({ command: e.target.value })}
            />
          </label>
          <label className="field">
            <span>Arguments, one per line</span>
            <textarea
              className="code-input"
              data-testid="mcp-args"
              rows={2}
              value={inputs.args}
              spellCheck={false}
              onChange={(e) => set({ args: e.target.value })}
            />
          </label>
          <label className="field">
            <span>Environment, KEY=value per line (kept in Homebody, never shown again)</span>
            <textarea
              className="code-input"
              data-testid="mcp-env"
              rows={2}
              value={inputs.env}
              spellCheck={false}
              onChange={(e) => set({ env: e.target.value })}
            />
          </label>
        </>
      ) : (
        <>
          <label className="field">
            <span>URL</span>
            <input
              data-testid="mcp-url"
              value={inputs.url}
              spellCheck={false}
              placeholder="https://example.com/mcp"
              onChange={(e) => set({ url: e.target.value })}
            />
          </label>
          <label className="field">
            <span>Headers, Name: value per line (kept in Homebody, never shown again)</span>
            <textarea
              className="code-input"
              data-testid="mcp-headers"
              rows={2}
              value={inputs.headers}
              spellCheck={false}
              onChange={(e) => set({ headers: e.target.value })}
            />
          </label>
        </>
      )}
      <Button type="submit" variant="primary" data-testid="mcp-add-button">
        Add server
      </Button>
    </form>
  );
}

function McpImport() {
  const importMcpJson = useAppStore((s) => s.importMcpJson);
  const showMcpError = useAppStore((s) => s.showMcpError);
  const [text, setText] = useState('');
  const [imported, setImported] = useState(false);

  const submit = async (content: string) => {
    setImported(false);
    if ((await importMcpJson(content)) === null) {
      setText('');
      setImported(true);
    }
  };

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const file = input.files?.[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      input.value = '';
      void submit(String(reader.result));
    };
    reader.onerror = () => {
      input.value = '';
      showMcpError({ code: 'INTERNAL', message: `Could not read ${file.name}.` });
    };
    reader.readAsText(file);
  };

  return (
    <div className="mcp-import">
      <h3>Import an mcp.json</h3>
      <p className="muted">As Claude Desktop, Cursor and VS Code write it. The servers are added switched off.</p>
      <textarea
        className="code-input"
        data-testid="mcp-import-text"
        rows={5}
        value={text}
        spellCheck={false}
        placeholder={'{"mcpServers": {"files": {"command": "npx", "args": ["…"]}}}'}
        aria-label="mcp.json"
        onChange={(e) => setText(e.target.value)}
      />
      <div className="policy-actions">
        <Button data-testid="mcp-import-button" disabled={!text.trim()} onClick={() => void submit(text)}>
          Import
        </Button>
        <label className="btn btn-secondary file-button">
          Import a file
          <input
            type="file"
            accept="application/json,.json"
            data-testid="mcp-import-file"
            className="sr-only"
            onChange={onFile}
          />
        </label>
        {imported && (
          <span className="muted" role="status" data-testid="mcp-imported">
            Imported. Enable a server to start it.
          </span>
        )}
      </div>
    </div>
  );
}

/**
 * Browser mode's confirmation of a command: the exact command, its arguments and the names of its environment
 * variables, and the code `homebody serve` printed beside the same command in its terminal. Only that code, typed
 * here, lets it run: the page alone (or a script with its token) cannot confirm. Cancel has the focus.
 */
function McpCommandConfirmation({
  server,
  id,
  transport,
}: {
  server: string;
  id: string;
  transport: Extract<McpServerView['transport'], { kind: 'stdio' }>;
}) {
  const answer = useAppStore((s) => s.answerMcpConfirmation);
  const titleId = useId();
  const bodyId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const parts = commandParts(transport);
  const send = async (typed: string | null) => {
    setBusy(true);
    await answer(id, typed);
    setBusy(false);
  };
  return (
    <Dialog
      labelledBy={titleId}
      describedBy={bodyId}
      role="alertdialog"
      onClose={() => !busy && void send(null)}
      initialFocus={cancelRef}
      className="mcp-confirm"
      testId="mcp-confirm"
    >
      <form
        className="dialog-body"
        onSubmit={(e) => {
          e.preventDefault();
          if (codeDigits(code).length === 6) void send(codeDigits(code));
        }}
      >
        <h2 id={titleId} className="dialog-title">
          Run this command?
        </h2>
        <div id={bodyId} className="dialog-text">
          <p>
            The MCP server <strong>{server}</strong> runs this command on your computer, with your permissions:
          </p>
          <dl className="mcp-confirm-facts">
            <dt>Command</dt>
            <dd>
              <code data-testid="mcp-confirm-command">{parts.command}</code>
            </dd>
            <dt>Arguments</dt>
            <dd>
              {parts.args.length === 0 ? (
                <span className="muted">none</span>
              ) : (
                <ol className="mcp-confirm-args">
                  {parts.args.map((arg, i) => (
                    <li key={i}>
                      <code data-testid="mcp-confirm-arg">{arg}</code>
                    </li>
                  ))}
                </ol>
              )}
            </dd>
            <dt>Environment variables</dt>
            <dd data-testid="mcp-confirm-env">
              {parts.envKeys.length === 0 ? (
                <span className="muted">none</span>
              ) : (
                <>
                  {parts.envKeys.join(', ')} <span className="muted">(values not shown)</span>
                </>
              )}
            </dd>
          </dl>
          <p>
            Run it only if you added this server yourself and trust where it came from. The terminal where{' '}
            <code>homebody serve</code> runs shows the same command with a code; type that code here to run it.
          </p>
        </div>
        <label className="field">
          <span>Code from the terminal</span>
          <input
            data-testid="mcp-confirm-code"
            inputMode="numeric"
            autoComplete="off"
            spellCheck={false}
            value={code}
            disabled={busy}
            onChange={(e) => setCode(e.target.value)}
          />
        </label>
        <div className="dialog-actions">
          <Button
            ref={cancelRef}
            type="button"
            data-testid="mcp-confirm-cancel"
            onClick={() => void send(null)}
            disabled={busy}
          >
            Cancel
          </Button>
          <Button
            type="submit"
            variant="danger"
            data-testid="mcp-confirm-ok"
            disabled={busy || codeDigits(code).length !== 6}
          >
            Run it
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
