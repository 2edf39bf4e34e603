import type {
  AppError,
  AppInfo,
  CatalogEntry,
  HomebodyApi,
  HostEvent,
  HostEventOf,
  Message,
  ModelState,
  Policy,
  PolicyMode,
  AuditEvent,
  TaskSummary,
  ToolCall,
  ToolInfo,
} from '../../src-shared/contract/index.js';
import type { ConnectionState } from '../bridge/hostClient.js';

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
}
export interface ChatActions {
  openTask(taskId: string): Promise<void>;
  newTask(): void;
  /** Resolves true when the Host accepted the text. */
  send(text: string): Promise<boolean>;
  stop(): Promise<void>;
  reloadOpenTask(): Promise<void>;
  dismissChatError(): void;
}

export type Page = 'chat' | 'approvals' | 'settings' | 'audit';

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
  approveCalls(ids: string[], args?: Record<string, unknown>): Promise<ActionResult>;
  denyCalls(ids: string[], reason?: string | null): Promise<ActionResult>;
}

export interface SettingsData {
  policy: Policy | null;
  tools: ToolInfo[];
  settingsError: AppError | null;
  settingsBusy: boolean;
}
export interface SettingsActions {
  loadSettings(): Promise<void>;
  setToolMode(tool: string, mode: PolicyMode): Promise<ActionResult>;
  grantFolder(path: string, untrusted: boolean): Promise<ActionResult>;
  revokeFolder(path: string): Promise<ActionResult>;
  importPolicy(policy: unknown): Promise<ActionResult>;
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
  connection: ConnectionState;
  initialized: boolean;
}
export interface UiActions {
  requestOnboarding(): void;
  closeOnboarding(): void;
  showBanner(error: AppError): void;
  dismissBanner(): void;
  setConnection(state: ConnectionState): void;
  setPage(page: Page): void;
}

export interface RootActions {
  /** Start-up: app info, model state, catalog, task list, and the task open before a reload. */
  init(): Promise<void>;
  /** After a reconnect: events may have been missed, so fetch what they would have told us. */
  refresh(): Promise<void>;
  applyEvent(event: HostEvent): void;
  applyDeltas(batch: readonly MessageDelta[]): void;
}

export type AppData = ModelData & TasksData & ChatData & UiData & ApprovalsData & SettingsData & AuditData;
export type AppState = AppData &
  ModelActions &
  TasksActions &
  ChatActions &
  ToolCallActions &
  UiActions &
  ApprovalsActions &
  SettingsActions &
  AuditActions &
  RootActions;

export const OPEN_TASK_KEY = 'homebody.openTaskId';
