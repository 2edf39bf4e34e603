import type {
  AppError,
  FolderState,
  AppInfo,
  CatalogEntry,
  ExportFormat,
  HistoryCursor,
  HistoryEntry,
  HomebodyApi,
  HostEvent,
  HostEventOf,
  LocalModel,
  Message,
  ModelsListing,
  ModelState,
  Policy,
  RemoveModelResult,
  PolicyMode,
  AuditEvent,
  ImportReport,
  SearchHit,
  TaskDetail,
  TaskSummary,
  ThinkingSetting,
  ToolCall,
  ToolInfo,
  ApiRequest,
  ApiResponse,
  BenchResult,
  DoctorReport,
  EgressEvent,
  EvalGateView,
  EvalRun,
  EvalRunSummary,
  EvalSuiteInfo,
  McpServerConfig,
  McpServerView,
  ModelSettingsView,
  NetworkRule,
  NodeProbe,
  RemoteNode,
  NetworkSettingsView,
  PackSettingsView,
  Risk,
  SavedModelSettings,
  StorageReport,
} from '../../src-shared/contract/index.js';
import type { ConnectionState } from '../bridge/hostClient.js';
import type { HistoryFilterInput } from './historyView.js';

/*
 * Every slice's state and actions, and the store they compose. This module is a leaf of the store: it imports only
 * the contract, the bridge's types and helpers that import nothing from the store. The slices import it, never the
 * reverse: a slice that kept its own types would be imported back from here, a cycle `npm run lint:deps` refuses.
 */

export type MessageDelta = Omit<HostEventOf<'message.delta'>, 'type'>;

/** Small persistent key/value storage (sessionStorage in the app, a Map in tests). */
export interface KeyValueStore {
  get(key: string): string | null;
  set(key: string, value: string | null): void;
}

export interface StoreDeps {
  api: HomebodyApi;
  storage: KeyValueStore;
}

export interface ModelData {
  appInfo: AppInfo | null;
  /** null until the first answer from the Host. */
  modelState: ModelState | null;
  catalog: CatalogEntry[];
  catalogError: AppError | null;
  /** A model.open or model.chooseFile call is in flight. */
  modelBusy: boolean;
  /** The last failed model.open / model.chooseFile call, shown in place on onboarding. */
  modelError: AppError | null;
}
export interface ModelActions {
  openModel(path: string): Promise<void>;
  chooseAndOpenModel(): Promise<void>;
}

export interface TasksData {
  /** Newest first (by updatedAt). */
  tasks: TaskSummary[];
  tasksError: AppError | null;
}
export interface TasksActions {
  loadTasks(): Promise<void>;
}

export interface ChatData {
  openTaskId: string | null;
  openTaskSummary: TaskSummary | null;
  /** Messages of the open task, ordered by seq. */
  messages: Message[];
  /** Tool calls of the open task, oldest first, as the Host last reported them. */
  toolCalls: ToolCall[];
  taskLoading: boolean;
  /** chat.send is in flight. */
  sending: boolean;
  /** chat.send with taskId null is in flight: the first message.created of a new task opens it. */
  awaitingNewTask: boolean;
  chatError: AppError | null;
  /**
   * The model in use runs on another computer and this task has not been allowed to use it: the Host refused the
   * message (REMOTE_CONSENT_REQUIRED) before saving anything. The composer asks; the text stays in its box.
   */
  remoteConsent: RemoteConsentRequest | null;
}

/** A message the Host would send to a model on another computer once the user agrees, for this task. */
export interface RemoteConsentRequest {
  /** The task it was for (null: a new task). */
  readonly taskId: string | null;
  readonly text: string;
  /** The Host's words: which computer, and what would go there. */
  readonly message: string;
}
export interface ChatActions {
  openTask(taskId: string): Promise<void>;
  newTask(): void;
  /**
   * Resolves true when the Host accepted the text. `allowRemote`: the user agreed that this task goes to the model on
   * another computer in use now (asked through `remoteConsent`).
   */
  send(text: string, options?: { readonly allowRemote?: boolean }): Promise<boolean>;
  /** The user did not agree: nothing is sent, the text stays in the composer. */
  dismissRemoteConsent(): void;
  stop(): Promise<void>;
  reloadOpenTask(): Promise<void>;
  dismissChatError(): void;
}

export type Page = 'chat' | 'history' | 'approvals' | 'settings' | 'privacy' | 'audit' | 'models' | 'doctor' | 'eval';

/** What a tool-call action answers: null when it worked, otherwise the error to show in place. */
export type ActionResult = AppError | null;

export interface ToolCallActions {
  answerToolCall(
    id: string,
    answer: 'allow-once' | 'allow-task' | 'always' | 'deny',
    reason?: string | null,
  ): Promise<ActionResult>;
  undoToolCall(id: string): Promise<ActionResult>;
}

export interface ApprovalsData {
  /** Calls waiting in the approval queue (gate 'queue', state pending or interrupted), oldest first. */
  queue: ToolCall[];
  approvalsLoaded: boolean;
  approvalsError: AppError | null;
}
export interface ApprovalsActions {
  loadApprovals(): Promise<void>;
  /** Approves queued calls; their tasks go on once none of their calls waits, unless `continueTask` is false. */
  approveCalls(
    ids: string[],
    args?: Record<string, unknown>,
    options?: { readonly continueTask?: boolean },
  ): Promise<ActionResult>;
  denyCalls(ids: string[], reason?: string | null): Promise<ActionResult>;
}

export interface SettingsData {
  policy: Policy | null;
  /** Each granted folder as it is now (a folder replaced since it was granted grants nothing). */
  folderStates: FolderState[];
  tools: ToolInfo[];
  settingsError: AppError | null;
  settingsBusy: boolean;
}
export interface SettingsActions {
  loadSettings(): Promise<void>;
  setToolMode(tool: string, mode: PolicyMode): Promise<ActionResult>;
  /**
   * Grants a folder. A broad one (the disk, the home folder, a system folder) answers CONFIRMATION_REQUIRED with its
   * warning, which is not shown as an error: the page asks, then grants with `confirmBroad`.
   */
  grantFolder(path: string, untrusted: boolean, confirmBroad?: boolean): Promise<ActionResult>;
  revokeFolder(path: string): Promise<ActionResult>;
  importPolicy(policy: unknown, confirmBroad?: boolean): Promise<ActionResult>;
  showSettingsError(error: AppError | null): void;
}

export interface AuditData {
  /** Newest first. */
  auditEvents: AuditEvent[];
  auditHasMore: boolean;
  auditLoading: boolean;
  auditError: AppError | null;
}
export interface AuditActions {
  /** Reloads the newest page. */
  loadAudit(): Promise<void>;
  /** Appends the page before the oldest event shown. */
  loadOlderAudit(): Promise<void>;
}

export interface UiData {
  /** Which page the main area shows. */
  page: Page;
  /** The user asked for onboarding ("Change model") while a model may be ready. */
  onboardingRequested: boolean;
  /** A problem that belongs to no one place: malformed event, lost connection, failed start-up call. */
  banner: AppError | null;
  /** What the Host said at start-up that the user must know (e.g. a damaged database moved aside), until dismissed. */
  notices: AppError[];
  connection: ConnectionState;
  initialized: boolean;
}
export interface UiActions {
  requestOnboarding(): void;
  closeOnboarding(): void;
  showBanner(error: AppError): void;
  dismissBanner(): void;
  dismissNotice(index: number): void;
  setConnection(state: ConnectionState): void;
  setPage(page: Page): void;
}

/** What an action answers when it has something to give back: its value, or the error to show in place. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: AppError };

/** An export, ready to save as a file. */
export interface ExportFile {
  fileName: string;
  mimeType: string;
  content: string;
  tasks: number;
}

export interface HistoryData {
  /** What the filter controls hold; the list shows the tasks that match it. */
  historyFilter: HistoryFilterInput;
  /** The loaded part of the list, newest first (by last activity). */
  historyEntries: HistoryEntry[];
  /** How many tasks match the filter in all; null before the first page. */
  historyTotal: number | null;
  /** Where the next page starts; null when everything that matches is loaded. */
  historyNext: HistoryCursor | null;
  historyLoading: boolean;
  /** A page was asked for and answered at least once since the filter last changed. */
  historyLoaded: boolean;
  /** Tasks changed in ways the loaded list cannot show (a new task); a reload shows them. */
  historyStale: boolean;
  historyError: AppError | null;
  /** Tool names for the tool filter. */
  historyTools: string[];
  historySelection: ReadonlySet<string>;
  /** The last task clicked without Shift: one end of a Shift-click range. */
  historySelectionAnchor: string | null;
  /** Where the list was scrolled to, kept while the timeline of one of its tasks is open. */
  historyScrollTop: number;
  /** Days, null to keep everything; undefined until loaded. */
  historyRetention: number | null | undefined;
  /** The task whose timeline the History page shows, instead of the list. */
  timelineTaskId: string | null;
  timelineDetail: TaskDetail | null;
  timelineError: AppError | null;
}
export interface HistoryActions {
  /** Reloads the first page (and the tool names) for the current filter. */
  loadHistory(): Promise<void>;
  /** Loads further pages until at least `needed` tasks are loaded (or all of them are). */
  loadMoreHistory(needed: number): Promise<void>;
  setHistoryFilter(filter: HistoryFilterInput): void;
  selectHistory(id: string, on: boolean, range: boolean): void;
  setHistorySelection(ids: readonly string[]): void;
  clearHistorySelection(): void;
  setHistoryScrollTop(scrollTop: number): void;
  /** Exports the given tasks, or every task when `taskIds` is null. */
  exportHistory(taskIds: readonly string[] | null, format: ExportFormat): Promise<Outcome<ExportFile>>;
  importHistory(content: string): Promise<Outcome<ImportReport>>;
  deleteHistory(taskIds: readonly string[]): Promise<Outcome<number>>;
  deleteAllHistory(): Promise<Outcome<number>>;
  loadRetention(): Promise<void>;
  /** How many tasks were last active before `cutoff` (what a retention period would delete now). */
  countHistoryBefore(cutoff: number): Promise<Outcome<number>>;
  setRetention(days: number | null): Promise<Outcome<{ days: number | null; deleted: number }>>;
  openTimeline(taskId: string): Promise<void>;
  closeTimeline(): void;
}

/** A message or tool call to scroll to and highlight once its task is shown in the chat. */
export interface FocusTarget {
  taskId: string;
  kind: 'message' | 'toolCall';
  id: string;
}

export type SearchState = 'idle' | 'searching' | 'done';

export interface SearchData {
  searchOpen: boolean;
  searchQuery: string;
  /** The hits for `searchQuery` once answered; stale answers are dropped. */
  searchHits: SearchHit[];
  searchState: SearchState;
  searchError: AppError | null;
  focusTarget: FocusTarget | null;
}
export interface SearchActions {
  openSearch(): void;
  closeSearch(): void;
  setSearchQuery(query: string): void;
  /** Asks the Host for `query`'s hits; an answer that comes after a newer search started is dropped. */
  runSearch(query: string): Promise<void>;
  /** Opens the hit's task in the chat and asks it to scroll to the matching message or tool call. */
  openSearchHit(hit: SearchHit): Promise<void>;
  clearFocusTarget(): void;
}

export interface ModelsData {
  /** The catalog with each entry's download, the models on disk, unfinished downloads; null until loaded. */
  modelsListing: ModelsListing | null;
  modelsLoading: boolean;
  /** Loading the listing failed. */
  modelsError: AppError | null;
  /** Calls in flight, by key (`download:<catalogId>`, `pause:<downloadId>`, `activate:<modelId>`, `add`, ...). */
  modelsPending: ReadonlySet<string>;
  /** The last failed action, shown in place by its key (a catalog id, a model id, or `add`). */
  modelsActionErrors: Readonly<Record<string, AppError>>;
}
export interface ModelsActions {
  loadModels(): Promise<void>;
  downloadModel(catalogId: string): Promise<ActionResult>;
  pauseDownload(downloadId: string, errorKey: string): Promise<ActionResult>;
  resumeDownload(downloadId: string, errorKey: string): Promise<ActionResult>;
  cancelDownload(downloadId: string, errorKey: string): Promise<ActionResult>;
  /** Adds a GGUF file by path, left where it is. */
  addModel(path: string): Promise<Outcome<LocalModel>>;
  /** Electron: the system's file dialog, then addModel; null when the user closed the dialog. */
  chooseAndAddModel(): Promise<Outcome<LocalModel> | null>;
  removeModel(modelId: string): Promise<Outcome<RemoveModelResult>>;
  /** Makes the model active; answers at once, the load is followed through `model.state` events. */
  activateModel(modelId: string): Promise<ActionResult>;
  verifyModel(modelId: string): Promise<ActionResult>;
  /** Whether the model thinks before it answers ('auto': as its chat template says); applies from the next reply. */
  setModelThinking(modelId: string, thinking: ThinkingSetting): Promise<ActionResult>;
  dismissModelsError(key: string): void;
}

/** What the user typed in the form for a model on another computer, besides its URL. */
export interface NodeInputs {
  readonly apiKey?: string;
  readonly label?: string;
  readonly allowOffline: boolean;
}

export interface NodesData {
  /** The models on other computers the user added, oldest first; null until loaded. */
  nodes: RemoteNode[] | null;
  /** Loading the list failed. */
  nodesError: AppError | null;
  /** What the last check of a server answered, shown for the user to add or not; nothing is saved yet. */
  nodeProbe: NodeProbe | null;
  /** Calls in flight, by key (`probe`, `add`, `use:<id>`, `remove:<id>`, `offline:<id>`). */
  nodesPending: ReadonlySet<string>;
  /** The last failed action, shown in place by its key (`probe`, `add`, or a node's id). */
  nodesActionErrors: Readonly<Record<string, AppError>>;
}
export interface NodesActions {
  loadNodes(): Promise<void>;
  /** Asks the server what it serves, saving nothing; the answer is `nodeProbe`. */
  probeNode(url: string, inputs: NodeInputs): Promise<Outcome<NodeProbe>>;
  /** Adds the server `nodeProbe` showed: its URL, its model, and over https the certificate the user saw. */
  addNode(inputs: NodeInputs): Promise<Outcome<RemoteNode>>;
  /** Forgets the probe's answer without adding anything. */
  cancelNodeProbe(): void;
  removeNode(id: string): Promise<Outcome<{ id: string; message: string }>>;
  setNodeAllowOffline(id: string, allow: boolean): Promise<ActionResult>;
  /** Makes the node's model the chat's; resolves once connected (or not), the state also arrives as events. */
  useNode(id: string): Promise<ActionResult>;
  dismissNodesError(key: string): void;
}

/** A short notice in the corner: a reminder that fell due, or a notification the browser would not show. */
export interface Toast {
  readonly id: string;
  readonly title: string;
  readonly body: string;
}

/** An address the Host asks the page to open; it opens only when the user clicks Open. */
export interface OpenRequest {
  readonly id: string;
  readonly target: string;
}

export interface DeviceData {
  toasts: Toast[];
  openRequest: OpenRequest | null;
}
export interface DeviceActions {
  showToast(title: string, body: string): void;
  dismissToast(id: string): void;
  /** Carries out a `device.request` event and answers the Host. */
  handleDeviceRequest(event: HostEventOf<'device.request'>): Promise<void>;
  /** The user's click on the open confirmation. */
  answerOpen(open: boolean): Promise<void>;
}

export interface PackSettingsData {
  /** The tool packs' settings as the Host holds them (passwords only as set / not set); null until loaded. */
  packSettings: PackSettingsView | null;
  packSettingsBusy: boolean;
  /** The last failed load or save, in the Host's words. */
  packSettingsError: AppError | null;
}
export interface PackSettingsActions {
  loadPackSettings(): Promise<void>;
  /** Sends the whole form; on an error nothing is saved and the view stays as it was. */
  savePackSettings(patch: ApiRequest<'packs.setSettings'>): Promise<ActionResult>;
  dismissPackSettingsError(): void;
  /** Connects to the saved mail server only to see its certificate (packs.checkCertificate). */
  checkMailCertificate(
    account: ApiRequest<'packs.checkCertificate'>['account'],
  ): Promise<ApiResponse<'packs.checkCertificate'> | AppError>;
  /** Trusts exactly the certificate a check showed for the account (null: stops trusting one); the view follows. */
  trustMailCertificate(
    account: ApiRequest<'packs.trustCertificate'>['account'],
    sha256: string | null,
  ): Promise<ActionResult>;
}

export interface DoctorData {
  doctorReport: DoctorReport | null;
  doctorLoading: boolean;
  doctorError: AppError | null;
  /** doctor.bench is running (seconds to a minute). */
  benchRunning: boolean;
  benchError: AppError | null;
  /** The model settings (defaults, saved, overrides, effective); null until loaded. */
  modelSettings: ModelSettingsView | null;
  modelSettingsBusy: boolean;
  modelSettingsError: AppError | null;
}
export interface DoctorActions {
  loadDoctor(): Promise<void>;
  /** Measures speed on this computer, then reloads the report (which now shows measured figures). */
  runBench(catalogId?: string): Promise<BenchResult | null>;
  loadModelSettings(): Promise<void>;
  /** Replaces the saved settings; `{}` resets to the defaults. A reload of the model runs in the background. */
  saveModelSettings(settings: SavedModelSettings): Promise<ActionResult>;
}

export interface McpData {
  /** The MCP servers; null until loaded. Kept current by `mcp.changed` events. */
  mcpServers: McpServerView[] | null;
  mcpError: AppError | null;
  /** Names of servers with an action in flight (enable, restart, remove). */
  mcpBusy: string[];
}
export interface McpActions {
  loadMcp(): Promise<void>;
  addMcpServer(server: McpServerConfig): Promise<ActionResult>;
  /** Adds every server of an mcp.json text; answers null when all were added. */
  importMcpJson(text: string): Promise<ActionResult>;
  removeMcpServer(name: string): Promise<ActionResult>;
  setMcpEnabled(name: string, enabled: boolean): Promise<ActionResult>;
  restartMcpServer(name: string): Promise<ActionResult>;
  reviewMcpTool(server: string, tool: string): Promise<ActionResult>;
  setMcpRisk(server: string, tool: string, risk: Risk | null): Promise<ActionResult>;
  setMcpTrustAnnotations(name: string, trust: boolean): Promise<ActionResult>;
  /**
   * Browser mode: answers the confirmation of a server's command with the code printed in the terminal, or null to
   * cancel. The server's own action (enable, restart) answers with the outcome.
   */
  answerMcpConfirmation(id: string, code: string | null): Promise<ActionResult>;
  showMcpError(error: AppError | null): void;
}

export interface PrivacyData {
  /** Offline mode and the rules; null until loaded. */
  privacyNetwork: NetworkSettingsView | null;
  privacyNetworkBusy: boolean;
  /** The last failed load or change of the network settings, in the Host's words. */
  privacyNetworkError: AppError | null;
  /** The loaded part of the ledger, newest first; kept live by `egress.recorded` events. */
  ledgerEvents: EgressEvent[];
  /** How many events match the filter in all; null before the first page. */
  ledgerTotal: number | null;
  /** How many of those were allowed. */
  ledgerAllowedCount: number;
  ledgerAllowedOnly: boolean;
  ledgerLoading: boolean;
  ledgerError: AppError | null;
  /** A failed "Allow <host>" of a ledger row, shown on that row, by event id. */
  ledgerAllowErrors: Readonly<Record<number, AppError>>;
  storageReport: StorageReport | null;
  storageLoading: boolean;
  storageError: AppError | null;
  /** "Delete all my data" is running. */
  dataDeleting: boolean;
}

export interface PrivacyActions {
  /** Network settings, the ledger's first page and the storage report. */
  loadPrivacy(): Promise<void>;
  loadNetwork(): Promise<void>;
  setOfflineMode(offline: boolean): Promise<ActionResult>;
  removeNetworkRule(rule: NetworkRule): Promise<ActionResult>;
  /** Adds a rule; the error is the caller's to show in place (the form's field, a ledger row). */
  allowHost(rule: NetworkRule): Promise<ActionResult>;
  /** The "Allow <host> for <feature>" button of a blocked ledger row; its error is shown on the row. */
  allowFromLedger(eventId: number, rule: NetworkRule): Promise<ActionResult>;
  loadLedger(): Promise<void>;
  loadOlderLedger(): Promise<void>;
  setLedgerAllowedOnly(allowedOnly: boolean): Promise<void>;
  loadStorage(): Promise<void>;
  /** Sends the confirmation only when `typed` is it; the Host checks it again. */
  deleteAllData(typed: string, includeModels: boolean): Promise<Outcome<{ deletedBytes: number; removed: string[] }>>;
  /** After `privacy.dataDeleted`: every list the renderer had loaded is fetched again. */
  reloadAfterDataDeleted(): Promise<void>;
}

/** Where a run stands, from its `eval.progress` events. */
export type EvalProgress = Omit<HostEventOf<'eval.progress'>, 'type'>;

export interface EvalStart {
  models: string[];
  suites: string[];
  limit?: number;
}

export interface EvalData {
  /** The suites a run can take; null until loaded. */
  evalSuites: EvalSuiteInfo[] | null;
  evalSuitesError: AppError | null;
  /** Past and current runs, newest first; null until loaded. Kept current by `eval.finished`. */
  evalRuns: EvalRunSummary[] | null;
  evalRunsError: AppError | null;
  /** The run being carried out now (started here, or seen in the list or in a progress event). */
  evalActiveRunId: string | null;
  /** The latest `eval.progress` of the active run. */
  evalProgress: EvalProgress | null;
  /** eval.start is in flight. */
  evalStarting: boolean;
  /** The run whose results are shown. */
  evalSelectedRunId: string | null;
  /** Its results, once fetched (they stay shown while a newer fetch is in flight or after it failed). */
  evalRun: EvalRun | null;
  evalRunLoading: boolean;
  evalRunError: AppError | null;
  evalGates: EvalGateView[] | null;
  evalGatesError: AppError | null;
}

export interface EvalActions {
  /** Suites, runs and gates; the models library and the tools list when not loaded yet. */
  loadEval(): Promise<void>;
  loadEvalRuns(): Promise<void>;
  loadEvalGates(): Promise<void>;
  /** Starts a run; its progress and end arrive as events. The error is the form's to show. */
  startEval(request: EvalStart): Promise<ActionResult>;
  cancelEval(): Promise<ActionResult>;
  /** Shows a run's results, fetching them. */
  selectEvalRun(runId: string): Promise<void>;
  /** Fetches the selected run again (its end was announced). */
  reloadEvalRun(runId: string): Promise<void>;
  deleteEvalRun(runId: string): Promise<ActionResult>;
  exportEvalRun(runId: string, format: 'html' | 'json'): Promise<Outcome<ApiResponse<'eval.export'>>>;
  /** Sets a tool's gate (a fraction 0..1), or removes it with null. */
  setEvalGate(tool: string, threshold: number | null): Promise<ActionResult>;
  recordEvalCase(taskId: string): Promise<Outcome<ApiResponse<'eval.recordCase'>>>;
}

export interface RootActions {
  /** Start-up: app info, model state, catalog, task list, and the task open before a reload. */
  init(): Promise<void>;
  /** After a reconnect: events may have been missed, so fetch what they would have told us. */
  refresh(): Promise<void>;
  applyEvent(event: HostEvent): void;
  applyDeltas(batch: readonly MessageDelta[]): void;
}

export type AppData = ModelData &
  DeviceData &
  TasksData &
  ChatData &
  UiData &
  ApprovalsData &
  SettingsData &
  AuditData &
  HistoryData &
  SearchData &
  ModelsData &
  NodesData &
  PackSettingsData &
  DoctorData &
  McpData &
  PrivacyData &
  EvalData;
export type AppState = AppData &
  DeviceActions &
  HistoryActions &
  SearchActions &
  ModelActions &
  TasksActions &
  ChatActions &
  ToolCallActions &
  UiActions &
  ApprovalsActions &
  SettingsActions &
  AuditActions &
  ModelsActions &
  NodesActions &
  RootActions &
  PackSettingsActions &
  DoctorActions &
  McpActions &
  PrivacyActions &
  EvalActions;

export const OPEN_TASK_KEY = 'homebody.openTaskId';
