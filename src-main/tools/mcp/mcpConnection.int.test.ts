import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../../src-shared/contract/index.js';
import {
  FILESYSTEM_ENTRY,
  startHttpMcpServer,
  startSseMcpServer,
  stdioConfig,
  writeBannerServer,
} from '../../testing/tools/mcpTestServers.js';
import { McpConnection } from './mcpConnection.js';
import { parseMcpJson } from './mcpConfig.js';

// Real servers, in real processes and on loopback: what the user is told when one stops, and how an SSE-only server
// is reached.
const dir = mkdtempSync(join(tmpdir(), 'hb-mcp-connection-'));
const banner = writeBannerServer(dir);
const open: McpConnection[] = [];
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

async function connect(config: McpServerConfig, egress: string[] = []) {
  let onClosed: (why: string) => void = () => undefined;
  const closed = new Promise<string>((resolve) => (onClosed = resolve));
  const { connection, tools } = await McpConnection.open({
    config,
    startTimeoutMs: 20_000,
    egress: (url) => {
      egress.push(url);
    },
    onToolsChanged: () => undefined,
    onClosed: (why) => onClosed(why),
  });
  open.push(connection);
  return { connection, tools, closed };
}

const startError = (config: McpServerConfig) =>
  connect(config).then(
    () => 'started',
    (error: Error) => error.message,
  );

describe('a stdio server that stops', () => {
  it('crashing at start after its banner: the error it printed, never the banner', async () => {
    const message = await startError(stdioConfig('weather', banner, [], { MODE: 'crash-at-start' }));
    expect(message).toBe(
      'The MCP server "weather" stopped: Error: WEATHER_API_KEY is not set (exit code 1). It was starting. Restart it in Settings.',
    );
  });

  it('the published filesystem server given no folder it can reach: its error line', async () => {
    const message = await startError(stdioConfig('files', FILESYSTEM_ENTRY, [join(dir, 'no-such-folder')]));
    expect(message).toBe(
      'The MCP server "files" stopped: Error: None of the specified directories are accessible (exit code 1). It was starting. Restart it in Settings.',
    );
  });

  it('crashing during a call: the error it printed then, for the call and for the server', async () => {
    const { connection, closed } = await connect(stdioConfig('weather', banner, [], { MODE: 'crash-on-call' }));
    const call = connection.call('lookup', {}, { timeoutMs: 20_000 }).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    expect(await call).toBe(
      'The MCP server "weather" stopped: Error: forecast cache is corrupt: unexpected end of data (exit code 1). It was running lookup. Restart it in Settings.',
    );
    expect(await closed).toBe(
      'The MCP server "weather" stopped: Error: forecast cache is corrupt: unexpected end of data (exit code 1).',
    );
  });

  it('exiting during a call without a word: says so, and does not quote its banner as the reason', async () => {
    const { connection, closed } = await connect(stdioConfig('weather', banner, [], { MODE: 'exit-on-call' }));
    await connection.call('lookup', {}, { timeoutMs: 20_000 }).catch(() => undefined);
    const why = await closed;
    expect(why).toBe('The MCP server "weather" stopped (exit code 4) without printing an error.');
    expect(why).not.toContain('running on stdio');
  });
});

describe('a start that is stopped', () => {
  it('ends the process of a server that never answers, and says it was stopped', async () => {
    const pidFile = join(dir, 'silent.pid');
    const script = join(dir, 'pid-silent-server.mjs');
    writeFileSync(
      script,
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(pidFile)}, String(process.pid));\nprocess.stdin.resume();\n`,
    );
    const stop = new AbortController();
    const opening = McpConnection.open({
      config: stdioConfig('silent', script),
      startTimeoutMs: 60_000,
      egress: () => undefined,
      onToolsChanged: () => undefined,
      onClosed: () => undefined,
      signal: stop.signal,
    }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8') === '') await new Promise((r) => setTimeout(r, 20));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    stop.abort();
    expect(await opening).toMatch(/^The MCP server "silent" stopped/);
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (alive()) await new Promise((r) => setTimeout(r, 20));
    expect(alive()).toBe(false);
  });
});

describe('an HTTP server', () => {
  it('that speaks only the older SSE transport ("type": "sse" in VS Code) is reached over SSE, each request asked of the guard', async () => {
    const sse = await startSseMcpServer();
    stops.push(() => sse.close());
    const [config] = parseMcpJson(JSON.stringify({ servers: { old: { type: 'sse', url: sse.url } } }));
    const egress: string[] = [];
    const { connection, tools } = await connect(config!, egress);
    expect(tools.map((t) => t.name)).toEqual(['time_then']);
    expect(await connection.call('time_then', {}, { timeoutMs: 20_000 })).toEqual({
      text: 'It was noon.',
      isError: false,
    });
    // The streamable transport was tried first (refused with 405), then the SSE stream and its messages.
    expect(sse.methods.slice(0, 2)).toEqual(['POST /sse', 'GET /sse']);
    expect(sse.methods).toContain('POST /messages');
    expect(egress.length).toBeGreaterThanOrEqual(sse.methods.length);
    expect(new Set(egress.map((u) => new URL(u).host))).toEqual(new Set([new URL(sse.url).host]));
  });

  it('given as "sse" but speaking streamable HTTP is reached over streamable HTTP', async () => {
    const http = await startHttpMcpServer();
    stops.push(() => http.close());
    const [config] = parseMcpJson(JSON.stringify({ servers: { now: { type: 'sse', url: http.url } } }));
    const { tools } = await connect(config!);
    expect(tools.map((t) => t.name)).toEqual(['time_now']);
    expect(http.seen[0]!.method).toBe('POST');
  });

  it('that refuses both transports says what each said', async () => {
    const sse = await startSseMcpServer();
    stops.push(() => sse.close());
    const message = await startError({
      name: 'nowhere',
      transport: { kind: 'http', url: sse.url.replace('/sse', '/missing'), headers: {} },
    });
    expect(message).toBe(
      `The MCP server "nowhere" could not be reached at ${sse.url.replace('/sse', '/missing')}: as streamable HTTP it answered HTTP 405, and as an older SSE server it answered HTTP 405.`,
    );
  });
});
