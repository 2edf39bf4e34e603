import type { ApiResult, HostEvent } from '../../src-shared/contract/index.js';
import type { OsKeychain } from '../privacy/secretStore.js';
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
   * (host/pageCommandConfirmer.ts). Without one (the CLI), no command the user has not confirmed runs.
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

/**
 * The Host as its transports see it: one entry point that validates a raw
 * request on arrival and answers with a result value, and one event stream.
 */
export interface Host {
  call(method: string, request: unknown): Promise<ApiResult<unknown>>;
  subscribe(listener: (event: HostEvent) => void): () => void;
  dispose(): Promise<void>;
}
