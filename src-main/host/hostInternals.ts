import type { AppError, Policy } from '../../src-shared/contract/index.js';
import type { ChatRunner } from '../agent/chatRunner.js';
import type { ToolActions } from '../agent/toolActions.js';
import type { HistoryService } from '../history/historyService.js';
import type { Doctor } from '../llm/doctor.js';
import type { ChatEngine } from '../llm/engineTypes.js';
import type { EgressGuard } from '../privacy/egressGuard.js';
import type { SecretStore } from '../privacy/secretStore.js';
import type { ChatService } from '../services/chat/chatService.js';
import type { HistoryArea } from '../services/history/historyService.js';
import type { McpService } from '../services/mcp/mcpService.js';
import type { ModelLibrary } from '../services/models/modelLibrary.js';
import type { ModelSettingsService } from '../services/models/modelSettingsService.js';
import type { ModelsService } from '../services/models/modelsService.js';
import type { PackSettingsService } from '../services/packs/packSettingsService.js';
import type { PacksService } from '../services/packs/packsService.js';
import type { PrivacyNetworkService } from '../services/privacy/privacyNetworkService.js';
import type { PolicyService } from '../services/settings/policyService.js';
import type { SettingsService } from '../services/settings/settingsService.js';
import type { ToolsService } from '../services/tools/toolsService.js';
import type { Store } from '../store/store.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Host } from './hostTypes.js';

/**
 * Tests only: a Host with its services in reach, so a test can set up state or look behind the contract. No shell or
 * command uses it: the app, `serve` and every `homebody` command go through the contract (Host.invoke and Host.call),
 * as src-main/host/createHost.test.ts checks.
 */
export interface HostInternals extends Host {
  readonly doctor: Doctor;
  readonly modelSettings: ModelSettingsService;
  readonly store: Store;
  readonly engine: ChatEngine;
  readonly chat: ChatRunner;
  readonly tools: ToolActions;
  readonly registry: ToolRegistry;
  readonly history: HistoryService;
  /** The catalog, the models on disk and their downloads. */
  readonly models: ModelLibrary;
  /** Every connection Homebody itself opens asks it first (feature and host, offline mode and the rules). */
  readonly egress: EgressGuard;
  readonly packs: PackSettingsService;
  /**
   * Seals mail passwords and MCP tokens before they reach the database. `secrets.protection` is 'os-keychain' or
   * 'key-file'; `secrets.report()` is the storage report's `secrets` field; `secrets.keyFile` the key file's path.
   */
  readonly secrets: SecretStore;
  /** MCP servers as tool sources. */
  readonly mcp: McpService;
  /** What the user must be told about this start (a damaged database moved aside). */
  readonly notices: readonly AppError[];
  policy(): Policy;
  /** Every change to the policy goes through here, audited with what changed. */
  readonly policies: PolicyService;
}

/** What createHost built, by service. */
export interface HostParts {
  readonly store: Store;
  readonly secrets: SecretStore;
  readonly notices: readonly AppError[];
  readonly registry: ToolRegistry;
  readonly network: PrivacyNetworkService;
  readonly settings: SettingsService;
  readonly packs: PacksService;
  readonly mcp: McpService;
  readonly models: ModelsService;
  readonly tools: ToolsService;
  readonly chat: ChatService;
  readonly history: HistoryArea;
}

/** The Host with its services in reach (see HostInternals). */
export function withInternals(host: Host, parts: HostParts): HostInternals {
  const { store, secrets, notices, registry, mcp, models, settings } = parts;
  return {
    ...host,
    store,
    secrets,
    notices,
    registry,
    mcp,
    engine: models.engine,
    doctor: models.doctor,
    modelSettings: models.settings,
    models: models.library,
    chat: parts.chat.runner,
    tools: parts.tools.actions,
    history: parts.history.service,
    egress: parts.network.guard,
    packs: parts.packs.settings,
    policies: settings.policies,
    policy: () => settings.policies.current(),
  };
}
