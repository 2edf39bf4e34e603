import {
  HomebodyError,
  type McpServerConfig,
  type McpServerStatus,
  type McpServerView,
  type McpToolDefinition,
  type McpToolView,
  type Risk,
} from '../../../src-shared/contract/index.js';
import type { ToolRegistry } from '../registry.js';
import { ToolError, type JsonValue, type ToolDefinition, type ToolForPeople, type ToolOutcome } from '../toolTypes.js';
import {
  commandFingerprint,
  commandLines,
  commandToConfirm,
  type CommandConfirmer,
  type CommandToConfirm,
  type ConfirmationOutcome,
  type PendingConfirmation,
} from './commandConfirmation.js';
import { parseMcpJson, parseServerConfig, transportView } from './mcpConfig.js';
import { McpConnection, type EgressCheck } from './mcpConnection.js';
import {
  definitionHash,
  definitionOf,
  describeMcpCall,
  mcpForPeople,
  mcpToolName,
  mcpToolRisk,
  offerableSchema,
  reachesOutFromAnnotations,
  shortDescription,
  type ListedTool,
} from './mcpToolDefinition.js';

/** A server as stored: its configuration (with secrets), whether the user enabled it, whether trust was set. */
export interface StoredMcpServer {
  readonly name: string;
  readonly config: unknown;
  readonly enabled: boolean;
  /** The user's trust in its tool definitions was recorded (at the first start after enabling it). */
  readonly trusted: boolean;
  /** The user trusts its annotations: a tool that claims to be read-only is a read. */
  readonly trustAnnotations: boolean;
  /** The digest of the stdio command the user confirmed (commandFingerprint), or null. */
  readonly confirmedCommand: string | null;
}

export interface TrustedTool {
  readonly hash: string;
  readonly definition: McpToolDefinition;
}

/** What the manager keeps across restarts (src-main/store/repos/mcpRepo.ts). */
export interface McpStore {
  list(): StoredMcpServer[];
  /** Adds all, or none when one name is taken (throws). */
  add(configs: readonly McpServerConfig[], now: number): void;
  remove(name: string): void;
  setEnabled(name: string, enabled: boolean): void;
  setTrustAnnotations(name: string, trust: boolean): void;
  confirmCommand(name: string, fingerprint: string): void;
  /** Records the trust of a server's tools, all at once: the definitions and the server's trusted flag. */
  trust(name: string, tools: ReadonlyMap<string, TrustedTool>, now: number): void;
  trustedTools(name: string): Map<string, TrustedTool>;
  overrides(name: string): Map<string, Risk>;
  setOverride(name: string, tool: string, risk: Risk | null): void;
}

export interface McpManagerOptions {
  readonly store: McpStore;
  readonly registry: ToolRegistry;
  readonly egress: EgressCheck;
  /** The servers changed (status, tools, a review); the whole list, as the UI shows it. */
  readonly onChange?: (servers: McpServerView[]) => void;
  /**
   * Asks the user to confirm a stdio server's command before it first runs (the shell's dialog). Without it, no
   * command the user has not confirmed runs: such a server is shown as waiting for a confirmation in the app.
   */
  readonly confirmer?: CommandConfirmer;
  /** The user answered a confirmation (for the audit log). */
  readonly onConfirmation?: (request: CommandToConfirm, outcome: ConfirmationOutcome) => void;
  /** Per call; default 60 s. */
  readonly callTimeoutMs?: number;
  /** Spawn, initialize and list tools; default 30 s. */
  readonly startTimeoutMs?: number;
  readonly now?: () => number;
}

interface ServerState {
  readonly name: string;
  readonly config: McpServerConfig | null;
  enabled: boolean;
  trusted: boolean;
  trustAnnotations: boolean;
  confirmedCommand: string | null;
  /** While the page is asked to confirm its command (browser mode). */
  confirmation: PendingConfirmation | null;
  /** While the user is asked to confirm its command, in any shell. */
  confirming: boolean;
  status: McpServerStatus;
  error: string | null;
  connection: McpConnection | undefined;
  /** The tools as the server last listed them; kept while it is stopped, so the user sees what it had. */
  listed: ListedTool[];
  /** Bumped at every start and stop, so late news of an older connection is ignored. */
  generation: number;
  /** Stops the start under way, if any: a server that never answers is not waited for once it is stopped. */
  starting: AbortController | null;
  views: McpToolView[];
  skipped: Array<{ tool: string; reason: string }>;
  /** Homebody name → the server's name, for the tools this server has now (held or offered). */
  names: Map<string, string>;
  /** Why a known tool cannot run now, by Homebody name. */
  unavailable: Map<string, string>;
}

const sourceOf = (server: string) => `mcp:${server}`;

/** The command this server would run, if the user has not confirmed it as it is now; null when nothing is to confirm. */
function unconfirmedCommand(state: ServerState): CommandToConfirm | null {
  const request = state.config ? commandToConfirm(state.config) : null;
  if (!request) return null;
  return state.confirmedCommand === commandFingerprint(request) ? null : request;
}

const notConfirmedNote = (request: CommandToConfirm) =>
  `Not started: you have not confirmed its command yet (${commandLines(request)[0]}). Press Restart to see it and confirm it.`;

/**
 * MCP servers as tool sources: started only when the user enabled them (a stdio server only once the user has
 * confirmed its exact command in the app), their tools registered as they come and go with a risk read from their
 * annotations as claims, held when their definition changed since the user trusted it, and called with a timeout.
 * A server that crashes or hangs is shown failed with the reason; nothing else stops, and the user can restart it.
 */
export class McpManager {
  private readonly servers = new Map<string, ServerState>();
  private readonly now: () => number;
  private readonly callTimeoutMs: number;
  private readonly startTimeoutMs: number;
  private disposed = false;

  constructor(private readonly options: McpManagerOptions) {
    this.now = options.now ?? Date.now;
    this.callTimeoutMs = options.callTimeoutMs ?? 60_000;
    this.startTimeoutMs = options.startTimeoutMs ?? 30_000;
    for (const stored of options.store.list()) this.servers.set(stored.name, this.stateFor(stored));
    for (const state of this.servers.values()) this.refresh(state);
  }

  /** Starts every server the user enabled (at launch); each one's failure is its own. */
  async startEnabled(): Promise<void> {
    await Promise.all([...this.servers.values()].filter((s) => s.enabled).map((s) => this.start(s)));
  }

  list(): McpServerView[] {
    return [...this.servers.values()].map((state) => ({
      name: state.name,
      transport: state.config
        ? transportView(state.config)
        : { kind: 'stdio' as const, command: '', args: [], envKeys: [] },
      enabled: state.enabled,
      trustAnnotations: state.trustAnnotations,
      needsConfirmation: unconfirmedCommand(state) !== null,
      confirmation: state.confirmation,
      status: state.status,
      error: state.error,
      tools: state.views,
      skipped: state.skipped,
    }));
  }

  /** Adds servers, disabled; all or none. */
  add(raw: readonly unknown[]): string[] {
    const configs = raw.map((r) => parseServerConfig(r));
    this.addParsed(configs);
    return configs.map((c) => c.name);
  }

  /** Adds every server of an mcp.json text, disabled; all or none. Answers their names. */
  import(text: string): string[] {
    const configs = parseMcpJson(text);
    this.addParsed(configs);
    return configs.map((c) => c.name);
  }

  async remove(name: string): Promise<void> {
    const state = this.server(name);
    this.cancelConfirmation(state);
    await this.stop(state);
    this.servers.delete(name);
    this.options.store.remove(name);
    this.options.registry.setSource(sourceOf(name), []);
    this.changed();
  }

  /**
   * Enabling starts the server and resolves once it runs or failed; disabling stops it. A command the user has not
   * confirmed is shown to them first, and this waits for their answer: declined, the server stays off.
   */
  async setEnabled(name: string, enabled: boolean): Promise<void> {
    const state = this.server(name);
    // Switched off while its command waits for the user: the question goes, and nothing starts.
    if (!enabled) this.cancelConfirmation(state);
    if (enabled && !(await this.confirmed(state))) return;
    this.options.store.setEnabled(name, enabled);
    state.enabled = enabled;
    if (enabled) await this.start(state);
    else await this.stop(state);
  }

  async restart(name: string): Promise<void> {
    const state = this.server(name);
    if (!state.enabled) throw new HomebodyError('INVALID_REQUEST', `The MCP server "${name}" is off; enable it first.`);
    if (!(await this.confirmed(state))) return;
    await this.stop(state);
    await this.start(state);
  }

  /** Whether to believe what this server's annotations claim (a read-only tool a read); answers the old value. */
  setTrustAnnotations(name: string, trust: boolean): boolean {
    const state = this.server(name);
    const before = state.trustAnnotations;
    this.options.store.setTrustAnnotations(name, trust);
    state.trustAnnotations = trust;
    this.refresh(state);
    this.changed();
    return before;
  }

  /** The user accepts a held tool's current definition: it is trusted from now on and offered again. */
  review(name: string, tool: string): void {
    const state = this.server(name);
    const listed = state.listed.find((t) => t.name === tool);
    if (!listed) throw new HomebodyError('INVALID_REQUEST', `The MCP server "${name}" has no tool "${tool}".`);
    const definition = definitionOf(listed);
    this.options.store.trust(name, new Map([[tool, { hash: definitionHash(definition), definition }]]), this.now());
    this.refresh(state);
    this.changed();
  }

  setRisk(name: string, tool: string, risk: Risk | null): void {
    const state = this.server(name);
    if (!state.listed.some((t) => t.name === tool))
      throw new HomebodyError('INVALID_REQUEST', `The MCP server "${name}" has no tool "${tool}".`);
    this.options.store.setOverride(name, tool, risk);
    this.refresh(state);
    this.changed();
  }

  /** Whether a Homebody tool name is an MCP tool (offered, held or of a stopped server). */
  owns(toolName: string): boolean {
    return this.find(toolName) !== undefined;
  }

  /**
   * Calls an MCP tool that the broker has checked and allowed. Its result is always untrusted content: it came
   * from a program outside Homebody, so it taints the task.
   */
  async call(toolName: string, args: Record<string, JsonValue>, signal?: AbortSignal): Promise<ToolOutcome> {
    const found = this.find(toolName);
    if (!found) throw new ToolError('NOT_FOUND', `There is no MCP tool named ${toolName}.`);
    const { state, tool } = found;
    // Checked again here: the definition may have changed while the call waited in the queue.
    const unavailable = state.unavailable.get(toolName);
    if (unavailable) throw new ToolError('UNAVAILABLE', unavailable);
    const connection = state.connection;
    if (!connection) throw new ToolError('UNAVAILABLE', `The MCP server "${state.name}" is not running.`);
    const generation = state.generation;
    try {
      const { text, isError } = await connection.call(tool, args, { timeoutMs: this.callTimeoutMs, signal });
      return {
        result: isError ? `The tool reported an error: ${text}` : text,
        untrustedSource: `MCP server ${state.name}`,
      };
    } catch (error) {
      // A call that timed out leaves the server running (it may answer the next one); the user is shown why.
      if (generation === state.generation && state.status === 'running') {
        state.error = error instanceof Error ? error.message : String(error);
        this.changed();
      }
      throw error;
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.servers.values()].map((s) => this.stop(s, false)));
  }

  private addParsed(configs: readonly McpServerConfig[]): void {
    const names = new Set<string>();
    for (const config of configs) {
      if (this.servers.has(config.name) || names.has(config.name))
        throw new HomebodyError('INVALID_REQUEST', `An MCP server named "${config.name}" already exists.`);
      names.add(config.name);
    }
    this.options.store.add(configs, this.now());
    for (const config of configs) {
      const state = this.stateFor({
        name: config.name,
        config,
        enabled: false,
        trusted: false,
        trustAnnotations: false,
        confirmedCommand: null,
      });
      this.servers.set(config.name, state);
      this.refresh(state);
    }
    this.changed();
  }

  private stateFor(stored: StoredMcpServer): ServerState {
    let config: McpServerConfig | null = null;
    let error: string | null = null;
    try {
      config = parseServerConfig(stored.config);
    } catch (e) {
      error = (e as Error).message;
    }
    return {
      name: stored.name,
      config,
      enabled: stored.enabled,
      trusted: stored.trusted,
      trustAnnotations: stored.trustAnnotations,
      confirmedCommand: stored.confirmedCommand,
      confirmation: null,
      confirming: false,
      status: error ? 'failed' : 'stopped',
      error,
      connection: undefined,
      listed: [],
      generation: 0,
      starting: null,
      views: [],
      skipped: [],
      names: new Map(),
      unavailable: new Map(),
    };
  }

  private server(name: string): ServerState {
    const state = this.servers.get(name);
    if (!state) throw new HomebodyError('INVALID_REQUEST', `There is no MCP server named "${name}".`);
    return state;
  }

  private find(toolName: string): { state: ServerState; tool: string } | undefined {
    for (const state of this.servers.values()) {
      const tool = state.names.get(toolName);
      if (tool !== undefined) return { state, tool };
    }
    return undefined;
  }

  /**
   * Whether the server's command may run: nothing to confirm, confirmed before as it is now, or confirmed by the user
   * just now (asked through the shell's confirmer, and recorded). Declined, the server is left off with the reason.
   */
  private async confirmed(state: ServerState): Promise<boolean> {
    const request = unconfirmedCommand(state);
    if (!request) return true;
    const { confirmer } = this.options;
    if (!confirmer) {
      throw new HomebodyError(
        'INVALID_REQUEST',
        `The MCP server "${state.name}" runs a command that you have not confirmed; enable it in the Homebody app, which shows you the command first.`,
      );
    }
    if (state.confirming) {
      throw new HomebodyError(
        'INVALID_REQUEST',
        `The command of the MCP server "${state.name}" is already waiting for your confirmation.`,
      );
    }
    state.confirming = true;
    let outcome: ConfirmationOutcome;
    try {
      outcome = await confirmer.confirm(request, (pending) => {
        state.confirmation = pending;
        this.changed();
      });
    } catch (error) {
      outcome = { confirmed: false, reason: error instanceof Error ? error.message : String(error) };
    } finally {
      state.confirming = false;
      state.confirmation = null;
    }
    this.options.onConfirmation?.(request, outcome);
    // Removed (or replaced) while the user was asked: nothing of this request may start anything.
    if (this.disposed || this.servers.get(state.name) !== state) return false;
    if (!outcome.confirmed) {
      if (state.status !== 'running') state.status = 'stopped';
      // An enabled server that waits for its confirmation keeps saying so; a cancelled switch-on needs no word.
      state.error = outcome.reason ?? (state.enabled ? notConfirmedNote(request) : null);
      this.changed();
      return false;
    }
    const fingerprint = commandFingerprint(request);
    this.options.store.confirmCommand(state.name, fingerprint);
    state.confirmedCommand = fingerprint;
    return true;
  }

  /** A question still open in the page ends as cancelled: the server it was about is removed or switched off. */
  private cancelConfirmation(state: ServerState): void {
    if (state.confirmation) this.options.confirmer?.answer?.(state.confirmation.id, null);
  }

  private async start(state: ServerState): Promise<void> {
    if (this.disposed) return;
    const config = state.config;
    if (!config) return;
    // The one place a server is started: a command the user has not confirmed never runs, whoever asked.
    const unconfirmed = unconfirmedCommand(state);
    if (unconfirmed) {
      await this.stop(state, false);
      state.status = 'stopped';
      state.error = notConfirmedNote(unconfirmed);
      this.refresh(state);
      this.changed();
      return;
    }
    await this.stop(state, false);
    const generation = ++state.generation;
    const current = () => generation === state.generation && !this.disposed;
    state.status = 'starting';
    state.error = null;
    this.refresh(state);
    this.changed();
    const starting = new AbortController();
    state.starting = starting;
    try {
      const { connection, tools } = await McpConnection.open({
        config,
        signal: starting.signal,
        startTimeoutMs: this.startTimeoutMs,
        egress: this.options.egress,
        onToolsChanged: (listed) => {
          if (!current()) return;
          if (listed instanceof Error) state.error = `Could not list its tools again: ${listed.message}`;
          else state.listed = listed;
          this.refresh(state);
          this.changed();
        },
        onClosed: (why) => {
          if (!current()) return;
          state.connection = undefined;
          state.status = 'failed';
          state.error = `${why} Restart it when you want it back.`;
          this.refresh(state);
          this.changed();
        },
      });
      if (!current() || !state.enabled) {
        await connection.close();
        return;
      }
      state.connection = connection;
      state.listed = tools;
      state.status = 'running';
      if (!state.trusted) this.trustAll(state);
    } catch (error) {
      if (!current()) return;
      state.status = 'failed';
      state.error = error instanceof Error ? error.message : String(error);
    } finally {
      if (state.starting === starting) state.starting = null;
    }
    this.refresh(state);
    this.changed();
  }

  /** Enabling a server is the user's trust in the tools it has then; what changes later is held for review. */
  private trustAll(state: ServerState): void {
    const tools = new Map<string, { hash: string; definition: McpToolDefinition }>();
    for (const listed of state.listed) {
      const definition = definitionOf(listed);
      tools.set(listed.name, { hash: definitionHash(definition), definition });
    }
    this.options.store.trust(state.name, tools, this.now());
    state.trusted = true;
  }

  private async stop(state: ServerState, announce = true): Promise<void> {
    const connection = state.connection;
    state.starting?.abort();
    state.starting = null;
    state.generation++;
    state.connection = undefined;
    if (state.status === 'running' || state.status === 'starting') state.status = 'stopped';
    if (!state.enabled && state.status === 'failed' && state.config) state.status = 'stopped';
    if (announce) {
      this.refresh(state);
      this.changed();
    }
    await connection?.close();
  }

  /** Works out the server's tools (offered, held, skipped) from what it listed, and updates the registry. */
  private refresh(state: ServerState): void {
    const { store, registry } = this.options;
    const source = sourceOf(state.name);
    const trusted = store.trustedTools(state.name);
    const overrides = store.overrides(state.name);
    const views: McpToolView[] = [];
    const skipped: Array<{ tool: string; reason: string }> = [];
    const names = new Map<string, string>();
    const unavailable = new Map<string, string>();
    const offered: ToolDefinition[] = [];
    const notRunning =
      state.status === 'running'
        ? null
        : state.status === 'failed'
          ? `the MCP server "${state.name}" is not running (${state.error ?? 'it failed'}); restart it in Settings`
          : `the MCP server "${state.name}" is ${state.enabled ? 'starting' : 'switched off'}`;

    for (const listed of state.listed) {
      const name = mcpToolName(state.name, listed.name);
      const clash =
        [...names.keys()].find((other) => other.startsWith(name) || name.startsWith(other)) ??
        registry.clashElsewhere(name, source);
      if (clash) {
        skipped.push({
          tool: listed.name,
          reason: `its name ${name} ${clash === name ? 'is taken' : `begins alike with ${clash}`} (a name must not begin another)`,
        });
        continue;
      }
      const offerable = offerableSchema(listed.inputSchema);
      if ('reason' in offerable) {
        skipped.push({ tool: listed.name, reason: offerable.reason });
        continue;
      }
      const definition = definitionOf(listed);
      const trust = trusted.get(listed.name);
      const held =
        state.trusted && trust?.hash !== definitionHash(definition)
          ? { trusted: trust?.definition ?? null, current: definition }
          : null;
      const override = overrides.get(listed.name) ?? null;
      const risk = mcpToolRisk(listed.annotations, state.trustAnnotations, override);
      const description = shortDescription(definition.description, state.name);
      views.push({
        name,
        tool: listed.name,
        description,
        risk: risk.risk,
        annotationRisk: risk.annotationRisk,
        override,
        claim: risk.claim,
        alwaysAsk: risk.alwaysAsk,
        held,
      });
      names.set(name, listed.name);
      if (held) {
        unavailable.set(
          name,
          `${name} changed since you trusted it; review it in Settings (MCP server "${state.name}") before it can run.`,
        );
      } else if (notRunning) {
        unavailable.set(name, `${name} cannot run now: ${notRunning}.`);
      } else {
        offered.push(
          this.toolDefinition(state.name, listed.name, name, description, offerable.schema, {
            forPeople: mcpForPeople(listed, state.name),
            risk: risk.risk,
            alwaysAsk: risk.alwaysAsk,
            reachesOut: reachesOutFromAnnotations(listed.annotations, state.trustAnnotations),
          }),
        );
      }
    }
    try {
      registry.setSource(source, offered, unavailable);
    } catch (error) {
      // Another source took a name since the check above; nothing of this server is offered until a restart.
      registry.setSource(source, [], unavailable);
      state.error = (error as Error).message;
    }
    Object.assign(state, { views, skipped, names, unavailable });
  }

  private toolDefinition(
    server: string,
    tool: string,
    name: string,
    description: string,
    parameters: ToolDefinition['parameters'],
    gating: { forPeople: ToolForPeople; risk: Risk; alwaysAsk: boolean; reachesOut: boolean },
  ): ToolDefinition {
    // What it touches is not known (`touches` stays unset): its badge says only its risk.
    return {
      name,
      description,
      parameters,
      forPeople: gating.forPeople,
      risk: gating.risk,
      ...(gating.alwaysAsk ? { alwaysAsk: true } : {}),
      reachesOut: gating.reachesOut,
      describe: (args) => describeMcpCall(server, tool, args as Record<string, JsonValue>),
      run: (args, context) => this.call(name, args as Record<string, JsonValue>, context.signal),
    };
  }

  private changed(): void {
    if (!this.disposed) this.options.onChange?.(this.list());
  }
}
