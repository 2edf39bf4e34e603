import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../../../src-shared/contract/index.js';
import { ToolError, type JsonValue } from '../toolTypes.js';
import type { ListedTool } from './mcpToolDefinition.js';
import { errorFromOutput, lastOutput } from './serverErrorOutput.js';

/** Asks the app's egress guard before a connection; throws (NETWORK_BLOCKED) to refuse it. */
export type EgressCheck = (url: string, purpose: string) => void | Promise<void>;

export interface ConnectionOptions {
  readonly config: McpServerConfig;
  /** How long starting (spawn, initialize, first tool list) may take before the server counts as hung. */
  readonly startTimeoutMs: number;
  readonly egress: EgressCheck;
  /** The server said its tools changed; here they are, listed again (or the error of listing them). */
  readonly onToolsChanged: (tools: ListedTool[] | Error) => void;
  /** The connection ended without Homebody closing it (the process exited, the HTTP session ended). */
  readonly onClosed: (why: string) => void;
  /** Stops a start still under way (the server switched off, Homebody closing): its process ends at once. */
  readonly signal?: AbortSignal;
}

/**
 * A failed call whose message carries text from the server (its error message, its stderr): that text reaches the
 * model, so it taints the task like a result would.
 */
export class McpServerError extends ToolError {
  constructor(
    code: ToolError['code'],
    message: string,
    readonly untrustedSource: string,
  ) {
    super(code, message);
  }
}

/** What an HTTP attempt answered, for a sentence: "it answered HTTP 405" or what went wrong. */
function httpCause(error: unknown): string {
  if (error instanceof StreamableHTTPError || error instanceof SseError) {
    if (typeof error.code === 'number' && error.code > 0) return `it answered HTTP ${error.code}`;
  }
  return `it failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** A failed start: what the SDK threw (to tell an SSE-only server) and the sentence made of it. */
class StartFailure extends Error {
  constructor(
    override readonly cause: unknown,
    readonly failure: ToolError,
  ) {
    super(failure.message);
  }
}

/** Enough for an error above a long stack trace. */
const STDERR_TAIL_CHARS = 16_000;
const MAX_LISTED_TOOLS = 500;
/** How long a stopped process's last stderr may take to arrive after it closed (it is piped through a stream). */
const STDERR_DRAIN_MS = 1000;

/** How a child process ended, in words: "exit code 3", "signal SIGKILL". */
function exitWords(exit: { code: number | null; signal: NodeJS.Signals | null } | null): string | null {
  if (!exit) return null;
  if (exit.signal) return `signal ${exit.signal}`;
  return exit.code === null ? null : `exit code ${exit.code}`;
}

/**
 * An HTTP server that answers the streamable transport's first POST with 400, 404 or 405 may be an older SSE server:
 * VS Code and the SDK then try SSE at the same address.
 */
function mayBeSseOnly(error: unknown): boolean {
  return error instanceof StreamableHTTPError && [400, 404, 405].includes(error.code ?? 0);
}

/**
 * One running MCP server: a child process over stdio, or a streamable HTTP session that the egress guard allowed.
 * Each HTTP request (each redirect hop included) is asked of the guard again, so offline mode stops it at once.
 */
export class McpConnection {
  private closing = false;
  private stderr = '';
  /** Characters of stderr seen in all, and how many of them came before the server answered its start. */
  private stderrTotal = 0;
  private stderrAtStart: number | null = null;
  private stderrEnded: Promise<void> = Promise.resolve();
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  private constructor(
    private readonly options: ConnectionOptions,
    private readonly client: Client,
    private readonly transport: Transport,
  ) {}

  /** Starts the server and lists its tools; throws a ToolError with a clear sentence when it cannot. */
  static async open(options: ConnectionOptions): Promise<{ connection: McpConnection; tools: ListedTool[] }> {
    try {
      return await McpConnection.openWith(options, await McpConnection.transportFor(options));
    } catch (error) {
      const cause = error instanceof StartFailure ? error.cause : error;
      if (options.config.transport.kind !== 'http' || !mayBeSseOnly(cause)) {
        throw error instanceof StartFailure ? error.failure : error;
      }
      // VS Code's "type": "sse" (and any server that refuses the streamable transport): the older SSE one.
      try {
        return await McpConnection.openWith(options, await McpConnection.sseTransportFor(options));
      } catch (sseError) {
        if (!(sseError instanceof StartFailure)) throw sseError;
        const { failure } = error as StartFailure;
        const url = options.config.transport.url;
        const message = `The MCP server "${options.config.name}" could not be reached at ${url}: as streamable HTTP ${httpCause(cause)}, and as an older SSE server ${httpCause(sseError.cause)}.`;
        // Either attempt's sentence may quote the server; then this one does too.
        const quoted = [failure, sseError.failure].find((f) => f instanceof McpServerError);
        throw quoted
          ? new McpServerError(failure.code, message, quoted.untrustedSource)
          : new ToolError(failure.code, message);
      }
    }
  }

  private static async openWith(
    options: ConnectionOptions,
    transport: Transport,
  ): Promise<{ connection: McpConnection; tools: ListedTool[] }> {
    // The client's callbacks need the connection, which needs the client: they meet through this holder.
    const holder: { connection?: McpConnection } = {};
    const client = new Client(
      { name: 'Homebody', version: '1' },
      {
        capabilities: {},
        listChanged: {
          tools: {
            autoRefresh: true,
            onChanged: (error, tools) => {
              if (holder.connection && !holder.connection.closing)
                options.onToolsChanged(error ?? (tools as ListedTool[]) ?? []);
            },
          },
        },
      },
    );
    const self = new McpConnection(options, client, transport);
    holder.connection = self;
    if (transport instanceof StdioClientTransport) self.watchProcess(transport);
    client.onclose = () => {
      if (self.closing) return;
      // The process has closed; its last words may still be on their way through the stderr pipe.
      void self.stoppedMessage().then((message) => {
        if (!self.closing) options.onClosed(message);
      });
    };
    // Errors also arrive as rejected requests or a close; this keeps the SDK from logging them.
    client.onerror = () => undefined;
    const abort = () => void self.close();
    if (options.signal?.aborted) throw new Error('The start was stopped.');
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      await client.connect(transport, { timeout: options.startTimeoutMs });
      self.stderrAtStart = self.stderrTotal;
      const tools = await self.listTools(options.startTimeoutMs);
      return { connection: self, tools };
    } catch (error) {
      const stopped = await self.stoppedMessage(error);
      await self.close();
      throw new StartFailure(error, self.failure(error, 'starting', options.startTimeoutMs, stopped));
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
  }

  /** Keeps the tail of stderr, when it ends, and how the process exited (the SDK's transport does not say). */
  private watchProcess(transport: StdioClientTransport): void {
    const stream = transport.stderr;
    if (stream) {
      stream.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        this.stderrTotal += text.length;
        this.stderr = (this.stderr + text).slice(-STDERR_TAIL_CHARS);
      });
      this.stderrEnded = new Promise<void>((resolve) => {
        stream.once('end', resolve);
        stream.once('close', resolve);
      });
    }
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      // Spawned just now (start resolves on the 'spawn' event), so no exit can have been missed.
      const child = (transport as unknown as { _process?: ChildProcess })._process;
      child?.once('exit', (code, signal) => {
        this.exit = { code, signal };
      });
    };
  }

  private static async transportFor(options: ConnectionOptions): Promise<Transport> {
    const { config } = options;
    const { transport } = config;
    if (transport.kind === 'stdio') {
      // The SDK gives the child only a safe part of Homebody's environment (PATH, HOME, ...) plus what the
      // user configured; stderr is kept so a crash can be explained.
      return new StdioClientTransport({
        command: transport.command,
        args: [...transport.args],
        env: { ...transport.env },
        stderr: 'pipe',
      });
    }
    const purpose = `MCP server ${config.name}`;
    await options.egress(transport.url, purpose);
    return new StreamableHTTPClientTransport(new URL(transport.url), {
      requestInit: { headers: { ...transport.headers } },
      fetch: McpConnection.guardedFetch(options, purpose),
      // No retries on its own: a server that went away is shown as stopped, and the user restarts it.
      reconnectionOptions: {
        maxRetries: 0,
        initialReconnectionDelay: 1000,
        maxReconnectionDelay: 1000,
        reconnectionDelayGrowFactor: 1,
      },
    });
  }

  /** The older HTTP+SSE transport at the same address, asked of the egress guard like the streamable one. */
  private static async sseTransportFor(options: ConnectionOptions): Promise<Transport> {
    const { config } = options;
    if (config.transport.kind !== 'http') throw new Error('An SSE transport needs an HTTP server.');
    const purpose = `MCP server ${config.name}`;
    await options.egress(config.transport.url, purpose);
    return new SSEClientTransport(new URL(config.transport.url), {
      requestInit: { headers: { ...config.transport.headers } },
      fetch: McpConnection.guardedFetch(options, purpose),
    });
  }

  private static guardedFetch(options: ConnectionOptions, purpose: string): FetchLike {
    return async (url, init) => {
      await options.egress(String(url), purpose);
      return fetch(url, init);
    };
  }

  /** Every tool, following the server's pages (bounded, so a server cannot keep Homebody listing forever). */
  async listTools(timeoutMs: number): Promise<ListedTool[]> {
    const tools: ListedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
      tools.push(...(page.tools as ListedTool[]));
      cursor = page.nextCursor;
    } while (cursor && tools.length < MAX_LISTED_TOOLS);
    return tools;
  }

  /** Calls a tool; the result is the server's content, in text a model can read. */
  async call(
    tool: string,
    args: Record<string, JsonValue>,
    options: { timeoutMs: number; signal?: AbortSignal | undefined },
  ): Promise<{ text: string; isError: boolean }> {
    try {
      const result = (await this.client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: options.timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      })) as CallToolResult;
      return { text: resultText(result), isError: result.isError === true };
    } catch (error) {
      throw this.failure(error, `running ${tool}`, options.timeoutMs, await this.stoppedMessage(error));
    }
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    try {
      await this.client.close();
    } catch {
      // Closing a transport that already died can throw; it is closed either way.
    }
  }

  /**
   * Why the server stopped, from its stderr: the error it printed last (a crash during a call is looked for only in
   * what it printed after it started, so its start-up banner is never the reason), how it exited, and, when nothing
   * reads like an error, what it printed last, said as such. Waits for the last of stderr when the process is gone.
   */
  private async stoppedMessage(error?: unknown): Promise<string> {
    const closed = error === undefined || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed);
    if (closed) {
      await Promise.race([this.stderrEnded, new Promise((resolve) => setTimeout(resolve, STDERR_DRAIN_MS).unref())]);
    }
    const name = this.options.config.name;
    const since =
      this.stderrAtStart === null
        ? this.stderr
        : this.stderr.slice(Math.max(0, this.stderr.length - (this.stderrTotal - this.stderrAtStart)));
    const how = exitWords(this.exit);
    const exited = how ? ` (${how})` : '';
    const started = this.stderrAtStart !== null;
    // After its start, what a server printed last before it stopped is its own account of it.
    const reason = errorFromOutput(since) ?? (started ? lastOutput(since) : null);
    if (reason) return `The MCP server "${name}" stopped: ${reason}${exited}.`;
    const last = lastOutput(since);
    return `The MCP server "${name}" stopped${exited} without printing an error${last ? `; the last it printed was: ${last}` : ''}.`;
  }

  /** A ToolError the user and the model can act on, from whatever the SDK, the transport or the guard threw. */
  private failure(error: unknown, doing: string, timeoutMs: number, stopped: string): ToolError {
    const name = this.options.config.name;
    if (error instanceof ToolError) return error;
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'NETWORK_BLOCKED') return new ToolError('NETWORK_BLOCKED', (error as Error).message);
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new ToolError(
        'REMOTE_ERROR',
        `The MCP server "${name}" did not answer within ${Math.round(timeoutMs / 1000)} s while ${doing}; it was given up. Restart it in Settings if it stays stuck.`,
      );
    }
    const source = `MCP server ${name}`;
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return new McpServerError('REMOTE_ERROR', `${stopped} It was ${doing}. Restart it in Settings.`, source);
    }
    if ((error as Error | null)?.name === 'AbortError') {
      return new ToolError('REMOTE_ERROR', `The call to the MCP server "${name}" was stopped.`);
    }
    if (code === 'ENOENT') {
      const command = this.options.config.transport.kind === 'stdio' ? this.options.config.transport.command : '';
      return new ToolError(
        'NOT_CONFIGURED',
        `The MCP server "${name}" could not start: the command "${command}" was not found.`,
      );
    }
    const message = error instanceof Error ? error.message : String(error);
    return new McpServerError('REMOTE_ERROR', `The MCP server "${name}" failed while ${doing}: ${message}`, source);
  }
}

const MAX_RESULT_CHARS = 100_000;

/** Text, and a line for each thing that is not text (an image, a resource), so the model knows it was there. */
export function resultText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    switch (item.type) {
      case 'text':
        parts.push(item.text);
        break;
      case 'image':
      case 'audio':
        parts.push(`[${item.type} ${item.mimeType}, ${Math.round((item.data.length * 3) / 4)} bytes]`);
        break;
      case 'resource':
        parts.push('text' in item.resource ? item.resource.text : `[resource ${item.resource.uri}]`);
        break;
      case 'resource_link':
        parts.push(`[link ${item.name}: ${item.uri}]`);
        break;
      default:
        parts.push(`[${(item as { type: string }).type} content]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  const text = parts.join('\n');
  return text.length > MAX_RESULT_CHARS
    ? `${text.slice(0, MAX_RESULT_CHARS)}\n[cut: the server returned ${text.length} characters]`
    : text;
}
