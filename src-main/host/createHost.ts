import type { ToolCall } from '../../src-shared/contract/index.js';
import { createChatService } from '../services/chat/chatService.js';
import { createEvalService } from '../services/evaluation/evalService.js';
import { createHistoryService } from '../services/history/historyService.js';
import { createMcpService } from '../services/mcp/mcpService.js';
import { createModelsService } from '../services/models/modelsService.js';
import { createPacksService } from '../services/packs/packsService.js';
import { createPrivacyNetworkService } from '../services/privacy/privacyNetworkService.js';
import { DATA_SUBFOLDERS, createPrivacyStorage } from '../services/privacy/privacyStorage.js';
import { createSettingsService } from '../services/settings/settingsService.js';
import { createToolSandbox } from '../services/tools/toolSandbox.js';
import { createToolsService } from '../services/tools/toolsService.js';
import { takeDataFolder, type DataFolder } from '../store/dataFolder.js';
import { ToolRegistry } from '../tools/registry.js';
import { appVersion } from '../util/appPaths.js';
import { createDispatch, createEventHub, registerHandlers } from './dispatch.js';
import { withInternals, type HostInternals } from './hostInternals.js';
import { hostOf } from './hostLifecycle.js';
import { SHELL_COMMANDS, type CreateHostOptions, type Host } from './hostTypes.js';
import { openStores, recoverOrNotice, sealClearSecrets } from './startupRecovery.js';

export type { CreateHostOptions } from './hostTypes.js';
export type { HostInternals } from './hostInternals.js';

/** Takes the data folder, builds the services behind the contract in the order they need each other, and starts. */
export async function createHost(options: CreateHostOptions): Promise<HostInternals> {
  // One owner per data folder: the lock comes before anything in it is read or written, so the crash recovery below
  // runs only in the process that owns the folder, never over another one's running call or open prompt.
  const owner = { pid: process.pid, startedAt: Date.now(), brief: options.shell === 'cli' };
  const command = options.command ?? SHELL_COMMANDS[options.shell];
  const binding = options.sqliteNativeBinding ? { nativeBinding: options.sqliteNativeBinding } : {};
  const folder = await takeDataFolder(options.dataDir, { ...owner, command }, binding);
  try {
    const host = await startHost(options, folder);
    folder.makeOwnFoldersPrivate(DATA_SUBFOLDERS); // after the start-up made the pack folders and the rest
    return host;
  } catch (error) {
    folder.release();
    throw error;
  }
}

async function startHost(options: CreateHostOptions, folder: DataFolder): Promise<HostInternals> {
  const { dataDir, device } = options;
  const { store, secrets, notices } = openStores(options);
  const { emit, subscribe } = createEventHub();
  const base = { store, emit, dataDir };
  // Who speaks through this Host's contract, as the audit log names them; a `homebody` command's Host serves no other.
  const caller = options.shell === 'cli' ? ('cli' as const) : ('user' as const);
  const app = { version: options.version ?? appVersion(), shell: options.shell, notices };
  const forceOffline = options.offline ?? process.env.HOMEBODY_OFFLINE === '1';
  const network = createPrivacyNetworkService({ ...base, forceOffline });
  network.watch(); // the ledger also holds what this process connects to without asking the guard
  const egress = network.guard;
  const registry = new ToolRegistry();
  const settings = createSettingsService({ ...base, registry, caller, app });
  const policies = settings.policies;
  const packs = createPacksService({ ...base, secrets, subscribe, network, device });
  const worker = createToolSandbox({ dataDir, egress, network, device: packs.device, workerPath: options.toolWorker });
  const mcp = createMcpService({ ...base, registry, egress, secrets, confirmer: options.confirmMcpCommand });
  // The one edge back: a model is never changed under a reply, so the models service stops the chat's replies.
  const models = createModelsService({
    ...base,
    ...{ options, egress, worker, secrets, network },
    stopReplies: () => chat.stopAll(),
  });
  sealClearSecrets(store, [packs.sealStoredSecrets, mcp.sealStoredSecrets, models.sealStoredSecrets], notices);
  const evaluation = createEvalService({ ...base, policies, models });
  // The other edge back: a task whose calls the user decided (in the queue, at a prompt) goes on in the chat.
  const continueTasks = (calls: readonly ToolCall[], from: 'queue' | 'prompt') =>
    chat.continueAfterDecisions(calls, from);
  const toolsDeps = { registry, caller, policies, packs, mcp, worker, evaluation, continueTasks };
  const tools = createToolsService({ ...base, ...toolsDeps });
  recoverOrNotice('tool calls', tools.recoverAfterCrash, notices);
  const chat = createChatService({ ...base, models, tools, reply: options.reply, canAsk: options.canAsk ?? true });
  recoverOrNotice('replies', chat.recoverAfterCrash, notices);
  const history = createHistoryService({ ...base, appVersion: app.version, chat });
  await models.startUp();
  // "Delete all my data": these stop in this order, then, after the wipe, let go of what they had read.
  const participants = [chat, evaluation, settings, network, models, packs, mcp];
  const storage = createPrivacyStorage({ ...base, secrets, packs, worker, chat, participants });
  const services = { settings, network, storage, packs, mcp, models, evaluation, tools, chat, history };
  const handlers = registerHandlers(Object.values(services).map((s) => s.handlers));
  const { invoke, call } = createDispatch(handlers, chat.afterRequest);
  subscribe(chat.afterEvent);
  // Timers, downloads, replies, MCP servers, the evaluation, the worker, the engine, then the ledger's last bytes.
  const shutdown = [history, packs, models, chat, mcp, evaluation, worker, models.engine, network];
  const recordConnection: Host['recordConnection'] = (observed) => void network.recordConnection(observed);
  const host = hostOf({ invoke, call, subscribe, recordConnection, shutdown, store, folder });
  recoverOrNotice('the search index after a deletion', () => void history.service.resumePendingPurge(), notices);
  history.startUp();
  packs.startUp();
  mcp.start();
  if (options.loadModelOnStart ?? true) models.loadAtStart(options.modelPath);
  return withInternals(host, { ...services, store, secrets, notices, registry });
}
