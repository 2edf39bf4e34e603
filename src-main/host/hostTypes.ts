import type {
  ApiMethod,
  ApiRequest,
  ApiResponse,
  ApiResult,
  HostEvent,
  ThinkingSetting,
} from '../../src-shared/contract/index.js';
import type { ReplyOptions } from '../agent/chatRunner.js';
import type { EngineConfig } from '../llm/engineConfig.js';
import type { EngineFactory } from '../llm/llamaEngine.js';
import type { ObservedConnection } from '../privacy/egressLedger.js';
import type { ModelsOptions } from '../services/models/modelsService.js';
import type { OsKeychain } from '../privacy/secretStore.js';
import type { DeviceBridge } from '../services/packs/deviceBridge.js';
import type { CommandConfirmer } from '../tools/mcp/commandConfirmation.js';

/** Which shell runs the Host; decides what a few methods can do (a native file dialog only in electron). */
export type Shell = 'electron' | 'browser' | 'cli';

export interface HostOptions {
  /** The app's data folder: the SQLite file and everything else Homebody keeps. */
  readonly dataDir: string;
  readonly shell: Shell;
  /** A GGUF file to load at start; otherwise the last model opened is loaded again, if any. */
  readonly modelPath?: string;
  /** The desktop shell's file dialog, for 'model.chooseFile'. */
  readonly chooseModelFile?: () => Promise<string | null>;
  /**
   * How the shell asks the user to confirm a stdio MCP server's exact command before it runs: a native dialog in the
   * desktop app (app/mcpCommandDialog.ts), the page and a code in the terminal in browser mode
   * (services/mcp/pageCommandConfirmer.ts). Without one (the CLI), no command the user has not confirmed runs.
   */
  readonly confirmMcpCommand?: CommandConfirmer;
  /** better-sqlite3's addon built for Electron's ABI, when running inside Electron. */
  readonly sqliteNativeBinding?: string;
  readonly version?: string;
  /**
   * The desktop shell's OS keychain, which seals mail passwords and MCP tokens; absent (browser mode, the CLI) or
   * unavailable, they are sealed with a key file in the data folder (src-main/privacy/secretStore.ts).
   */
  readonly keychain?: OsKeychain;
}

export interface CreateHostOptions extends HostOptions {
  readonly engineConfig?: Partial<EngineConfig>;
  readonly reply?: Partial<ReplyOptions>;
  /**
   * Someone can answer a permission prompt in the chat. Default true; `homebody run` has no one to ask, so a call
   * that needs asking is not run there and the model is told so.
   */
  readonly canAsk?: boolean;
  /** Thinking for this run, whatever each model's saved choice (`homebody run --thinking`). */
  readonly thinking?: ThinkingSetting;
  /** Load the given (or last) model in the background at start. Default true. */
  readonly loadModelOnStart?: boolean;
  /** How the Host makes the chat's engine and each evaluation's; default createLlamaEngine. */
  readonly createEngine?: EngineFactory;
  /** Tests: the timeouts of requests to a model on another computer, and a grammar that steers its replies. */
  readonly remoteEngine?: ModelsOptions['remoteEngine'];
  /**
   * The tool worker module to run; default the one beside the executor (compiled JavaScript in the app, where Node's
   * permission model walls it in; TypeScript through tsx from sources, where it cannot). Tests hand the compiled one
   * to a Host running from sources, so the worker runs as users get it.
   */
  readonly toolWorker?: string;
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

/** What the data folder's owner record names, by shell, when the caller names no command. */
export const SHELL_COMMANDS: Readonly<Record<Shell, string>> = {
  electron: 'the Homebody desktop app',
  browser: 'homebody serve',
  cli: 'homebody',
};

/**
 * The Host as its transports (Electron IPC, browser mode's server) see it: one entry point that validates a raw
 * request on arrival and answers with a result value, and one event stream.
 */
export interface HostTransport {
  call(method: string, request: unknown): Promise<ApiResult<unknown>>;
  subscribe(listener: (event: HostEvent) => void): () => void;
  dispose(): Promise<void>;
}

/** The Host as the shells hold it: the transports' entry points, plus what in-process callers need. */
export interface Host extends HostTransport {
  /**
   * The same contract methods as `call`, validated the same way, typed for in-process callers (the CLI): answers
   * the method's response, or throws HomebodyError.
   */
  invoke<M extends ApiMethod>(method: M, request: ApiRequest<M>): Promise<ApiResponse<M>>;
  /** Records a connection seen outside the egress guard (the desktop window's session) in the egress ledger. */
  recordConnection(observed: ObservedConnection): void;
}
