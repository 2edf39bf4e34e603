import { homedir } from 'node:os';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import {
  HomebodyError,
  McpServerConfigSchema,
  type McpServerConfig,
  type McpTransportView,
} from '../../../src-shared/contract/index.js';
import {
  neededInputsMessage,
  readInputs,
  resolveVariables,
  type NeededInput,
  type VariableContext,
} from './mcpVariables.js';

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

/** Where the servers of a file sit: Claude Desktop and Cursor write "mcpServers", VS Code "servers". */
type Shape = 'mcpServers' | 'servers';

/** Fields of a VS Code entry that change how its server runs, which Homebody cannot honour: refused, never dropped. */
const UNSUPPORTED_FIELDS: ReadonlyArray<readonly [field: string, why: string]> = [
  [
    'cwd',
    'sets the folder its command runs in (cwd), which Homebody does not do; write full paths in its command and arguments instead',
  ],
  ['envFile', 'loads variables from a file (envFile), which Homebody does not read; copy them into "env" instead'],
];

interface EntryContext {
  readonly shape: Shape;
  readonly variables: VariableContext;
  readonly needed: NeededInput[];
}

/**
 * One entry of an mcp.json as a server configuration: `{"command","args","env"}` (stdio) or `{"url","headers"}`,
 * with VS Code's `"type"` ("stdio", "http" or "sse"; without it, the fields tell) and variables resolved.
 */
function entryToConfig(name: string, entry: unknown, context: EntryContext): McpServerConfig {
  const label = `${context.shape}["${name.slice(0, 60)}"]`;
  if (!isObject(entry)) throw new HomebodyError('INVALID_REQUEST', `${label} must be an object.`);
  const hasCommand = entry.command !== undefined;
  const hasUrl = entry.url !== undefined;
  if (hasCommand === hasUrl) {
    throw new HomebodyError(
      'INVALID_REQUEST',
      `${label} needs either "command" (a server Homebody starts) or "url" (a server over HTTP), not ${hasCommand ? 'both' : 'neither'}.`,
    );
  }
  // VS Code writes "stdio", "http" or "sse"; Cursor "http" or "streamable-http". An "sse" server is reached as
  // VS Code does: streamable HTTP first, then the older SSE transport (mcpConnection.ts).
  const type = entry.type;
  const known = hasCommand ? ['stdio'] : ['http', 'sse', 'streamable-http'];
  if (type !== undefined && !(typeof type === 'string' && known.includes(type))) {
    throw new HomebodyError(
      'INVALID_REQUEST',
      `${label} has "type": ${JSON.stringify(type)}; with ${hasCommand ? '"command" it is "stdio"' : '"url" it is "http" or "sse"'}.`,
    );
  }
  for (const [field, why] of UNSUPPORTED_FIELDS) {
    if (entry[field] !== undefined) throw new HomebodyError('INVALID_REQUEST', `${label} ${why}.`);
  }
  if (entry.sandboxEnabled === true) {
    throw new HomebodyError(
      'INVALID_REQUEST',
      `${label} asks to run in VS Code's sandbox (sandboxEnabled), which Homebody cannot give an MCP server; it would run with none. Remove "sandboxEnabled" to import it as it would run here.`,
    );
  }
  const resolve = (field: string, value: unknown): unknown =>
    typeof value === 'string'
      ? resolveVariables(value, context.variables, { server: name, label, field }, context.needed)
      : value;
  const resolveValues = (field: string, values: unknown): unknown =>
    isObject(values)
      ? Object.fromEntries(Object.entries(values).map(([key, value]) => [key, resolve(`${field}.${key}`, value)]))
      : values;
  const transport = hasCommand
    ? {
        kind: 'stdio',
        command: resolve('command', entry.command),
        args: Array.isArray(entry.args) ? entry.args.map((arg, i) => resolve(`args[${i}]`, arg)) : (entry.args ?? []),
        env: resolveValues('env', entry.env ?? {}),
      }
    : { kind: 'http', url: resolve('url', entry.url), headers: resolveValues('headers', entry.headers ?? {}) };
  const parsed = McpServerConfigSchema.safeParse({ name, transport });
  if (!parsed.success)
    throw new HomebodyError('INVALID_REQUEST', `${label} is not valid: ${firstProblem(parsed.error)}.`);
  return parsed.data;
}

/** JSON with comments and trailing commas, as VS Code writes its mcp.json (a Claude Desktop file is plain JSON). */
function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const raw: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const before = text.slice(0, first.offset);
    const line = before.split('\n').length;
    const column = first.offset - before.lastIndexOf('\n');
    throw new HomebodyError(
      'INVALID_REQUEST',
      `This is not JSON: ${printParseErrorCode(first.error)} at line ${line}, column ${column}.`,
    );
  }
  return raw;
}

export interface McpJsonOptions {
  /** Where `${env:NAME}` is read; Homebody's own environment unless a test gives another. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** `${userHome}`. */
  readonly home?: string;
}

/**
 * Reads an mcp.json: Claude Desktop's and Cursor's `{"mcpServers": {"name": {...}}}`, or VS Code's
 * `{"servers": {"name": {"type", ...}}, "inputs": [...]}` (also inside a settings.json's `"mcp"`), comments and
 * trailing commas allowed. All or nothing: the first bad entry is named in the error and nothing is returned; a file
 * whose servers need values VS Code would ask for (`${input:...}`) is refused with every such value named.
 */
export function parseMcpJson(text: string, options: McpJsonOptions = {}): McpServerConfig[] {
  let raw = parseJsonc(text);
  if (isObject(raw) && raw.mcpServers === undefined && raw.servers === undefined && isObject(raw.mcp)) raw = raw.mcp;
  if (!isObject(raw) || (!isObject(raw.mcpServers) && !isObject(raw.servers))) {
    throw new HomebodyError(
      'INVALID_REQUEST',
      'An mcp.json file holds an object with "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code): {"servers": {"name": {...}}}.',
    );
  }
  const variables: VariableContext = {
    env: options.env ?? process.env,
    home: options.home ?? homedir(),
    inputs: readInputs(raw.inputs),
  };
  const needed: NeededInput[] = [];
  const configs: McpServerConfig[] = [];
  for (const shape of ['mcpServers', 'servers'] as const) {
    const servers = raw[shape];
    if (servers === undefined) continue;
    if (!isObject(servers)) throw new HomebodyError('INVALID_REQUEST', `"${shape}" must be an object of servers.`);
    const entries = Object.entries(servers);
    if (entries.length === 0) throw new HomebodyError('INVALID_REQUEST', `The "${shape}" object is empty.`);
    for (const [name, entry] of entries) configs.push(entryToConfig(name, entry, { shape, variables, needed }));
  }
  if (needed.length > 0) throw new HomebodyError('INVALID_REQUEST', neededInputsMessage(needed, variables.inputs));
  return configs;
}

/** What may be shown of a transport: the names of environment variables and headers, never their values. */
export function transportView(config: McpServerConfig): McpTransportView {
  const { transport } = config;
  return transport.kind === 'stdio'
    ? { kind: 'stdio', command: transport.command, args: [...transport.args], envKeys: Object.keys(transport.env) }
    : { kind: 'http', url: transport.url, headerKeys: Object.keys(transport.headers) };
}
