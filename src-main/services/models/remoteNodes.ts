/**
 * The models on other computers the user added ("a model on another computer" on the Models page): asked first
 * (probe), then added with the certificate the user saw pinned, used as the chat's model under `remote:<id>`, and
 * removed with what they brought (their sealed API key, their offline rule).
 *
 * Every request to a node passes the egress guard as feature `remote-model`, naming the node and what it carries;
 * offline mode refuses it unless the user let this host through (a `remote-model` rule for it).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  HomebodyError,
  REMOTE_PREFIX,
  RemoteNodeSchema,
  isRemoteReference,
  remoteReference,
  type ModelState,
  type NetworkRule,
  type NodeCheck,
  type NodeProbe,
  type RemoteNode,
} from '../../../src-shared/contract/index.js';
import { RemoteEngine, type RemoteEngineOptions } from '../../llm/remote/remoteEngine.js';
import type { NodeEndpoint, NodeGate, NodeTimeouts } from '../../llm/remote/nodeRequest.js';
import type { EgressGuard } from '../../privacy/egressGuard.js';
import type { SecretStore } from '../../privacy/secretStore.js';
import type { SettingsRepo } from '../../store/repos/settingsRepo.js';

/** Where the nodes are kept in the settings table. */
export const REMOTE_NODES_KEY = 'remoteNodes';

/** The Doctor's measurement of a node: a few seconds to connect and to answer a 16-token reply to a short prompt. */
const CHECK_TIMEOUTS: NodeTimeouts = { connectMs: 3000, firstByteMs: 20_000, idleMs: 10_000 };

/** A node as the settings table keeps it: as the contract shows it, with its API key sealed in place of whether it has one. */
const StoredNodeSchema = RemoteNodeSchema.omit({ hasApiKey: true, active: true }).extend({
  /** The API key sealed by the secret store; never the key itself. */
  apiKeySealed: z.string().nullable(),
});
type StoredNode = z.infer<typeof StoredNodeSchema>;

export interface RemoteNodesDeps {
  readonly settings: SettingsRepo;
  readonly secrets: SecretStore;
  readonly guard: EgressGuard;
  /** The model in use now, to mark the node that serves it. */
  readonly modelState: () => ModelState;
  /** Adds a network rule as the user's (audited like one made on the Privacy page). */
  readonly allowHost: (rule: NetworkRule) => Promise<unknown>;
  /** Takes a rule away again (when its node goes and no other node needs it). */
  readonly disallowHost: (rule: NetworkRule) => Promise<unknown>;
  /** The system prompt and thinking choice a node's replies use, as the local model's do. */
  readonly systemPrompt: () => string;
  readonly enableThinking: () => boolean | undefined;
  /** Tests only: the engines' timeouts and steering. */
  readonly engineOptions?: Partial<Pick<RemoteEngineOptions, 'timeouts' | 'steering' | 'protocol'>>;
}

export interface AddNodeRequest {
  readonly url: string;
  readonly apiKey?: string;
  readonly fingerprint?: string;
  readonly model?: string;
  readonly label?: string;
  readonly allowOffline?: boolean;
}

/**
 * A node's URL as Homebody keeps it: http or https, no credentials or query in it, and without the `/v1` an
 * OpenAI-style configuration usually ends with (the API's paths are added to it).
 */
export function nodeUrl(typed: string): string {
  const trimmed = typed.trim();
  // "192.168.1.20:8080" or "localhost:8080", as people copy an address: http, as llama-server and vLLM serve by
  // default (the check then says it is plain http). A scheme that is given is taken as it is.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new HomebodyError(
      'INVALID_REQUEST',
      `"${typed}" is not a URL: give the server's address as http://HOST:PORT (for llama-server, the address it prints at start).`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HomebodyError(
      'INVALID_REQUEST',
      `A model on another computer is reached over http or https, not ${url.protocol}`,
    );
  }
  if (url.username || url.password) {
    throw new HomebodyError(
      'INVALID_REQUEST',
      'Leave the user name and password out of the URL: give an API key in its own field, where it is kept sealed.',
    );
  }
  if (url.search || url.hash) {
    throw new HomebodyError('INVALID_REQUEST', "Give the server's address without a query or #fragment.");
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

/** The host an offline rule names for a node (no port: rules are by host). */
function ruleFor(url: string): NetworkRule {
  return { feature: 'remote-model', host: new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase() };
}

export class RemoteNodes {
  constructor(private readonly deps: RemoteNodesDeps) {}

  private stored(): StoredNode[] {
    const raw = this.deps.settings.get(REMOTE_NODES_KEY);
    if (!Array.isArray(raw)) return [];
    return raw.flatMap((entry) => {
      const parsed = StoredNodeSchema.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    });
  }

  private save(nodes: readonly StoredNode[]): void {
    if (nodes.length === 0) this.deps.settings.delete(REMOTE_NODES_KEY);
    else this.deps.settings.set(REMOTE_NODES_KEY, nodes);
  }

  /**
   * At start: an API key sealed otherwise than the secret store seals now (the key file, once the OS keychain is
   * there) is sealed again, as the packs' and MCP servers' secrets are. One that cannot be opened is kept as it is: it
   * may open again if its key comes back. Answers whether anything was written.
   */
  sealStoredSecrets(): boolean {
    const { secrets } = this.deps;
    let resealed = false;
    const nodes = this.stored().map((node) => {
      if (node.apiKeySealed === null || secrets.isCurrent(node.apiKeySealed)) return node;
      const plain = secrets.open(node.apiKeySealed, `the API key of ${node.label}`);
      if (plain === null) return node;
      resealed = true;
      return { ...node, apiKeySealed: secrets.seal(plain) };
    });
    if (resealed) this.save(nodes);
    return resealed;
  }

  list(): RemoteNode[] {
    const state = this.deps.modelState();
    const inUse = state.status === 'ready' ? state.info.path : state.status === 'loading' ? state.path : null;
    return this.stored().map(({ apiKeySealed, ...node }) => ({
      ...node,
      hasApiKey: apiKeySealed !== null,
      active: inUse === remoteReference(node.id),
    }));
  }

  private find(id: string): StoredNode {
    const node = this.stored().find((n) => n.id === id);
    if (!node) {
      throw new HomebodyError(
        'MODEL_NOT_FOUND',
        `There is no model on another computer with id ${id}; it may have been removed.`,
      );
    }
    return node;
  }

  private view(id: string): RemoteNode {
    return this.list().find((n) => n.id === id)!;
  }

  /** The node a reference (`remote:<id>`) or an id names; MODEL_NOT_FOUND when there is none (it was removed). */
  get(referenceOrId: string): RemoteNode {
    const id = isRemoteReference(referenceOrId) ? referenceOrId.slice(REMOTE_PREFIX.length) : referenceOrId;
    return this.view(this.find(id).id);
  }

  private gate(label: string): NodeGate {
    return (url, carried) => this.deps.guard.check(url, 'remote-model', label, carried);
  }

  private engine(node: NodeEndpoint, extra: Partial<RemoteEngineOptions>): RemoteEngine {
    return new RemoteEngine({
      node,
      gate: this.gate(node.label),
      systemPrompt: this.deps.systemPrompt(),
      enableThinking: this.deps.enableThinking,
      ...this.deps.engineOptions,
      ...extra,
    });
  }

  /** Connects once, saving nothing; a node that cannot be reached or answers badly rejects with why. */
  private async connect(node: NodeEndpoint, expectedModel?: string) {
    const engine = this.engine(node, expectedModel ? { expectedModel } : {});
    try {
      const state = await engine.load();
      if (state.status === 'error') throw new HomebodyError(state.error.code, state.error.message);
      return engine.connection!;
    } finally {
      await engine.dispose();
    }
  }

  /**
   * Allows a node's host while offline for `use`, then takes that rule away again unless `keep` says the node now
   * needs it: a probe saves nothing, and an add that fails leaves no permission behind. A rule that was there
   * already (another node's, or one the user made on the Privacy page) is left as it was.
   */
  private async withOfflineRule<T>(url: string, allow: boolean | undefined, use: () => Promise<T>, keep = false) {
    const rule = ruleFor(url);
    const added =
      allow === true &&
      !this.deps.guard.settings().rules.some((r) => r.feature === rule.feature && r.host === rule.host);
    if (added) await this.deps.allowHost(rule);
    let kept = false;
    try {
      const result = await use();
      kept = keep;
      return result;
    } finally {
      if (added && !kept) await this.deps.disallowHost(rule);
    }
  }

  async probe(typedUrl: string, apiKey?: string, allowOffline?: boolean): Promise<NodeProbe> {
    const url = nodeUrl(typedUrl);
    const found = await this.withOfflineRule(url, allowOffline, () =>
      this.connect({ url, label: `the server at ${new URL(url).host}`, ...(apiKey ? { apiKey } : {}) }),
    );
    return {
      url,
      model: found.model,
      models: [...found.models],
      contextSize: found.contextSize,
      protocol: found.protocol,
      fingerprint: found.fingerprint ?? null,
      plainHttp: url.startsWith('http:'),
    };
  }

  async add(request: AddNodeRequest): Promise<RemoteNode> {
    const url = nodeUrl(request.url);
    const https = url.startsWith('https:');
    const nodes = this.stored();
    const twin = nodes.find((n) => n.url === url);
    if (twin) throw new HomebodyError('MODEL_ALREADY_PRESENT', `${twin.label} (${url}) is already added.`);
    if (https && !request.fingerprint) {
      throw new HomebodyError(
        'INVALID_REQUEST',
        "Check the server first: its certificate's fingerprint is pinned as the one you saw, so it must be given.",
      );
    }
    if (!https && request.fingerprint) {
      throw new HomebodyError('INVALID_REQUEST', 'A server reached over plain http shows no certificate to pin.');
    }
    const host = new URL(url).host;
    const label = request.label?.trim() || `the server at ${host}`;
    // Connected again with the pin and the model required: a server that changed since the probe is refused here.
    const found = await this.withOfflineRule(
      url,
      request.allowOffline,
      () =>
        this.connect(
          {
            url,
            label,
            ...(request.apiKey ? { apiKey: request.apiKey } : {}),
            ...(request.fingerprint ? { fingerprint: request.fingerprint } : {}),
          },
          request.model,
        ),
      true,
    );
    const node: StoredNode = {
      id: randomUUID().slice(0, 8),
      label,
      url,
      model: found.model,
      contextSize: found.contextSize,
      protocol: found.protocol,
      fingerprint: request.fingerprint ?? null,
      apiKeySealed: request.apiKey ? this.deps.secrets.seal(request.apiKey) : null,
      allowOffline: request.allowOffline === true,
      addedAt: Date.now(),
    };
    this.save([...this.stored(), node]);
    return this.view(node.id);
  }

  /** Forgets the node; answers the offline rule to take away when no other node shares its host. */
  async remove(id: string): Promise<{ id: string; message: string }> {
    const node = this.find(id);
    const rest = this.stored().filter((n) => n.id !== id);
    this.save(rest);
    const rule = ruleFor(node.url);
    if (node.allowOffline && !rest.some((n) => n.allowOffline && ruleFor(n.url).host === rule.host)) {
      await this.deps.disallowHost(rule);
    }
    return { id, message: `Removed ${node.label} (${node.url}); its API key and offline permission went with it.` };
  }

  async setAllowOffline(id: string, allow: boolean): Promise<RemoteNode> {
    const node = this.find(id);
    const rule = ruleFor(node.url);
    const others = this.stored().filter((n) => n.id !== id && n.allowOffline && ruleFor(n.url).host === rule.host);
    if (allow) await this.deps.allowHost(rule);
    else if (others.length === 0) await this.deps.disallowHost(rule);
    this.save(this.stored().map((n) => (n.id === id ? { ...n, allowOffline: allow } : n)));
    return this.view(id);
  }

  /** Every node measured, one after the other (the Doctor's report): a node that fails says why, the rest go on. */
  async checks(): Promise<NodeCheck[]> {
    // All at once, each on short timeouts: the Doctor's report waits for the slowest, not for each in turn, and a
    // node that does not answer costs seconds, not the minutes a long prompt on a chat's reply may take.
    const timeouts = { ...CHECK_TIMEOUTS, ...this.deps.engineOptions?.timeouts };
    return Promise.all(
      this.stored().map(async (node): Promise<NodeCheck> => {
        const base = { id: node.id, label: node.label, url: node.url, model: node.model };
        let engine: RemoteEngine | undefined;
        try {
          engine = this.engineFor(remoteReference(node.id), { timeouts });
          const { roundTripMs, result } = await engine.measure();
          return {
            ...base,
            roundTripMs: Math.round(roundTripMs),
            ttftMs: result.stats.ttftMs,
            tokensPerSecond: result.stats.tokensPerSecond,
            completionTokens: result.stats.completionTokens,
            error: null,
          };
        } catch (error) {
          const known = error instanceof HomebodyError ? error : new HomebodyError('INTERNAL', String(error));
          const none = { roundTripMs: null, ttftMs: null, tokensPerSecond: null, completionTokens: null };
          return { ...base, ...none, error: { code: known.code, message: known.message } };
        } finally {
          await engine?.dispose();
        }
      }),
    );
  }

  /** A fresh engine for `remote:<id>` (RoutedEngine's openRemote). */
  engineFor(reference: string, extra: Partial<RemoteEngineOptions> = {}): RemoteEngine {
    const node = this.find(reference.slice(REMOTE_PREFIX.length));
    const apiKey = node.apiKeySealed === null ? undefined : this.deps.secrets.openOrThrow(node.apiKeySealed);
    return this.engine(
      {
        url: node.url,
        label: node.label,
        ...(apiKey ? { apiKey } : {}),
        ...(node.fingerprint ? { fingerprint: node.fingerprint } : {}),
      },
      { reference, expectedModel: node.model, ...extra },
    );
  }
}
