import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  BenchResultSchema,
  HomebodyError,
  isRemoteReference,
  remoteModelName,
  remoteReference,
  type BenchResult,
  type NetworkRule,
  type ThinkingSetting,
  type ToolSandbox,
} from '../../../src-shared/contract/index.js';
import { Doctor } from '../../llm/doctor.js';
import { defaultEngineConfig, type EngineConfig } from '../../llm/engineConfig.js';
import type { ChatEngine } from '../../llm/engineTypes.js';
import { createLlamaEngine, type EngineFactory } from '../../llm/llamaEngine.js';
import type { RemoteEngineOptions } from '../../llm/remote/remoteEngine.js';
import { RoutedEngine } from '../../llm/routedEngine.js';
import { overridesFrom } from '../../llm/modelSettings.js';
import type { EgressGuard } from '../../privacy/egressGuard.js';
import type { SecretStore } from '../../privacy/secretStore.js';
import type { Store } from '../../store/store.js';
import type { Emit, HandlersOf } from '../handlers.js';
import { isInside } from '../privacy/storageReport.js';
import { loadCatalog } from './catalog.js';
import { ModelLibrary } from './modelLibrary.js';
import { ModelSettingsService } from './modelSettingsService.js';
import { RemoteNodes } from './remoteNodes.js';
import { userPath } from '../../util/userPath.js';

/** The model loaded last, loaded again at the next start. */
const LAST_MODEL_KEY = 'lastModelPath';
/** The Doctor's last benchmark on this machine. */
const BENCH_KEY = 'doctorBench';

type ModelsMethod =
  | 'model.state'
  | 'model.open'
  | 'model.openLast'
  | 'model.catalog'
  | 'model.chooseFile'
  | 'model.settings'
  | 'model.setSettings'
  | 'models.list'
  | 'models.download'
  | 'models.pause'
  | 'models.resume'
  | 'models.cancel'
  | 'models.getDownload'
  | 'models.add'
  | 'models.verify'
  | 'models.remove'
  | 'models.activate'
  | 'models.setThinking'
  | 'doctor.report'
  | 'doctor.bench'
  | 'nodes.list'
  | 'nodes.probe'
  | 'nodes.add'
  | 'nodes.remove'
  | 'nodes.setAllowOffline'
  | 'nodes.use';

/** What the Host's caller decides about models (named as in the Host's options). */
export interface ModelsOptions {
  /** Makes the chat's engine and each evaluation's; default createLlamaEngine. */
  readonly createEngine?: EngineFactory;
  /** The caller's engine settings; they win over the saved model settings, as the environment's do. */
  readonly engineConfig?: Partial<EngineConfig>;
  /** The caller's temperature wins over the saved one. */
  readonly reply?: { readonly temperature?: number };
  /** Thinking for this run, whatever each model's saved choice (`homebody run --thinking`). */
  readonly thinking?: ThinkingSetting;
  /** The model catalog file; default HOMEBODY_CATALOG, else resources/models/catalog.json. */
  readonly catalogPath?: string;
  /** Where `hf:` URIs are fetched from; default MODEL_ENDPOINT or HF_ENDPOINT, else https://huggingface.co/. */
  readonly huggingFaceEndpoint?: string;
  /** The desktop shell's file dialog; other shells have none. */
  readonly chooseModelFile?: () => Promise<string | null>;
  /** Tests: the timeouts of requests to nodes, and a grammar that makes a random-weight node's reply a call. */
  readonly remoteEngine?: Partial<Pick<RemoteEngineOptions, 'timeouts' | 'steering' | 'protocol'>>;
}

export interface ModelsServiceDeps {
  readonly store: Store;
  readonly emit: Emit;
  readonly dataDir: string;
  readonly options: ModelsOptions;
  /** Downloads and nodes ask it before every connection. */
  readonly egress: EgressGuard;
  /** Seals a node's API key. */
  readonly secrets: SecretStore;
  /** The user's network rules: a node added with "allow while offline" adds one, and takes it away when removed. */
  readonly network: {
    allow(rule: NetworkRule): Promise<unknown>;
    disallow(rule: NetworkRule): unknown;
  };
  /** Stops the replies in progress: the model is not changed under a reply. */
  readonly stopReplies: () => Promise<void>;
  /** The tool worker: the OS sandbox around it, for the Doctor's report. */
  readonly worker: { sandbox(): Promise<ToolSandbox> };
}

/**
 * The chat's model and everything about models: the engine and its settings (saved choices under what the
 * environment fixes), the catalog, the models on disk and their downloads, and the Doctor (this machine, each
 * model's fit and speed, the short benchmark). Loading, replacing or closing the model stops the replies first.
 */
export function createModelsService(deps: ModelsServiceDeps) {
  const { store, emit, options } = deps;
  const { engineConfig } = options;
  const createEngine = options.createEngine ?? createLlamaEngine;
  const modelsDir = join(deps.dataDir, 'models');
  // Saved model settings apply at every load; environment variables and the caller's options win over them.
  const settings: ModelSettingsService = new ModelSettingsService({
    settings: store.settings,
    modelState: () => engine.state,
    overrides: overridesFrom(process.env, {
      ...(engineConfig?.contextSize ? { contextSize: engineConfig.contextSize } : {}),
      ...(engineConfig?.threads ? { threads: engineConfig.threads } : {}),
      ...(options.reply?.temperature === undefined ? {} : { temperature: options.reply.temperature }),
      gpuOff: engineConfig?.gpu === false,
    }),
    ...(options.thinking ? { thinkingOverride: options.thinking } : {}),
    reload: (path) => load(path),
  });
  const config = { ...defaultEngineConfig(), prefixCacheDir: join(deps.dataDir, 'prefix-cache'), ...engineConfig };
  // The evaluated system prompt + tool definitions, saved so a restart does not evaluate them again.
  const local = createEngine(config, () => settings.loadSettings());
  const nodes: RemoteNodes = new RemoteNodes({
    settings: store.settings,
    secrets: deps.secrets,
    guard: deps.egress,
    modelState: () => engine.state,
    allowHost: (rule) => deps.network.allow(rule),
    disallowHost: async (rule) => deps.network.disallow(rule),
    systemPrompt: () => config.systemPrompt,
    enableThinking: () => {
      const choice = settings.loadSettings().thinking;
      return choice === 'auto' ? undefined : choice === 'on';
    },
    ...(options.remoteEngine ? { engineOptions: options.remoteEngine } : {}),
  });
  // The chat's engine: a model file in the local engine, `remote:<id>` on that node.
  const engine = new RoutedEngine({ local, openRemote: (reference) => nodes.engineFor(reference) });
  const load = async (path: string) => {
    await deps.stopReplies();
    return engine.load(path);
  };
  const catalog = loadCatalog(options.catalogPath ?? (process.env.HOMEBODY_CATALOG || undefined));
  const library = new ModelLibrary({
    modelsDir,
    store,
    catalog,
    guard: deps.egress,
    emit,
    engineState: () => engine.state,
    open: load,
    close: async () => {
      await deps.stopReplies();
      await engine.close();
    },
    forgetLastModel: (path) => {
      if (store.settings.get(LAST_MODEL_KEY) === path) store.settings.delete(LAST_MODEL_KEY);
    },
    thinking: {
      get: (path) => settings.thinkingFor(path),
      set: (path, setting) => settings.setThinking(path, setting),
    },
    ...(options.huggingFaceEndpoint ? { huggingFaceEndpoint: options.huggingFaceEndpoint } : {}),
  });
  const doctor = new Doctor({
    engine: local,
    cacheDir: join(deps.dataDir, 'cache'),
    modelsDir,
    catalog: () => catalog,
    catalogFile: (catalogId) => store.models.models.list().find((m) => m.catalogId === catalogId)?.path ?? null,
    settings: () => settings.view(),
    lastBench: () => {
      const saved = BenchResultSchema.safeParse(store.settings.get(BENCH_KEY));
      return saved.success ? saved.data : null;
    },
    saveBench: (bench: BenchResult) => store.settings.set(BENCH_KEY, bench),
    sandbox: () => deps.worker.sandbox(),
  });

  const handlers: HandlersOf<ModelsMethod> = {
    'model.state': async () => engine.state,
    'model.open': async ({ path: typed }) => {
      const path = userPath(typed, 'The model file');
      library.assertOpenable(path);
      return load(path);
    },
    'model.openLast': async () => {
      const last = store.settings.get(LAST_MODEL_KEY);
      if (typeof last !== 'string') {
        throw new HomebodyError(
          'NO_MODEL',
          'No model has been used in this data folder yet: give one with --model FILE.',
        );
      }
      return load(last);
    },
    'model.catalog': async () => catalog,
    'model.chooseFile': async () => {
      const chooseFile = options.chooseModelFile;
      if (!chooseFile) {
        throw new HomebodyError(
          'INVALID_REQUEST',
          'This shell has no file dialog; type the path of a .gguf file instead.',
        );
      }
      return { path: await chooseFile() };
    },
    'model.settings': async () => settings.view(),
    'model.setSettings': async ({ settings: next }) => settings.set(next),
    'models.list': async () => library.listing(),
    'models.download': async (request) => library.download(request),
    'models.pause': async ({ id }) => library.downloads.pause(id),
    'models.resume': async ({ id }) => library.downloads.resume(id),
    'models.cancel': async ({ id }) => library.downloads.cancel(id),
    'models.getDownload': async ({ id }) => {
      const download = library.downloads.get(id);
      if (!download) throw new HomebodyError('DOWNLOAD_NOT_FOUND', `There is no download ${id}.`);
      return download;
    },
    'models.add': async ({ path }) => library.add(userPath(path, 'The model file')),
    'models.verify': async ({ id }) => library.verify(id),
    'models.remove': async ({ id }) => library.remove(id),
    'models.activate': async ({ id }) => library.activate(id),
    'models.setThinking': async ({ id, thinking }) => library.setThinking(id, thinking),
    'doctor.report': async () => ({ ...(await doctor.report()), nodes: await nodes.checks() }),
    'doctor.bench': async ({ catalogId }) =>
      doctor.bench(catalogId, (phase) => emit({ type: 'doctor.progress', phase })),
    'nodes.list': async () => ({ nodes: nodes.list() }),
    'nodes.probe': async ({ url, apiKey, allowOffline }) => nodes.probe(url, apiKey, allowOffline),
    'nodes.add': async (request) => nodes.add(request),
    'nodes.remove': async ({ id }) => {
      if (nodes.list().find((n) => n.id === id)?.active) {
        await deps.stopReplies();
        await engine.close();
      }
      const removed = await nodes.remove(id);
      if (store.settings.get(LAST_MODEL_KEY) === remoteReference(id)) store.settings.delete(LAST_MODEL_KEY);
      return removed;
    },
    'nodes.setAllowOffline': async ({ id, allow }) => nodes.setAllowOffline(id, allow),
    'nodes.use': async ({ id }) => {
      nodes.get(id); // an unknown node is refused before anything stops
      return load(remoteReference(id));
    },
  };

  return {
    engine,
    settings,
    library,
    doctor,
    handlers,
    /** An evaluated model gets an engine of its own, so the chat's model stays loaded; no saved prefix state. */
    evaluationEngine: (): ChatEngine =>
      new RoutedEngine({
        local: createEngine({ ...defaultEngineConfig(), ...engineConfig }),
        openRemote: (reference) => nodes.engineFor(reference),
      }),
    /**
     * A model to evaluate as people read it: a file's name, or a node's model and name. Throws MODEL_NOT_FOUND for a
     * file that is not there or a node that was removed.
     */
    modelLabel(path: string): string {
      if (isRemoteReference(path)) return remoteModelName(nodes.get(path));
      if (!existsSync(path)) throw new HomebodyError('MODEL_NOT_FOUND', `There is no model file at ${path}.`);
      return basename(path);
    },
    /** Seals again the nodes' API keys an older way of sealing kept (see sealClearSecrets). */
    sealStoredSecrets: (): boolean => nodes.sealStoredSecrets(),
    /** Lists interrupted downloads as paused; from then on, every model change is announced and remembered. */
    async startUp(): Promise<void> {
      await library.init();
      engine.onStateChange((state) => {
        emit({ type: 'model.state', state });
        if (state.status === 'ready') store.settings.set(LAST_MODEL_KEY, state.info.path);
        library.engineChanged();
      });
    },
    /** Loads the given model, else the last one, in the background. */
    /** Opens the given model, else the last one used; answers its load, or undefined when there is none to open. */
    loadAtStart(modelPath: string | undefined): Promise<unknown> | undefined {
      const last = store.settings.get(LAST_MODEL_KEY);
      // A last model that has since moved is still tried, so the user is told where it was expected.
      const initial = modelPath ?? (typeof last === 'string' ? last : undefined);
      if (!initial) return undefined;
      const loading = engine.load(initial);
      loading.catch(() => {}); // a failure is the engine's state, shown where the model is
      return loading;
    },
    /** Before "Delete all my data" with the models: downloads stop, and a model whose file goes is closed. */
    async stopForWipe(includeModels: boolean): Promise<void> {
      if (!includeModels) return;
      for (const download of library.downloads.list()) {
        if (download.state !== 'done' && download.state !== 'cancelled') await library.downloads.cancel(download.id);
      }
      // A loaded model is not user data and stays loaded, unless its file is about to be deleted.
      const state = engine.state;
      const path = state.status === 'ready' ? state.info.path : state.status === 'loading' ? state.path : null;
      if (path && isInside(modelsDir, path)) await engine.close();
    },
    /** After "Delete all my data": the page is told what is left. */
    afterWipe: (): void => emit({ type: 'models.changed', listing: library.listing() }),
    /** Stops the downloads (the engine is disposed last, after everything that could use it). */
    dispose: (): Promise<void> => library.dispose(),
  };
}
export type ModelsService = ReturnType<typeof createModelsService>;
