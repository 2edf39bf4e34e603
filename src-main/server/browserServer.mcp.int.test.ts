import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { HostEvent, McpServerView } from '../../src-shared/contract/index.js';
import { createHost, type HostInternals } from '../host/createHost.js';
import { PageCommandConfirmer } from '../services/mcp/pageCommandConfirmer.js';
import { stdioConfig, writeMarkingServer } from '../testing/tools/mcpTestServers.js';
import { startBrowserServer, TOKEN_META_PLACEHOLDER, type BrowserServer } from './browserServer.js';
import { requestServer } from '../testing/serverTestRequest.js';

/**
 * Browser mode in front of a real Host, attacked where issue 15 found it open: with the token (which once leaked
 * in a cookie), `mcp.add` and `mcp.setEnabled` ran any command. Now a request without the token reaches nothing,
 * and even a script holding the token, reading every event as the page does, cannot confirm a command: the code
 * is printed only in the terminal. The server's command leaves a mark each time it runs.
 */
const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-serve-mcp-')));
const renderer = join(work, 'renderer');
const marker = join(work, 'ran.txt');
const description = join(work, 'description.txt');
const terminal: string[] = [];
let host: HostInternals;
let server: BrowserServer;
let origin: string;

beforeAll(async () => {
  mkdirSync(renderer);
  writeFileSync(join(renderer, 'index.html'), `<html><head>${TOKEN_META_PLACEHOLDER}</head><body>app</body></html>`);
  writeFileSync(description, 'Greets someone by name.');
  host = await createHost({
    dataDir: join(work, 'data'),
    shell: 'browser',
    loadModelOnStart: false,
    engineConfig: { gpu: false },
    confirmMcpCommand: new PageCommandConfirmer({ tell: (text) => terminal.push(text) }),
  });
  server = await startBrowserServer({ host, rendererDir: renderer, port: 0 });
  origin = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server?.close();
  await host?.dispose();
  rmSync(work, { recursive: true, force: true });
});

const ran = () => (existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean).length : 0);
const config = () =>
  stdioConfig('marked', writeMarkingServer(work), [], { MARKER_FILE: marker, DESCRIPTION_FILE: description });

async function call(method: string, request: unknown, headers: Record<string, string> = {}) {
  const reply = await requestServer(server.port, `/api/${method}`, {
    method: 'POST',
    body: JSON.stringify(request),
    headers: { 'content-type': 'application/json', origin, ...headers },
  });
  expect(reply.headers['set-cookie']).toBeUndefined();
  return { status: reply.status, body: JSON.parse(reply.body) as { ok: boolean; value?: unknown; error?: unknown } };
}
const withToken = () => ({ 'x-homebody-token': server.token });

/** What a script with the token sees, as the page does: every event on the socket. */
async function listen(): Promise<{ events: HostEvent[]; close(): void }> {
  const events: HostEvent[] = [];
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/events?token=${server.token}`, { headers: { origin } });
  ws.on('message', (data) => events.push(JSON.parse(String(data)) as HostEvent));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { events, close: () => ws.close() };
}

async function pendingConfirmation(events: HostEvent[]): Promise<string> {
  for (;;) {
    for (const event of events) {
      if (event.type !== 'mcp.changed') continue;
      const id = event.servers.find((s) => s.name === 'marked')?.confirmation?.id;
      if (id) return id;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const listed = async (): Promise<McpServerView[]> => (await host.invoke('mcp.list', {})).servers;

describe('browser mode and a stdio MCP server', () => {
  it('without the token (none, a wrong one, the old cookie) nothing can be added or started', async () => {
    const refused: Array<Record<string, string>> = [
      {},
      { 'x-homebody-token': 'x'.repeat(43) },
      { cookie: `homebody_token_${server.port}=${server.token}` },
    ];
    for (const headers of refused) {
      expect((await call('mcp.add', { server: config() }, headers)).status).toBe(401);
      expect((await call('mcp.import', { text: '{"mcpServers":{"m":{"command":"x"}}}' }, headers)).status).toBe(401);
      expect((await call('mcp.setEnabled', { name: 'marked', enabled: true }, headers)).status).toBe(401);
      expect((await call('mcp.confirmCommand', { id: 'x', code: '000000' }, headers)).status).toBe(401);
    }
    expect(await listed()).toEqual([]);
    expect(host.store.mcp.list()).toEqual([]);
    expect(ran()).toBe(0);
  });

  it('with the token, mcp.add and mcp.setEnabled alone run nothing, and a script reading the events cannot confirm', async () => {
    expect((await call('mcp.add', { server: config() }, withToken())).body.ok).toBe(true);
    const script = await listen();
    try {
      // The call waits for the user; the script sees the confirmation's id (as the page does), never the code.
      const enabling = call('mcp.setEnabled', { name: 'marked', enabled: true }, withToken());
      const id = await pendingConfirmation(script.events);
      expect(JSON.stringify(script.events)).not.toMatch(/\d{3} \d{3}/);
      expect(ran()).toBe(0);
      // It guesses: a wrong code ends the confirmation, and nothing ran.
      const guess = await call('mcp.confirmCommand', { id, code: '123456' }, withToken());
      expect(guess.body).toEqual({ ok: true, value: { accepted: true } });
      const answered = await enabling;
      expect(answered.body.ok).toBe(true);
      expect((answered.body.value as { servers: McpServerView[] }).servers[0]).toMatchObject({
        name: 'marked',
        enabled: false,
        status: 'stopped',
        needsConfirmation: true,
        confirmation: null,
        error: expect.stringContaining('not the code'),
      });
      // Replayed, even with the right code now (read from the terminal), the spent id confirms nothing.
      const code = /type this code in Homebody's page: (\d{3} \d{3})/.exec(terminal.join('\n'))?.[1];
      expect(code).toBeDefined();
      expect((await call('mcp.confirmCommand', { id, code }, withToken())).body).toEqual({
        ok: true,
        value: { accepted: false },
      });
      // A restart of a server that is off is refused; nothing ran at any point.
      expect((await call('mcp.restart', { name: 'marked' }, withToken())).body.ok).toBe(false);
      expect(ran()).toBe(0);
    } finally {
      script.close();
    }
  });

  it('the user, who reads the code in the terminal and types it in the page, starts it; a changed command asks again', async () => {
    const page = await listen();
    try {
      terminal.length = 0;
      const enabling = call('mcp.setEnabled', { name: 'marked', enabled: true }, withToken());
      const id = await pendingConfirmation(page.events);
      // The terminal shows the exact command beside the code.
      const printed = terminal.join('\n');
      expect(printed).toContain(`Command: ${process.execPath}`);
      expect(printed).toContain('Environment variables: MARKER_FILE, DESCRIPTION_FILE (values not shown)');
      const code = /type this code in Homebody's page: (\d{3} \d{3})/.exec(printed)![1]!;
      expect((await call('mcp.confirmCommand', { id, code }, withToken())).body.value).toEqual({ accepted: true });
      const answered = (await enabling).body.value as { servers: McpServerView[] };
      expect(answered.servers[0]).toMatchObject({ enabled: true, status: 'running', needsConfirmation: false });
      expect(ran()).toBe(1);
      // Confirmed stays confirmed: a restart runs it again without asking.
      expect((await call('mcp.restart', { name: 'marked' }, withToken())).body.ok).toBe(true);
      expect(ran()).toBe(2);
      const audit = (await host.invoke('audit.list', {})).events.map((e) => e.kind);
      expect(audit.filter((k) => k.startsWith('mcp-command'))).toEqual([
        'mcp-command-confirmed',
        'mcp-command-declined',
      ]);

      // The stored command changes (an argument added): a restart asks again, and does not run it meanwhile.
      const stored = host.store.mcp.list()[0]!.config as { transport: { args: string[] } };
      host.store.mcp.setConfig('marked', {
        ...stored,
        transport: { ...stored.transport, args: [...stored.transport.args, '--more'] },
      });
      await host.dispose();
      host = await createHost({
        dataDir: join(work, 'data'),
        shell: 'browser',
        loadModelOnStart: false,
        engineConfig: { gpu: false },
        confirmMcpCommand: new PageCommandConfirmer({ tell: (text) => terminal.push(text) }),
      });
      await host.mcp.ready();
      expect((await listed())[0]).toMatchObject({ enabled: true, status: 'stopped', needsConfirmation: true });
      expect(ran()).toBe(2);
    } finally {
      page.close();
    }
  });
});
