import type { McpServerView } from '../../src-shared/contract/index.js';
import type { Host } from '../host/hostTypes.js';

/** How long a command that names tools waits for the MCP servers the user enabled to list theirs, by default. */
export const DEFAULT_SERVER_WAIT_S = 30;

/** The servers that had not listed their tools when the wait ended. */
export interface ServerWait {
  readonly starting: readonly string[];
}

/**
 * Waits until every MCP server the user enabled runs or failed (their tools are then in the registry), for at most
 * `seconds`. The Host starts them when it starts; a command that names an MCP tool (`policy set mcp_<server>_<tool>`)
 * must not decide before they have listed their tools.
 */
export async function waitForServers(host: Host, seconds: number): Promise<ServerWait> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), seconds * 1000);
  });
  try {
    const ended = await Promise.race([host.invoke('tools.list', { waitForServers: true }), timedOut]);
    if (ended !== 'timeout') return { starting: [] };
  } finally {
    clearTimeout(timer);
  }
  const { servers } = await host.invoke('mcp.list', {});
  return { starting: servers.filter((s) => s.enabled && s.status === 'starting').map((s) => s.name) };
}

const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`).join(', ');

/** "The MCP server "x" was still starting after 30 s" (or servers), or null when none was. */
export function stillStartingSentence(wait: ServerWait, seconds: number): string | null {
  const { starting } = wait;
  if (starting.length === 0) return null;
  const servers = starting.length === 1 ? 'MCP server' : 'MCP servers';
  return `The ${servers} ${quoted(starting)} ${starting.length === 1 ? 'was' : 'were'} still starting after ${seconds} s, so ${starting.length === 1 ? 'its' : 'their'} tools are not known yet.`;
}

/**
 * Why a tool named on the command line is not there, when an MCP server explains it: one still starting, or the
 * server its name points to (mcp_<server>_...) stopped, failed or switched off. Null when no server explains it.
 */
export function missingToolReason(
  tool: string,
  wait: ServerWait,
  seconds: number,
  servers: readonly McpServerView[],
): string | null {
  const starting = stillStartingSentence(wait, seconds);
  if (starting) {
    return `${starting} Try again once ${wait.starting.length === 1 ? 'it runs' : 'they run'} (homebody tools list shows ${wait.starting.length === 1 ? 'its' : 'their'} tools), or wait longer with --wait SECONDS.`;
  }
  if (!tool.startsWith('mcp_')) return null;
  // Server names may hold "_" themselves: the longest one whose prefix the tool has.
  const server = [...servers]
    .sort((a, b) => b.name.length - a.name.length)
    .find((s) => tool.startsWith(`mcp_${s.name.replace(/[^A-Za-z0-9_]/g, '_')}_`));
  if (!server) return null;
  if (!server.enabled) return `The MCP server "${server.name}" is switched off; enable it in the app first.`;
  if (server.status === 'running') return `The MCP server "${server.name}" runs, and lists no such tool.`;
  return `The MCP server "${server.name}" is not running${server.error ? `: ${server.error}` : '.'}`;
}
