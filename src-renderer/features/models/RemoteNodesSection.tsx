import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { remoteModelName, type AppError, type NodeProbe, type RemoteNode } from '../../../src-shared/contract/index.js';
import { useAppStore } from '../../store/StoreContext.js';
import { nodeEngineState, protocolLabel } from '../../store/nodesView.js';
import { Badge } from '../../ui/Badge.js';
import { Button } from '../../ui/Button.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';

/** What leaves this computer when a node is the model in use: said wherever a node is added or used. */
const WHAT_GOES_THERE =
  'While its model is in use, what you write in a task, the earlier messages of that task and the results of the tools ' +
  'the model calls are sent to that computer. Each task asks you once before its first message goes there.';

/**
 * "A model on another computer": llama-server (alone or spread over RPC workers), vLLM or another OpenAI-compatible
 * server. A server is checked before anything is saved, and added as the check showed it: its model and, over
 * https, the certificate the user compared, which is then pinned.
 */
export function RemoteNodesSection() {
  const nodes = useAppStore((s) => s.nodes);
  const nodesError = useAppStore((s) => s.nodesError);
  const loadNodes = useAppStore((s) => s.loadNodes);
  const [status, setStatus] = useState<string | null>(null);

  useEffect(() => {
    void loadNodes();
  }, [loadNodes]);

  return (
    <section className="card remote-nodes" aria-labelledby="models-remote-heading" data-testid="remote-nodes">
      <h2 id="models-remote-heading">A model on another computer</h2>
      <p className="muted">
        A computer on your network that serves a model with llama.cpp&apos;s llama-server (on its own or spread over
        several machines with RPC), vLLM or another OpenAI-compatible server. {WHAT_GOES_THERE}
      </p>
      {nodesError && <ErrorNotice error={nodesError} testId="remote-nodes-error" />}
      <p className="models-status" role="status" data-testid="remote-nodes-status">
        {status ?? ''}
      </p>
      {nodes && nodes.length > 0 && (
        <ul className="catalog-list" data-testid="remote-node-list">
          {nodes.map((node) => (
            <RemoteNodeRow key={node.id} node={node} onRemoved={setStatus} />
          ))}
        </ul>
      )}
      {nodes && nodes.length === 0 && (
        <p className="muted" data-testid="remote-nodes-empty">
          None added yet.
        </p>
      )}
      <AddNodeForm onAdded={(node) => setStatus(`Added ${remoteModelName(node)}.`)} />
    </section>
  );
}

interface FormInputs {
  url: string;
  apiKey: string;
  label: string;
  allowOffline: boolean;
}
const EMPTY: FormInputs = { url: '', apiKey: '', label: '', allowOffline: false };

function AddNodeForm({ onAdded }: { onAdded: (node: RemoteNode) => void }) {
  const probe = useAppStore((s) => s.nodeProbe);
  const checking = useAppStore((s) => s.nodesPending.has('probe'));
  const adding = useAppStore((s) => s.nodesPending.has('add'));
  const probeError = useAppStore((s) => s.nodesActionErrors['probe'] ?? null);
  const addError = useAppStore((s) => s.nodesActionErrors['add'] ?? null);
  const probeNode = useAppStore((s) => s.probeNode);
  const addNode = useAppStore((s) => s.addNode);
  const cancelNodeProbe = useAppStore((s) => s.cancelNodeProbe);
  const dismiss = useAppStore((s) => s.dismissNodesError);
  const [inputs, setInputs] = useState<FormInputs>(EMPTY);
  const urlRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const set = (patch: Partial<FormInputs>) => setInputs((current) => ({ ...current, ...patch }));
  // The answer shown is for the address and key it was asked with: they stay as asked until Add or Cancel.
  const shown = probe !== null;
  // Once the answer is gone (added or cancelled), the address field, enabled again, takes the focus back.
  const wasShown = useRef(false);
  useEffect(() => {
    if (wasShown.current && !shown) urlRef.current?.focus();
    wasShown.current = shown;
  }, [shown]);

  const check = async (event: FormEvent) => {
    event.preventDefault();
    if (checking || adding) return;
    await probeNode(inputs.url, inputs);
  };

  const add = async () => {
    const outcome = await addNode(inputs);
    if (outcome.ok) {
      setInputs(EMPTY);
      onAdded(outcome.value);
    }
  };

  return (
    <form className="folder-form remote-node-form" onSubmit={(e) => void check(e)} data-testid="remote-node-form">
      <h3>Add one</h3>
      <label className="field">
        <span>Address</span>
        <input
          ref={urlRef}
          data-testid="remote-node-url"
          value={inputs.url}
          spellCheck={false}
          autoComplete="off"
          placeholder="http://192.168.1.20:8080"
          aria-describedby={`${id}-url-hint`}
          disabled={shown}
          onChange={(e) => set({ url: e.target.value })}
        />
        <span className="hint" id={`${id}-url-hint`}>
          The server&apos;s address as you would open it, with or without /v1 (http:// when you give none). Use https
          where the server has a certificate: over plain http anyone on the network can read the conversation.
        </span>
      </label>
      <label className="field">
        <span>API key, if the server asks for one (kept sealed in Homebody, never shown again)</span>
        <input
          type="password"
          data-testid="remote-node-api-key"
          value={inputs.apiKey}
          autoComplete="off"
          disabled={shown}
          onChange={(e) => set({ apiKey: e.target.value })}
        />
      </label>
      <label className="field">
        <span>Name (optional)</span>
        <input
          data-testid="remote-node-label"
          value={inputs.label}
          maxLength={120}
          placeholder="The desktop in the study"
          onChange={(e) => set({ label: e.target.value })}
        />
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          data-testid="remote-node-allow-offline"
          checked={inputs.allowOffline}
          disabled={shown}
          onChange={(e) => set({ allowOffline: e.target.checked })}
        />
        <span>Allow this computer while Homebody is offline (a rule for its host only, listed on Privacy)</span>
      </label>
      {probeError && (
        <ErrorNotice error={probeError} testId="remote-node-probe-error" onDismiss={() => dismiss('probe')} />
      )}
      {probeError?.code === 'NETWORK_BLOCKED' && !inputs.allowOffline && (
        <p className="hint" data-testid="remote-node-offline-hint">
          Or tick &ldquo;Allow this computer while Homebody is offline&rdquo; above and check again: only its host is
          allowed.
        </p>
      )}
      {!shown && (
        <Button
          type="submit"
          variant="primary"
          data-testid="remote-node-check"
          disabled={checking || !inputs.url.trim()}
        >
          {checking ? 'Asking the server…' : 'Check'}
        </Button>
      )}
      {probe && (
        <ProbeAnswer
          probe={probe}
          adding={adding}
          error={addError}
          onAdd={() => void add()}
          onCancel={cancelNodeProbe}
          onDismissError={() => dismiss('add')}
        />
      )}
    </form>
  );
}

/** What the server answered, for the user to read before anything is saved. */
function ProbeAnswer({
  probe,
  adding,
  error,
  onAdd,
  onCancel,
  onDismissError,
}: {
  probe: NodeProbe;
  adding: boolean;
  error: AppError | null;
  onAdd: () => void;
  onCancel: () => void;
  onDismissError: () => void;
}) {
  const headingId = useId();
  const others = probe.models.filter((m) => m !== probe.model);
  // Check is gone once the answer shows: the focus goes to the answer, read first, where Esc cancels and Tab
  // reaches Cancel and Add.
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className="remote-probe"
      role="group"
      aria-labelledby={headingId}
      data-testid="remote-node-probe"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !adding) {
          event.preventDefault();
          onCancel();
        }
      }}
    >
      <h4 id={headingId}>{probe.url} answered</h4>
      <dl className="catalog-facts">
        <div>
          <dt>Model</dt>
          <dd data-testid="remote-node-probe-model">{probe.model}</dd>
        </div>
        <div>
          <dt>Context</dt>
          <dd>{probe.contextSize.toLocaleString()} tokens</dd>
        </div>
        <div>
          <dt>Spoken as</dt>
          <dd data-testid="remote-node-probe-protocol">{protocolLabel(probe.protocol)}</dd>
        </div>
      </dl>
      {others.length > 0 && (
        <p className="muted">
          It also lists {others.join(', ')}; Homebody will require {probe.model}, and refuse the server if it serves
          another.
        </p>
      )}
      {probe.fingerprint ? (
        <div className="remote-fingerprint" data-testid="remote-node-probe-fingerprint">
          <p>
            Its certificate&apos;s SHA-256 fingerprint. Compare it with the one on the server (for example{' '}
            <code>openssl x509 -noout -fingerprint -sha256 -in cert.pem</code>) before you add it: Homebody pins it, and
            refuses the server if it ever shows another.
          </p>
          <code className="path fingerprint">{probe.fingerprint}</code>
        </div>
      ) : (
        <p className="remote-warning" role="note" data-testid="remote-node-probe-plain-http">
          This server speaks plain http: the conversation crosses the network unencrypted, and nothing proves which
          computer answers. Use it only on a network you trust.
        </p>
      )}
      <p className="muted">{WHAT_GOES_THERE}</p>
      {error && <ErrorNotice error={error} testId="remote-node-add-error" onDismiss={onDismissError} />}
      <div className="dialog-actions">
        <Button data-testid="remote-node-cancel" onClick={onCancel} disabled={adding} aria-keyshortcuts="Escape">
          Cancel
        </Button>
        <Button variant="primary" data-testid="remote-node-add" onClick={onAdd} disabled={adding}>
          {adding ? 'Adding…' : 'Add this server'}
        </Button>
      </div>
    </div>
  );
}

/** A node the user added: what it serves, whether it is in use, Use, Remove and its offline rule. */
function RemoteNodeRow({ node, onRemoved }: { node: RemoteNode; onRemoved: (message: string) => void }) {
  const modelState = useAppStore((s) => s.modelState);
  const using = useAppStore((s) => s.nodesPending.has(`use:${node.id}`));
  const switching = useAppStore((s) => s.nodesPending.has(`offline:${node.id}`));
  const actionError = useAppStore((s) => s.nodesActionErrors[node.id] ?? null);
  const useNode = useAppStore((s) => s.useNode);
  const removeNode = useAppStore((s) => s.removeNode);
  const setNodeAllowOffline = useAppStore((s) => s.setNodeAllowOffline);
  const dismiss = useAppStore((s) => s.dismissNodesError);
  const [confirming, setConfirming] = useState(false);
  const engine = nodeEngineState(node, modelState);
  const headingId = `remote-node-${node.id}`;
  const connectError = modelState?.status === 'error' && engine === 'error' ? modelState.error : null;

  return (
    <li
      className="local-model"
      data-testid="remote-node"
      data-node-id={node.id}
      data-active={engine === 'ready' || engine === 'connecting' ? 'true' : 'false'}
      data-engine={engine}
      aria-labelledby={headingId}
    >
      <div className="local-model-main">
        <h3 id={headingId} className="catalog-name">
          <span data-testid="remote-node-name">{node.model}</span>
          <span className="muted"> on {node.label}</span>
          {engine === 'ready' && (
            <Badge tone="neutral" testId="remote-node-active">
              In use
            </Badge>
          )}
          {!node.fingerprint && (
            <Badge tone="warning" testId="remote-node-plain-http">
              Plain http
            </Badge>
          )}
        </h3>
        <p className="path">{node.url}</p>
        <dl className="catalog-facts">
          <div>
            <dt>Context</dt>
            <dd>{node.contextSize.toLocaleString()} tokens</dd>
          </div>
          <div>
            <dt>Spoken as</dt>
            <dd>{protocolLabel(node.protocol)}</dd>
          </div>
          <div>
            <dt>API key</dt>
            <dd>{node.hasApiKey ? 'Sealed in Homebody' : 'None'}</dd>
          </div>
          {node.fingerprint && (
            <div>
              <dt>Certificate</dt>
              <dd className="fingerprint" title={node.fingerprint}>
                Pinned: {node.fingerprint.slice(0, 23)}…
              </dd>
            </div>
          )}
        </dl>
        <label className="checkbox">
          <input
            type="checkbox"
            data-testid="remote-node-offline"
            checked={node.allowOffline}
            disabled={switching}
            onChange={(e) => void setNodeAllowOffline(node.id, e.target.checked)}
          />
          <span>Allowed while Homebody is offline</span>
        </label>
        {engine === 'connecting' && (
          <p className="loading-label" aria-busy="true">
            Connecting to {node.label}…
          </p>
        )}
        {engine === 'ready' && (
          <p className="muted" data-testid="remote-node-ready">
            Connected: the chat uses it. Each task asks before its first message goes there.
          </p>
        )}
        {actionError ? (
          <ErrorNotice error={actionError} testId="remote-node-error" onDismiss={() => dismiss(node.id)} />
        ) : (
          connectError && <ErrorNotice error={connectError} testId="remote-node-error" />
        )}
      </div>
      <div className="models-actions">
        <Button
          variant="primary"
          data-testid="remote-node-use"
          disabled={using || engine === 'connecting' || engine === 'ready'}
          aria-label={`Use ${remoteModelName(node)}`}
          onClick={() => void useNode(node.id)}
        >
          {using || engine === 'connecting' ? 'Connecting…' : engine === 'ready' ? 'In use' : 'Use'}
        </Button>
        <Button
          variant="danger"
          data-testid="remote-node-remove"
          aria-label={`Remove ${remoteModelName(node)}`}
          onClick={() => setConfirming(true)}
        >
          Remove
        </Button>
      </div>
      {confirming && (
        <ConfirmDialog
          title={`Remove ${remoteModelName(node)}?`}
          confirmLabel="Remove"
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            const outcome = await removeNode(node.id);
            if (!outcome.ok) return outcome.error;
            onRemoved(outcome.value.message);
            return null;
          }}
        >
          <p>
            Homebody forgets this computer, its sealed API key and its offline rule. Replies it wrote stay in your
            history, marked as written there.
          </p>
          {engine !== 'idle' && (
            <p>It is the model in use: it is closed first, and the chat waits for another model.</p>
          )}
        </ConfirmDialog>
      )}
    </li>
  );
}
