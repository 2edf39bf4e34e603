import type { HostEvent, mcpApiSchemas } from '../../../src-shared/contract/index.js';
import type { EgressGuard } from '../../privacy/egressGuard.js';
import type { SecretStore } from '../../privacy/secretStore.js';
import type { Store } from '../../store/store.js';
import { commandLines, type CommandConfirmer } from '../../tools/mcp/commandConfirmation.js';
import { McpManager } from '../../tools/mcp/mcpManager.js';
import { routeToolRunner } from '../../tools/mcp/mcpToolRouter.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ToolRunner } from '../../tools/sandbox/toolExecutor.js';
import type { HandlersOf } from '../handlers.js';
import { sealedMcpStore } from './sealedMcpStore.js';

type McpMethod = keyof typeof mcpApiSchemas;

export interface McpServiceDeps {
  readonly store: Store;
  readonly registry: ToolRegistry;
  readonly egress: EgressGuard;
  /** Seals the servers' environment and header values before they reach the database. */
  readonly secrets: SecretStore;
  readonly emit: (event: HostEvent) => void;
  /** The shell's way to ask the user to confirm a stdio server's command; none: no unconfirmed command runs. */
  readonly confirmer?: CommandConfirmer;
  readonly callTimeoutMs?: number;
  readonly startTimeoutMs?: number;
}

/**
 * MCP servers behind the contract: the manager (with its state in the store), the runner that sends MCP calls to
 * it and everything else to the sandboxed worker, and the handlers of the mcp.* methods. A server's environment
 * and headers stay here, their values sealed in the database; the views carry their names only, and nothing here
 * logs them. What the user decides about a server (its command confirmed or not, trust in its annotations) is
 * audited.
 */
export function createMcpService(deps: McpServiceDeps) {
  const stored = sealedMcpStore(deps.store.mcp, deps.secrets);
  const manager = new McpManager({
    store: stored,
    registry: deps.registry,
    // The guard sees each HTTP server before the connection and at every request, as feature `mcp`.
    egress: (url, purpose) => {
      deps.egress.check(url, 'mcp', purpose);
    },
    onChange: (servers) => deps.emit({ type: 'mcp.changed', servers }),
    ...(deps.confirmer ? { confirmer: deps.confirmer } : {}),
    onConfirmation: (request, outcome) =>
      deps.store.audit.append({
        at: Date.now(),
        taskId: null,
        callId: null,
        kind: outcome.confirmed ? 'mcp-command-confirmed' : 'mcp-command-declined',
        actor: 'user',
        summary: outcome.confirmed
          ? `Confirmed the command of the MCP server "${request.server}": ${commandLines(request)[0]}`
          : `The command of the MCP server "${request.server}" was not confirmed${outcome.reason ? `: ${outcome.reason}` : ' (cancelled)'}`,
        detail: { server: request.server, command: request.command, args: request.args, envKeys: request.envKeys },
      }),
    ...(deps.callTimeoutMs ? { callTimeoutMs: deps.callTimeoutMs } : {}),
    ...(deps.startTimeoutMs ? { startTimeoutMs: deps.startTimeoutMs } : {}),
  });
  const servers = () => ({ servers: manager.list() });
  let started: Promise<void> = Promise.resolve();
  const handlers: HandlersOf<McpMethod> = {
    'mcp.list': async () => servers(),
    'mcp.add': async ({ server }) => {
      manager.add([server]);
      return servers();
    },
    'mcp.import': async ({ text }) => {
      const added = manager.import(text);
      return { added, ...servers() };
    },
    'mcp.remove': async ({ name }) => {
      await manager.remove(name);
      return servers();
    },
    'mcp.setEnabled': async ({ name, enabled }) => {
      await manager.setEnabled(name, enabled);
      return servers();
    },
    'mcp.restart': async ({ name }) => {
      await manager.restart(name);
      return servers();
    },
    'mcp.confirmCommand': async ({ id, code }) => ({ accepted: deps.confirmer?.answer?.(id, code) ?? false }),
    'mcp.setTrustAnnotations': async ({ name, trust }) => {
      const before = manager.setTrustAnnotations(name, trust);
      if (before !== trust) {
        deps.store.audit.append({
          at: Date.now(),
          taskId: null,
          callId: null,
          kind: 'policy-changed',
          actor: 'user',
          summary: `${trust ? 'Trusts' : 'No longer trusts'} the annotations of the MCP server "${name}" (was ${before ? 'on' : 'off'})`,
          detail: { change: 'mcp-trust-annotations', server: name, from: before, to: trust },
        });
      }
      return servers();
    },
    'mcp.review': async ({ server, tool }) => {
      manager.review(server, tool);
      return servers();
    },
    'mcp.setRisk': async ({ server, tool, risk }) => {
      manager.setRisk(server, tool, risk);
      return servers();
    },
  };
  return {
    manager,
    handlers,
    /** The broker's runner: MCP tools to their servers, the rest to the worker. */
    runner: (worker: ToolRunner) => routeToolRunner(worker, manager),
    /** At start: seals values an older version stored in clear; answers whether anything was written. */
    sealStoredSecrets: (): boolean => stored.sealStored(),
    /** Starts the servers the user enabled, in the background: a failing one is shown failed, nothing else. */
    start: () => {
      started = manager.startEnabled();
    },
    /** Resolves once the servers started at launch run or failed (the CLI waits for it before using tools). */
    ready: (): Promise<void> => started,
    /** After "Delete all my data": the servers' rows are gone, so their processes stop and their tools go. */
    async afterWipe(): Promise<void> {
      for (const server of manager.list()) await manager.remove(server.name);
    },
    dispose: () => manager.dispose(),
  };
}
export type McpService = ReturnType<typeof createMcpService>;
