/**
 * Stands in for Electron's own typings where the optional `electron` package is
 * not installed (its postinstall downloads a binary, which fails on machines
 * without internet; npm then skips the whole optional dependency).
 *
 * Only the subset of Electron 39's API that src-main/app, ipc and preload use,
 * copied in shape from electron@39.5.0's electron.d.ts (member names, parameter
 * lists, return types); unions of permission names are widened to `string`
 * and `any` is narrowed to `unknown`.
 *
 * Where the real package is installed, its electron.d.ts declares the same
 * module with `export = Electron.CrossProcessExports`. That export assignment
 * wins over the named exports below (TypeScript resolves an import against a
 * module's `export =` when it has one), and the merge complaint lands in
 * declaration files, which `skipLibCheck` leaves alone; so the real typings are
 * used there and this file only fills the gap here. Keep it a script (no
 * top-level import or export) so that it stays an ambient declaration.
 */
declare module 'electron' {
  type Event<Params extends object = object> = {
    preventDefault: () => void;
    readonly defaultPrevented: boolean;
  } & Params;

  // ---- app -------------------------------------------------------------

  interface App {
    on(event: 'activate', listener: (event: Event, hasVisibleWindows: boolean) => void): this;
    on(event: 'before-quit', listener: (event: Event) => void): this;
    on(event: 'will-quit', listener: (event: Event) => void): this;
    on(event: 'window-all-closed', listener: () => void): this;
    on(
      event: 'second-instance',
      listener: (event: Event, argv: string[], workingDirectory: string, additionalData: unknown) => void,
    ): this;
    on(event: 'web-contents-created', listener: (event: Event, webContents: WebContents) => void): this;
    enableSandbox(): void;
    exit(exitCode?: number): void;
    getAppPath(): string;
    getPath(
      name:
        | 'home'
        | 'appData'
        | 'assets'
        | 'userData'
        | 'sessionData'
        | 'temp'
        | 'exe'
        | 'module'
        | 'desktop'
        | 'documents'
        | 'downloads'
        | 'music'
        | 'pictures'
        | 'videos'
        | 'recent'
        | 'logs'
        | 'crashDumps',
    ): string;
    getVersion(): string;
    quit(): void;
    requestSingleInstanceLock(additionalData?: Record<string, unknown>): boolean;
    setPath(name: string, path: string): void;
    whenReady(): Promise<void>;
    readonly isPackaged: boolean;
  }
  const app: App;

  // ---- windows and web contents -----------------------------------------

  interface WebPreferences {
    devTools?: boolean;
    nodeIntegration?: boolean;
    nodeIntegrationInWorker?: boolean;
    nodeIntegrationInSubFrames?: boolean;
    preload?: string;
    sandbox?: boolean;
    session?: Session;
    partition?: string;
    webSecurity?: boolean;
    allowRunningInsecureContent?: boolean;
    experimentalFeatures?: boolean;
    contextIsolation?: boolean;
    webviewTag?: boolean;
    safeDialogs?: boolean;
    navigateOnDragDrop?: boolean;
    spellcheck?: boolean;
    enableWebSQL?: boolean;
    enableBlinkFeatures?: string;
    disableBlinkFeatures?: string;
  }

  interface BrowserWindowConstructorOptions {
    width?: number;
    height?: number;
    minWidth?: number;
    minHeight?: number;
    show?: boolean;
    title?: string;
    icon?: string;
    backgroundColor?: string;
    webPreferences?: WebPreferences;
  }

  class BrowserWindow {
    constructor(options?: BrowserWindowConstructorOptions);
    static getAllWindows(): BrowserWindow[];
    on(event: 'closed', listener: () => void): this;
    once(event: 'ready-to-show', listener: () => void): this;
    focus(): void;
    isDestroyed(): boolean;
    isMinimized(): boolean;
    loadURL(url: string): Promise<void>;
    restore(): void;
    show(): void;
    readonly id: number;
    webContents: WebContents;
  }

  class WebFrameMain {
    isDestroyed(): boolean;
    readonly frames: WebFrameMain[];
    readonly origin: string;
    readonly parent: WebFrameMain | null;
    readonly processId: number;
    readonly routingId: number;
    readonly top: WebFrameMain | null;
    readonly url: string;
  }

  interface WebContentsWillNavigateEventParams {
    url: string;
    isSameDocument: boolean;
    isMainFrame: boolean;
    frame: WebFrameMain | null;
    initiator?: WebFrameMain | null;
  }
  interface WebContentsWillFrameNavigateEventParams {
    url: string;
    isSameDocument: boolean;
    isMainFrame: boolean;
    frame: WebFrameMain | null;
    initiator?: WebFrameMain | null;
  }
  interface WebContentsWillRedirectEventParams {
    url: string;
    isSameDocument: boolean;
    isMainFrame: boolean;
    frame: WebFrameMain | null;
    initiator?: WebFrameMain | null;
  }

  interface HandlerDetails {
    url: string;
    frameName: string;
    features: string;
    disposition: 'default' | 'foreground-tab' | 'background-tab' | 'new-window' | 'other';
  }
  interface WindowOpenHandlerResponse {
    action: 'allow' | 'deny';
  }

  interface WebContents {
    on(event: 'will-navigate', listener: (details: Event<WebContentsWillNavigateEventParams>) => void): this;
    on(event: 'will-frame-navigate', listener: (details: Event<WebContentsWillFrameNavigateEventParams>) => void): this;
    on(event: 'will-redirect', listener: (details: Event<WebContentsWillRedirectEventParams>) => void): this;
    on(
      event: 'will-attach-webview',
      listener: (event: Event, webPreferences: WebPreferences, params: Record<string, string>) => void,
    ): this;
    getURL(): string;
    isDestroyed(): boolean;
    send(channel: string, ...args: unknown[]): void;
    setWindowOpenHandler(handler: (details: HandlerDetails) => WindowOpenHandlerResponse): void;
    readonly id: number;
    readonly mainFrame: WebFrameMain;
    readonly session: Session;
  }

  // ---- IPC ---------------------------------------------------------------

  interface IpcMainInvokeEvent extends Event {
    frameId: number;
    processId: number;
    sender: WebContents;
    readonly senderFrame: WebFrameMain | null;
    type: 'frame';
  }
  interface IpcMain {
    handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void;
    removeHandler(channel: string): void;
  }
  const ipcMain: IpcMain;

  interface IpcRendererEvent extends Event {
    sender: IpcRenderer;
  }
  interface IpcRenderer {
    invoke(channel: string, ...args: unknown[]): Promise<unknown>;
    on(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void): this;
    removeListener(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void): this;
  }
  const ipcRenderer: IpcRenderer;

  interface ContextBridge {
    exposeInMainWorld(apiKey: string, api: unknown): void;
  }
  const contextBridge: ContextBridge;

  // ---- sessions and protocols --------------------------------------------

  interface Privileges {
    standard?: boolean;
    secure?: boolean;
    bypassCSP?: boolean;
    allowServiceWorkers?: boolean;
    supportFetchAPI?: boolean;
    corsEnabled?: boolean;
    stream?: boolean;
    codeCache?: boolean;
  }
  interface CustomScheme {
    scheme: string;
    privileges?: Privileges;
  }
  interface Protocol {
    handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void;
    isProtocolHandled(scheme: string): boolean;
    registerSchemesAsPrivileged(customSchemes: CustomScheme[]): void;
    unhandle(scheme: string): void;
  }
  const protocol: Protocol;

  interface PermissionRequest {
    requestingUrl?: string;
    isMainFrame: boolean;
  }
  interface PermissionCheckHandlerHandlerDetails {
    embeddingOrigin?: string;
    requestingUrl?: string;
    isMainFrame?: boolean;
  }
  interface OnBeforeRequestListenerDetails {
    id: number;
    url: string;
    method: string;
    webContentsId?: number;
    resourceType: string;
    referrer: string;
    timestamp: number;
  }
  interface CallbackResponse {
    cancel?: boolean;
    redirectURL?: string;
  }
  interface WebRequestFilter {
    urls: string[];
    excludeUrls?: string[];
    types?: string[];
  }
  interface WebRequest {
    onBeforeRequest(
      filter: WebRequestFilter,
      listener:
        ((details: OnBeforeRequestListenerDetails, callback: (response: CallbackResponse) => void) => void) | null,
    ): void;
    onBeforeRequest(
      listener:
        ((details: OnBeforeRequestListenerDetails, callback: (response: CallbackResponse) => void) => void) | null,
    ): void;
  }
  class Session {
    static readonly defaultSession: Session;
    readonly webRequest: WebRequest;
    setPermissionCheckHandler(
      handler:
        | ((
            webContents: WebContents | null,
            permission: string,
            requestingOrigin: string,
            details: PermissionCheckHandlerHandlerDetails,
          ) => boolean)
        | null,
    ): void;
    setPermissionRequestHandler(
      handler:
        | ((
            webContents: WebContents,
            permission: string,
            callback: (permissionGranted: boolean) => void,
            details: PermissionRequest,
          ) => void)
        | null,
    ): void;
    readonly protocol: Protocol;
  }
  const session: typeof Session;

  // ---- dialogs -----------------------------------------------------------

  interface FileFilter {
    extensions: string[];
    name: string;
  }
  interface OpenDialogOptions {
    title?: string;
    defaultPath?: string;
    buttonLabel?: string;
    filters?: FileFilter[];
    properties?: Array<
      | 'openFile'
      | 'openDirectory'
      | 'multiSelections'
      | 'showHiddenFiles'
      | 'createDirectory'
      | 'promptToCreate'
      | 'noResolveAliases'
      | 'treatPackageAsDirectory'
      | 'dontAddToRecent'
    >;
    message?: string;
  }
  interface OpenDialogReturnValue {
    canceled: boolean;
    filePaths: string[];
    bookmarks?: string[];
  }
  interface MessageBoxOptions {
    message: string;
    type?: 'none' | 'info' | 'error' | 'question' | 'warning';
    buttons?: string[];
    defaultId?: number;
    signal?: AbortSignal;
    title?: string;
    detail?: string;
    checkboxLabel?: string;
    checkboxChecked?: boolean;
    cancelId?: number;
    noLink?: boolean;
    normalizeAccessKeys?: boolean;
  }
  interface MessageBoxReturnValue {
    response: number;
    checkboxChecked: boolean;
  }
  interface Dialog {
    showOpenDialog(window: BrowserWindow, options: OpenDialogOptions): Promise<OpenDialogReturnValue>;
    showOpenDialog(options: OpenDialogOptions): Promise<OpenDialogReturnValue>;
    showMessageBox(window: BrowserWindow, options: MessageBoxOptions): Promise<MessageBoxReturnValue>;
    showMessageBox(options: MessageBoxOptions): Promise<MessageBoxReturnValue>;
    showErrorBox(title: string, content: string): void;
  }
  const dialog: Dialog;

  // ---- clipboard, shell, notifications (the device tools) ----------------

  interface Clipboard {
    readText(type?: 'selection' | 'clipboard'): string;
    writeText(text: string, type?: 'selection' | 'clipboard'): void;
  }
  const clipboard: Clipboard;
  interface Shell {
    openExternal(
      url: string,
      options?: { activate?: boolean; workingDirectory?: string; logUsage?: boolean },
    ): Promise<void>;
    openPath(path: string): Promise<string>;
  }
  const shell: Shell;
  interface NotificationConstructorOptions {
    title?: string;
    subtitle?: string;
    body?: string;
    silent?: boolean;
  }
  class Notification {
    constructor(options?: NotificationConstructorOptions);
    static isSupported(): boolean;
    show(): void;
    close(): void;
  }

  // ---- safeStorage (secrets sealed with the OS keychain) -----------------

  interface SafeStorage {
    isEncryptionAvailable(): boolean;
    encryptString(plainText: string): Buffer;
    decryptString(encrypted: Buffer): string;
    /** Linux only. */
    getSelectedStorageBackend(): 'basic_text' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'unknown';
  }
  const safeStorage: SafeStorage;
}
