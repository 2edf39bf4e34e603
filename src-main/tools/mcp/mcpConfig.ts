import {
  HomebodyError,
  McpServerConfigSchema,
  type McpServerConfig,
  type McpTransportView,
} from '../../../src-shared/contract/index.js';

/** A sentence from the first problem zod found, naming the field. */
function firstProblem(error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }): string {
  const issue = error.issues[0];
  if (!issue) return 'it is not valid';
  const path = issue.path.filter((p) => p !== 'transport').map(String);
  return path.length ? `${path.join('.')}: ${issue.message}` : issue.message;
}

/** Checks one server's configuration; the error names the server and the field. */
export function parseServerConfig(raw: unknown): McpServerConfig {
  const parsed = McpServerConfigSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const name = (raw as { name?: unknown } | null)?.name;
  const label = typeof name === 'string' && name ? `The MCP server "${name.slice(0, 60)}"` : 'The MCP server';
  throw new HomebodyError('INVALID_REQUEST', `${label} is not valid: ${firstProblem(parsed.error)}.`);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One entry of mcp.json (`{"command","args","env"}` or `{"url","headers"}`) as a server configuration. */
function entryToConfig(name: string, entry: unknown): McpServerConfig {
  const where = `mcpServers["${name.slice(0, 60)}"]`;
  if (!isObject(entry)) throw new HomebodyError('INVALID_REQUEST', `${where} must be an object.`);
  const hasCommand = entry.command !== undefined;
  const hasUrl = entry.url !== undefined;
  if (hasCommand === hasUrl) {
    throw new HomebodyError(
      'INVALID_REQUEST',
      `${where} needs either "command" (a server Homebody starts) or "url" (a server over HTTP), not ${hasCommand ? 'both' : 'neither'}.`,
    );
  }
  // Cursor writes "type": "http" or "streamable-http" beside a URL; an SSE-only server is older than Homebody.
  if (entry.type === 'sse')
    throw new HomebodyError('INVALID_REQUEST', `${where} is an SSE server; Homebody speaks streamable HTTP only.`);
  const transport = hasCommand
    ? { kind: 'stdio', command: entry.command, args: entry.args ?? [], env: entry.env ?? {} }
    : { kind: 'http', url: entry.url, headers: entry.headers ?? {} };
  const parsed = McpServerConfigSchema.safeParse({ name, transport });
  if (!parsed.success)
    throw new HomebodyError('INVALID_REQUEST', `${where} is not valid: ${firstProblem(parsed.error)}.`);
  return parsed.data;
}

/**
 * Reads a Claude Desktop / Cursor style mcp.json: `{"mcpServers": {"name": {"command","args","env"} |
 * {"url","headers"}}}`. All or nothing: the first bad entry is named in the error and nothing is returned.
 */
export function parseMcpJson(text: string): McpServerConfig[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new HomebodyError('INVALID_REQUEST', `This is not JSON: ${(error as Error).message}.`);
  }
  if (!isObject(raw) || !isObject(raw.mcpServers)) {
    throw new HomebodyError('INVALID_REQUEST', 'An mcp.json file holds an object with "mcpServers": {"name": {...}}.');
  }
  const entries = Object.entries(raw.mcpServers);
  if (entries.length === 0) throw new HomebodyError('INVALID_REQUEST', 'The "mcpServers" object is empty.');
  return entries.map(([name, entry]) => entryToConfig(name, entry));
}

/** What may be shown of a transport: the names of environment variables and headers, never their values. */
export function transportView(config: McpServerConfig): McpTransportView {
  const { transport } = config;
  return transport.kind === 'stdio'
    ? { kind: 'stdio', command: transport.command, args: [...transport.args], envKeys: Object.keys(transport.env) }
    : { kind: 'http', url: transport.url, headerKeys: Object.keys(transport.headers) };
}
