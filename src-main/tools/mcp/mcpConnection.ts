import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../../../src-shared/contract/index.js';
import { ToolError, type JsonValue } from '../toolTypes.js';
import type { ListedTool } from './mcpToolDefinition.js';

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

const STDERR_TAIL_CHARS = 2000;
const MAX_LISTED_TOOLS = 500;

/**
 * One running MCP server: a child process over stdio, or a streamable HTTP session that the egress guard allowed.
 * Each HTTP request (each redirect hop included) is asked of the guard again, so offline mode stops it at once.
 */
export class McpConnection {
  private closing = false;
  private stderr = '';

  private constructor(
    private readonly options: ConnectionOptions,
    private readonly client: Client,
    private readonly transport: Transport,
  ) {}

  /** Starts the server and lists its tools; throws a ToolError with a clear sentence when it cannot. */
  static async open(options: ConnectionOptions): Promise<{ connection: McpConnection; tools: ListedTool[] }> {
    const transport = await McpConnection.transportFor(options);
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
    if (transport instanceof StdioClientTransport) {
      transport.stderr?.on('data', (chunk: Buffer) => {
        self.stderr = (self.stderr + chunk.toString()).slice(-STDERR_TAIL_CHARS);
      });
    }
    client.onclose = () => {
      if (!self.closing) options.onClosed(self.stoppedMessage());
    };
    // Errors also arrive as rejected requests or a close; this keeps the SDK from logging them.
    client.onerror = () => undefined;
    try {
      await client.connect(transport, { timeout: options.startTimeoutMs });
      const tools = await self.listTools(options.startTimeoutMs);
      return { connection: self, tools };
    } catch (error) {
      const stopped = self.stoppedMessage();
      await self.close();
      throw self.failure(error, 'starting', options.startTimeoutMs, stopped);
    }
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
      fetch: async (url, init) => {
        await options.egress(String(url), purpose);
        return fetch(url, init);
      },
      // No retries on its own: a server that went away is shown as stopped, and the user restarts it.
      reconnectionOptions: {
        maxRetries: 0,
        initialReconnectionDelay: 1000,
        maxReconnectionDelay: 1000,
        reconnectionDelayGrowFactor: 1,
      },
    });
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
      throw this.failure(error, `running ${tool}`, options.timeoutMs, this.stoppedMessage());
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

  private stoppedMessage(): string {
    const why = this.stderr.trim().split('\n').slice(-3).join(' ').slice(-500);
    return `The MCP server "${this.options.config.name}" stopped${why ? `: ${why}` : ''}.`;
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
