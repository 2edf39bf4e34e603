import { EventEmitter } from 'node:events';
import type { z } from 'zod';
import {
  BenchResultSchema,
  HomebodyError,
  apiSchemas,
  isApiMethod,
  type ApiMethod,
  type ApiRequest,
  type ApiResponse,
  type ApiResult,
  type AppError,
  type BenchResult,
  type HostEvent,
  type Policy,
  type ToolCall,
} from '../../src-shared/contract/index.js';
import { join } from 'node:path';
import {
  ChatRunner,
  DEFAULT_MAX_TOKENS,
  DEFAULT_TEMPERATURE,
  lastOffer,
  type ReplyOptions,
} from '../agent/chatRunner.js';
import { agentToolsFrom } from '../agent/agentTools.js';
import { ToolActions, type ProposalResult } from '../agent/toolActions.js';
import type { ScriptedCall } from '../llm/engineTypes.js';
import { createPolicyService, type PolicyService } from './policyService.js';
import { ToolRegistry } from '../tools/registry.js';
import { ToolExecutor } from '../tools/sandbox/toolExecutor.js';
import { BUILTIN_TOOLS } from '../tools/builtin/index.js';
import { createEvalService } from './evalService.js';
import { defaultEngineConfig, type EngineConfig } from '../llm/engineConfig.js';
import type { ChatEngine } from '../llm/engineTypes.js';
import { LlamaEngine } from '../llm/llamaEngine.js';
import { takeDataFolder, type DataFolder } from '../store/dataFolder.js';
import { storageFailure } from '../store/db.js';
import { openStoreMovingDamagedAside, type Store } from '../store/store.js';
import { HistoryService } from '../history/historyService.js';
import { appRoot, appVersion } from '../util/appPaths.js';
import { loadCatalog } from './catalog.js';
import { ModelLibrary } from './modelLibrary.js';
import type { EgressGuard } from '../privacy/egressGuard.js';
import type { ObservedConnection } from '../privacy/egressLedger.js';
import { recoverOrNotice } from './startupRecovery.js';
import { Doctor } from '../llm/doctor.js';
import { overridesFrom } from '../llm/modelSettings.js';
import { ModelSettingsService } from './modelSettingsService.js';
import type { Host, HostOptions } from './hostTypes.js';
import { noDevice, type DeviceBridge } from './deviceBridge.js';
import { DEFAULT_FOLDER, PackSettingsService } from './packSettingsService.js';
import { ReminderScheduler } from './reminderScheduler.js';
import { createMcpService, type McpService } from './mcpService.js';
import { createPrivacyStorage } from './privacyStorage.js';
import { isInside, OWN_FOLDER_NAMES } from './storageReport.js';
import { DEFAULT_NETWORK_SETTINGS } from '../privacy/networkRules.js';
import { SecretStore } from '../privacy/secretStore.js';
import { createPrivacyNetworkService } from './privacyNetworkService.js';
import { describeIssues } from './requestIssues.js';

const LAST_MODEL_KEY = 'lastModelPath';
const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

type Handlers = { [M in ApiMethod]: (request: z.output<(typeof apiSchemas)[M]['request']>) => Promise<ApiResponse<M>> };

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
  /** Records a connection seen outside the guard (the renderer's session, a watcher) in the egress ledger. */
  recordConnection(observed: ObservedConnection): void;
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
  /** Typed call for in-process callers (the CLI): throws HomebodyError instead of returning a result. */
  invoke<M extends ApiMethod>(method: M, request: ApiRequest<M>): Promise<ApiResponse<M>>;
}

export interface CreateHostOptions extends HostOptions {
  readonly engineConfig?: Partial<EngineConfig>;
  readonly reply?: Partial<ReplyOptions>;
  /** Load the given (or last) model in the background at start. Default true. */
  readonly loadModelOnStart?: boolean;
  /** Tests only: tool calls a generated model is pushed to make, by the exact prompt (see ChatRunner). */
  readonly scripts?: Readonly<Record<string, readonly ScriptedCall[]>>;
  /** The model catalog file; default HOMEBODY_CATALOG, else resources/models/catalog.json. */
  readonly catalogPath?: string;
  /**
   * Hold offline mode on whatever the user's settings say, with no rule applying: nothing leaves the machine.
   * Default: HOMEBODY_OFFLINE=1. Without it offline mode is the user's setting (on, with no rules, until changed).
   */
  readonly offline?: boolean;
  /** How device tools reach the clipboard, the default apps and notifications; none by default. */
  readonly device?: DeviceBridge;
  /** Where `hf:` URIs are fetched from; default MODEL_ENDPOINT or HF_ENDPOINT, else https://huggingface.co/. */
  readonly huggingFaceEndpoint?: string;
  /**
   * What the data folder's owner record names while this Host holds it ("homebody serve", "homebody approvals list");
   * default by shell. A 'cli' Host holds it briefly, so another command waits for it; the app and serve hold it for
   * their lifetime, and a second process is refused at once.
   */
  readonly command?: string;
}

const SHELL_COMMANDS: Readonly<Record<CreateHostOptions['shell'], string>> = {
  electron: 'the Homebody desktop app',
  browser: 'homebody serve',
  cli: 'homebody',
};

/** The folders Homebody makes in its data folder, tightened to 0700 when the data folder is its own. */
const DATA_SUBFOLDERS: readonly string[] = [...OWN_FOLDER_NAMES, ...Object.values(DEFAULT_FOLDER), 'eval'];

/** Reply length cap and temperature: HOMEBODY_MAX_TOKENS and HOMEBODY_TEMPERATURE, else the defaults. */
export function defaultReplyOptions(env: NodeJS.ProcessEnv = process.env): ReplyOptions {
  const maxTokens = Number(env.HOMEBODY_MAX_TOKENS);
  const temperature = Number(env.HOMEBODY_TEMPERATURE);
  return {
    maxTokens: Number.isInteger(maxTokens) && maxTokens > 0 ? maxTokens : DEFAULT_MAX_TOKENS,
    temperature: env.HOMEBODY_TEMPERATURE && temperature >= 0 && temperature <= 2 ? temperature : DEFAULT_TEMPERATURE,
  };
}

/**
 * Seals the secrets an older version stored in clear, then checkpoints the WAL so no clear copy stays in it (the
 * rows they leave are zeroed by secure_delete). On a full disk they stay as they were until the next start.
 */
function sealClearSecrets(store: Store, steps: ReadonlyArray<() => boolean>, notices: AppError[]): void {
  try {
    let wrote = false;
    for (const step of steps) wrote = step() || wrote;
    if (wrote) store.checkpoint();
  } catch (error) {
    const failure = storageFailure(error);
    if (!failure) throw error;
    notices.push({
      code: failure.code,
      message: `${failure.message} Homebody could not yet encrypt the passwords an older version kept; it will at the next start.`,
    });
  }
}

/**
 * Wires the services behind the contract: store, engine, chat runner and the
 * catalog. Every call is validated against the contract's schema on arrival,
 * whichever transport brought it, and answered with a result value.
 */
export async function createHost(options: CreateHostOptions): Promise<HostInternals> {
  // One owner per data folder: the lock comes before anything in it is read or written, so the crash recovery below
  // runs only in the process that owns the folder, never over another one's running call or open prompt.
  const folder = await takeDataFolder(
    options.dataDir,
    {
      pid: process.pid,
      command: options.command ?? SHELL_COMMANDS[options.shell],
      startedAt: Date.now(),
      brief: options.shell === 'cli',
    },
    options.sqliteNativeBinding ? { nativeBinding: options.sqliteNativeBinding } : {},
  );
  try {
    const host = await startHost(options, folder);
    // After the start-up made the pack folders and the rest.
    folder.makeOwnFoldersPrivate(DATA_SUBFOLDERS);
    return host;
  } catch (error) {
    folder.release();
    throw error;
  }
}

async function startHost(options: CreateHostOptions, folder: DataFolder): Promise<HostInternals> {
  const opened = openStoreMovingDamagedAside(
    options.dataDir,
    options.sqliteNativeBinding ? { nativeBinding: options.sqliteNativeBinding } : {},
  );
  const { store } = opened;
  const notices: AppError[] = [...opened.notices];
  const secrets = new SecretStore({
    dataDir: options.dataDir,
    ...(options.keychain ? { keychain: options.keychain } : {}),
    notice: (message) => notices.push({ code: 'SECRET_STORE_ERROR', message }),
  });
  // Saved model settings apply at every load; environment variables and the caller's options win over them.
  const modelSettings: ModelSettingsService = new ModelSettingsService({
    settings: store.settings,
    modelState: () => engine.state,
    overrides: overridesFrom(process.env, {
      ...(options.engineConfig?.contextSize ? { contextSize: options.engineConfig.contextSize } : {}),
      ...(options.engineConfig?.threads ? { threads: options.engineConfig.threads } : {}),
      ...(options.reply?.temperature === undefined ? {} : { temperature: options.reply.temperature }),
      gpuOff: options.engineConfig?.gpu === false,
    }),
    reload: async (path) => {
      await chat.stopAll();
      return engine.load(path);
    },
  });
  const llamaEngine = new LlamaEngine(
    {
      ...defaultEngineConfig(),
      // The evaluated system prompt + tool definitions, saved so a restart does not evaluate them again.
      prefixCacheDir: join(options.dataDir, 'prefix-cache'),
      ...options.engineConfig,
    },
    () => modelSettings.loadSettings(),
  );
  const engine: ChatEngine = llamaEngine;
  const events = new EventEmitter<{ event: [HostEvent] }>();
  events.setMaxListeners(0);
  const emit = (event: HostEvent) => events.emit('event', event);
  const catalog = loadCatalog(options.catalogPath ?? (process.env.HOMEBODY_CATALOG || undefined));
  const network = createPrivacyNetworkService({
    store,
    emit,
    forceOffline: options.offline ?? process.env.HOMEBODY_OFFLINE === '1',
  });
  const egress = network.guard;
  // The ledger also holds what this process connects to without asking the guard (connectionWatcher.ts).
  network.watch();

  const registry = new ToolRegistry();
  const policies = createPolicyService({ store, registry, dataDir: options.dataDir });
  // The compiled worker may read its own code (the app folder) besides the granted folders.
  const packs = new PackSettingsService({
    settings: store.settings,
    secrets,
    dataDir: options.dataDir,
    offline: () => egress.offline,
  });
  const device = options.device ?? noDevice;
  device.connect?.(emit);
  const executor = new ToolExecutor({
    trashDir: join(options.dataDir, 'trash'),
    codeRoots: [appRoot()],
    // The OS sandbox hides the data folder (database, secret key) even inside a granted folder.
    hiddenDirs: [options.dataDir],
    // A running tool asks before each connection (the egress guard decides) and for what only the shell can do.
    services: async (request, call) => {
      if (request.kind === 'egress') {
        const ticket = egress.check(request.url, request.feature, `tool ${call.tool} (${request.purpose})`);
        return { hostNamed: ticket.hostNamed };
      }
      if (request.kind === 'connection') {
        network.recordToolConnection(call.tool, request);
        return null;
      }
      return device.handle(request.request);
    },
  });
  const mcp = createMcpService({
    store,
    registry,
    egress,
    secrets,
    emit,
    ...(options.confirmMcpCommand ? { confirmer: options.confirmMcpCommand } : {}),
  });
  sealClearSecrets(store, [() => packs.sealStoredSecrets(), mcp.sealStoredSecrets], notices);
  const evaluation = createEvalService({
    store,
    emit,
    dataDir: options.dataDir,
    // An evaluated model gets an engine of its own, so the chat's model stays loaded; no saved prefix state.
    createEngine: () => new LlamaEngine({ ...defaultEngineConfig(), ...options.engineConfig }),
    engineState: () => engine.state,
    builtins: () => new Map(BUILTIN_TOOLS.map((tool) => [tool.name, tool])),
    policy: () => policies.current(),
    offeredFor: (taskId) => lastOffer(store.audit.forTask(taskId)),
    ...(options.scripts ? { scripts: options.scripts } : {}),
  });
  const tools = new ToolActions({
    store,
    registry,
    executor: mcp.runner(executor),
    policy: () => policies.current(),
    packs: () => packs.config(),
    savePolicy: (next) => policies.saveQuietly(next),
    emit,
    evalGateOpen: (tool) => evaluation.gateOpen(tool),
    dataDir: options.dataDir,
  });
  recoverOrNotice('tool calls', () => tools.recoverAfterCrash(), notices);
  const reminders = new ReminderScheduler({ file: () => packs.config().remindersFile, device, emit });
  // A reminder tool call (or its undo) may have changed the file: read it again.
  events.on('event', (event) => {
    if (event.type === 'toolcall.updated' && event.call.tool.startsWith('reminder_')) void reminders.check();
  });
  const scripts = options.scripts;
  const chat = new ChatRunner({
    engine,
    store,
    emit,
    tools: agentToolsFrom(tools),
    ...(scripts ? { scriptFor: (prompt: string) => scripts[prompt.trim()] } : {}),
  });
  recoverOrNotice('replies', () => chat.recoverAfterCrash(), notices);
  const callOf = (result: ProposalResult): ToolCall => {
    if (result.call) return result.call;
    throw new HomebodyError('INVALID_REQUEST', 'error' in result ? result.error : 'The call was not recorded.');
  };
  const reply = { ...defaultReplyOptions(), ...options.reply };
  const version = options.version ?? appVersion();
  const history = new HistoryService({
    store,
    emit,
    appVersion: version,
    isRunning: (taskId) => chat.isRunning(taskId),
    stopTask: async (taskId) => {
      await chat.stop(taskId);
    },
  });

  const models = new ModelLibrary({
    modelsDir: join(options.dataDir, 'models'),
    store,
    catalog,
    guard: egress,
    emit,
    engineState: () => engine.state,
    open: async (path) => {
      await chat.stopAll();
      return engine.load(path);
    },
    close: async () => {
      await chat.stopAll();
      await llamaEngine.close();
    },
    forgetLastModel: (path) => {
      if (store.settings.get(LAST_MODEL_KEY) === path) store.settings.delete(LAST_MODEL_KEY);
    },
    ...(options.huggingFaceEndpoint ? { huggingFaceEndpoint: options.huggingFaceEndpoint } : {}),
  });
  await models.init();

  engine.onStateChange((state) => {
    emit({ type: 'model.state', state });
    if (state.status === 'ready') store.settings.set(LAST_MODEL_KEY, state.info.path);
    models.engineChanged();
  });

  const BENCH_KEY = 'doctorBench';
  const doctor = new Doctor({
    engine: llamaEngine,
    cacheDir: join(options.dataDir, 'cache'),
    modelsDir: join(options.dataDir, 'models'),
    catalog: () => catalog,
    catalogFile: (catalogId) => store.models.models.list().find((m) => m.catalogId === catalogId)?.path ?? null,
    settings: () => modelSettings.view(),
    lastBench: () => {
      const saved = BenchResultSchema.safeParse(store.settings.get(BENCH_KEY));
      return saved.success ? saved.data : null;
    },
    saveBench: (bench: BenchResult) => store.settings.set(BENCH_KEY, bench),
    sandbox: () => executor.sandbox(),
  });

  const privacyStorage = createPrivacyStorage({
    dataDir: options.dataDir,
    store,
    packSettings: () => packs.current(),
    keyFile: secrets.keyFile,
    secrets: () => secrets.report(),
    sandbox: () => executor.sandbox(),
    stopActivity: async (includeModels) => {
      await chat.stopAll();
      await evaluation.stopRunning();
      if (!includeModels) return;
      for (const download of models.downloads.list()) {
        if (download.state !== 'done' && download.state !== 'cancelled') await models.downloads.cancel(download.id);
      }
      // A loaded model is not user data and stays loaded, unless its file is about to be deleted.
      const state = engine.state;
      const path = state.status === 'ready' ? state.info.path : state.status === 'loading' ? state.path : null;
      if (path && isInside(models.modelsDir, path)) await llamaEngine.close();
    },
    replying: () => store.tasks.runningIds().some((taskId) => chat.isRunning(taskId)),
    reset: async () => {
      // What was read from the settings at start goes back to a new install's, before anything awaits.
      policies.reset();
      network.guard.setSettings({ ...DEFAULT_NETWORK_SETTINGS });
      emit({ type: 'models.changed', listing: models.listing() });
      void reminders.check();
      // The MCP servers' rows are gone: their processes stop and their tools leave the registry.
      for (const server of mcp.manager.list()) await mcp.manager.remove(server.name);
    },
    emit,
  });

  const handlers: Handlers = {
    'tools.list': async () => registry.info(),
    'toolcalls.answer': async ({ id, answer, reason }) => callOf(await tools.answerPrompt(id, answer, reason ?? null)),
    'toolcalls.undo': async ({ id }) => tools.undo(id),
    'approvals.list': async () => ({ calls: tools.queue() }),
    'approvals.approve': async ({ ids, args }) => {
      const calls: ToolCall[] = [];
      for (const id of ids) calls.push(callOf(await tools.approve(id, 'user', args)));
      return { calls };
    },
    'approvals.deny': async ({ ids, reason }) => {
      const calls: ToolCall[] = [];
      for (const id of ids) calls.push(callOf(await tools.deny(id, 'user', reason ?? null)));
      return { calls };
    },
    'policy.get': async () => policies.current(),
    'packs.settings': async () => packs.view(),
    'packs.setSettings': async (patch) => packs.set(patch),
    ...network.handlers,
    'privacy.storage': async () => privacyStorage.report(),
    'privacy.deleteAllData': async ({ includeModels }) => privacyStorage.deleteAll(includeModels),
    'device.answer': async (answer) => ({ accepted: device.answer?.(answer) ?? false }),
    ...mcp.handlers,
    ...evaluation.handlers,
    'policy.set': async ({ policy: raw, confirmBroad }) => policies.replace(raw, 'user', confirmBroad === true),
    'policy.setMode': async ({ tool, mode }) => policies.setMode(tool, mode, 'user'),
    'policy.grantFolder': async ({ confirmBroad, ...folder }) => policies.grant(folder, 'user', confirmBroad === true),
    'policy.revokeFolder': async ({ path }) => policies.revoke(path, 'user'),
    'policy.folders': async () => ({ folders: tools.folderStates() }),
    'audit.list': async ({ beforeId, limit, ...filter }) => ({
      events: store.audit.page(beforeId ?? Number.MAX_SAFE_INTEGER, limit ?? 200, filter),
    }),
    'app.info': async () => ({
      name: 'Homebody',
      version,
      shell: options.shell === 'electron' ? 'electron' : 'browser',
      dataDir: options.dataDir,
      notices: [...notices],
    }),
    'model.state': async () => engine.state,
    'model.open': async ({ path }) => {
      models.assertOpenable(path);
      await chat.stopAll();
      return engine.load(path);
    },
    'model.catalog': async () => catalog,
    'model.chooseFile': async () => {
      if (!options.chooseModelFile) {
        throw new HomebodyError(
          'INVALID_REQUEST',
          'This shell has no file dialog; type the path of a .gguf file instead.',
        );
      }
      return { path: await options.chooseModelFile() };
    },
    'chat.send': async ({ taskId, text }) => {
      const sent = chat.send(taskId, text, { ...reply, temperature: modelSettings.effective().temperature });
      return { taskId: sent.taskId, userMessageId: sent.userMessageId, assistantMessageId: sent.assistantMessageId };
    },
    'chat.stop': async ({ taskId }) => ({ stopped: await chat.stop(taskId) }),
    'tasks.list': async ({ limit }) => ({ tasks: store.tasks.list(limit ?? 200) }),
    'tasks.get': async ({ taskId }) => {
      const task = store.tasks.get(taskId);
      if (!task) throw new HomebodyError('TASK_NOT_FOUND', `There is no task ${taskId}; it may have been deleted.`);
      return { task, messages: store.messages.listForTask(taskId), toolCalls: store.toolCalls.listForTask(taskId) };
    },
    'history.list': async ({ after, limit, ...filter }) => history.list(filter, after, limit),
    'history.search': async ({ query, filter, limit }) => ({ hits: history.search(query, filter, limit) }),
    'history.tools': async () => ({ tools: history.toolNames() }),
    'history.export': async ({ taskIds, format }) => history.export(taskIds, format),
    'history.import': async ({ content }) => history.import(content),
    'history.delete': async ({ taskIds }) => ({ deleted: await history.delete(taskIds) }),
    'history.deleteAll': async () => ({ deleted: await history.deleteAll() }),
    'history.retention': async () => history.retention(),
    'history.setRetention': async ({ days }) => history.setRetention(days),
    'models.list': async () => models.listing(),
    'models.download': async (request) => models.download(request),
    'models.pause': async ({ id }) => models.downloads.pause(id),
    'models.resume': async ({ id }) => models.downloads.resume(id),
    'models.cancel': async ({ id }) => models.downloads.cancel(id),
    'models.add': async ({ path }) => models.add(path),
    'models.verify': async ({ id }) => models.verify(id),
    'models.remove': async ({ id }) => models.remove(id),
    'models.activate': async ({ id }) => models.activate(id),
    'doctor.report': async () => doctor.report(),
    'doctor.bench': async ({ catalogId }) => doctor.bench(catalogId),
    'model.settings': async () => modelSettings.view(),
    'model.setSettings': async ({ settings }) => modelSettings.set(settings),
  };

  async function invoke<M extends ApiMethod>(method: M, raw: unknown): Promise<ApiResponse<M>> {
    const parsed = apiSchemas[method].request.safeParse(raw ?? {});
    if (!parsed.success) {
      throw new HomebodyError('INVALID_REQUEST', `Invalid ${method} request: ${describeIssues(parsed.error)}`);
    }
    const handler = handlers[method] as (request: unknown) => Promise<ApiResponse<M>>;
    return handler(parsed.data);
  }

  async function call(method: string, request: unknown): Promise<ApiResult<unknown>> {
    if (!isApiMethod(method)) {
      return {
        ok: false,
        error: { code: 'UNKNOWN_METHOD', message: `Homebody has no method "${String(method).slice(0, 80)}".` },
      };
    }
    try {
      return { ok: true, value: await invoke(method, request) };
    } catch (error) {
      if (error instanceof HomebodyError) return { ok: false, error: error.toJSON() };
      const storage = storageFailure(error);
      if (storage) {
        console.error(`[host] ${method} could not write the database:`, (error as Error).message);
        return { ok: false, error: storage.toJSON() };
      }
      console.error(`[host] ${method} failed:`, error);
      return { ok: false, error: { code: 'INTERNAL', message: `${method} failed: ${(error as Error).message}` } };
    }
  }

  let disposed = false;
  const host: HostInternals = {
    store,
    engine,
    chat,
    tools,
    registry,
    history,
    models,
    egress,
    recordConnection: (observed) => {
      network.recordConnection(observed);
    },
    packs,
    secrets,
    mcp,
    doctor,
    modelSettings,
    notices,
    policy: () => policies.current(),
    policies,
    invoke,
    call,
    subscribe(listener) {
      events.on('event', listener);
      return () => events.off('event', listener);
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      clearInterval(retentionTimer);
      reminders.dispose();
      await models.dispose();
      await chat.stopAll();
      await mcp.dispose();
      await evaluation.dispose();
      await executor.dispose();
      await engine.dispose();
      network.dispose();
      store.close();
      folder.release();
    },
  };

  recoverOrNotice('the search index after a deletion', () => void history.resumePendingPurge(), notices);
  // The retention period is applied at start and then hourly, so old tasks go even in an app left open.
  const applyRetention = () =>
    history.applyRetention().catch((error: unknown) => console.error('[host] retention failed:', error));
  void applyRetention();
  const retentionTimer = setInterval(() => void applyRetention(), RETENTION_INTERVAL_MS);
  retentionTimer.unref();
  // Reminders that fell due while Homebody was closed are shown now, once.
  void reminders.check();
  mcp.start();

  if (options.loadModelOnStart ?? true) {
    const last = store.settings.get(LAST_MODEL_KEY);
    // A last model that has since moved is still tried, so the user is told where it was expected.
    const initial = options.modelPath ?? (typeof last === 'string' ? last : undefined);
    if (initial) void engine.load(initial);
  }
  return host;
}
