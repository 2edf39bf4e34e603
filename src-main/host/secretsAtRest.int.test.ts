/**
 * Secrets at rest, through the real Host and store: a mail password and MCP tokens never reach the data folder's
 * files (the database, its WAL), the exports, the views, the events or the logs in clear; the tools still get them;
 * and a database from before sealing has its clear secrets sealed, and gone from the files, at the next start.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HostEvent, McpServerConfig } from '../../src-shared/contract/index.js';
import { openStore } from '../store/store.js';
import { userAtDialog } from '../testing/userConfirmations.js';
import { commandFingerprint, commandToConfirm } from '../tools/mcp/commandConfirmation.js';
import { startHttpMcpServer, stdioConfig, writeScriptedServer } from '../testing/tools/mcpTestServers.js';
import { createHost, type HostInternals } from './createHost.js';

const MARKER = 'mk7d1e4b2a90c3f6e8';
const SMTP = { host: '127.0.0.1', port: 2525, secure: false, user: 'me', from: 'me@example.org' };

/** Every file under the data folder whose raw bytes hold the marker (the key file aside: it holds no secret). */
function filesHoldingMarker(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (!entry.isFile()) continue;
    if (readFileSync(path).includes(Buffer.from(MARKER))) found.push(path);
  }
  return found;
}

let logs: string[] = [];
beforeEach(() => {
  logs = [];
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const)
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logs.push(format(...args)));
});
const hosts: HostInternals[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.dispose()));
  vi.restoreAllMocks();
});

async function start(dataDir: string): Promise<{ host: HostInternals; events: HostEvent[] }> {
  // The user confirms the stdio server's command when the app shows it.
  const host = await createHost({
    dataDir,
    shell: 'cli',
    loadModelOnStart: false,
    confirmMcpCommand: userAtDialog().confirmer,
  });
  hosts.push(host);
  const events: HostEvent[] = [];
  host.subscribe((event) => events.push(event));
  await host.mcp.ready();
  return { host, events };
}

/** A stdio server whose environment carries the marker: it lists its tools only if it got the real values. */
function markedStdioServer(work: string) {
  const folder = join(work, `desc-${MARKER}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'description.txt'), 'Greets someone by name.');
  return stdioConfig('local', writeScriptedServer(work), [], {
    DESCRIPTION_FILE: join(folder, 'description.txt'),
    API_KEY: MARKER,
  });
}

describe('secrets at rest', () => {
  it('keeps a mail password and MCP tokens out of the files, exports, views, events and logs; tools still get them', async () => {
    const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-secrets-host-')));
    const dataDir = join(work, 'data');
    const http = await startHttpMcpServer();
    try {
      const { host, events } = await start(dataDir);
      expect(host.secrets.protection).toBe('key-file');
      expect(host.secrets.report()).toMatchObject({ protection: 'key-file' });

      await host.invoke('packs.setSettings', { smtp: SMTP, smtpPassword: MARKER, imapPassword: `imap-${MARKER}` });
      // The key is made at the first secret, private to its owner.
      expect(statSync(host.secrets.keyFile).mode & 0o777).toBe(0o600);
      await host.invoke('mcp.add', { server: markedStdioServer(work) });
      await host.invoke('mcp.import', {
        text: JSON.stringify({
          mcpServers: { remote: { url: http.url, headers: { Authorization: `Bearer ${MARKER}`, 'X-Team': 'blue' } } },
        }),
      });
      await host.invoke('mcp.setEnabled', { name: 'local', enabled: true });
      // Blocked by offline mode or connected: either way nothing of the token may show.
      await host.invoke('mcp.setEnabled', { name: 'remote', enabled: true });

      // The tools get the real values: the mail tools' config, the stdio server's environment.
      expect(host.packs.config().smtp).toEqual({ ...SMTP, password: MARKER });
      expect(host.packs.config().imap).toBeNull();
      const local = (await host.invoke('mcp.list', {})).servers.find((s) => s.name === 'local')!;
      expect(local.status).toBe('running');
      expect(local.tools.find((t) => t.tool === 'greet')?.description).toContain('Greets someone by name.');
      if (http.seen.length > 0) expect(http.seen.every((r) => r.authorization === `Bearer ${MARKER}`)).toBe(true);

      // A call, so that the history has something to export.
      host.store.tasks.create({ id: 'task-1', title: 'hello', now: Date.now() });
      const asked = await host.tools.propose({
        taskId: 'task-1',
        tool: 'mcp_local_greet',
        args: { name: 'Ada' },
        actor: 'cli',
        interactive: false,
      });
      expect(asked.call).toBeDefined();

      const answers = [
        await host.invoke('packs.settings', {}),
        await host.invoke('mcp.list', {}),
        await host.invoke('history.export', { format: 'json' }),
        await host.invoke('history.export', { format: 'md' }),
        await host.invoke('policy.get', {}),
        await host.invoke('audit.list', {}),
        await host.invoke('tools.list', {}),
        await host.invoke('app.info', {}),
      ];
      const shown = JSON.stringify(answers);
      expect(shown).toContain('Authorization');
      expect(shown).toContain('API_KEY');
      expect(shown).not.toContain(MARKER);
      expect(JSON.stringify(events)).not.toContain(MARKER);
      expect(logs.join('\n')).not.toContain(MARKER);
      // The database and its WAL, as they are on disk while the Host runs.
      expect(readdirSync(dataDir)).toEqual(expect.arrayContaining(['homebody.db', 'homebody.db-wal']));
      expect(filesHoldingMarker(dataDir)).toEqual([]);

      // The next start opens them with the key the first one made.
      await host.dispose();
      const again = await start(dataDir);
      expect(again.host.packs.config().smtp?.password).toBe(MARKER);
      expect((await again.host.invoke('packs.settings', {})).imapPasswordSet).toBe(true);
      expect((await again.host.invoke('mcp.list', {})).servers.find((s) => s.name === 'local')?.status).toBe('running');
      expect(filesHoldingMarker(dataDir)).toEqual([]);
      expect(logs.join('\n')).not.toContain(MARKER);
    } finally {
      await http.close();
    }
  });

  it('seals the clear secrets an older version stored, and they are gone from the files at the next start', async () => {
    const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-secrets-old-')));
    const dataDir = join(work, 'data');
    mkdirSync(dataDir);
    const old = openStore(dataDir);
    old.settings.set('packs.settings', { smtp: SMTP });
    old.settings.set('packs.secrets', { smtpPassword: MARKER, imapPassword: null });
    const local = markedStdioServer(work);
    old.mcp.add([local], 1);
    old.mcp.setEnabled('local', true);
    // Its command was confirmed then: it starts again without asking.
    old.mcp.confirmCommand('local', commandFingerprint(commandToConfirm(local)!));
    const remote: McpServerConfig = {
      name: 'remote',
      transport: { kind: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: `Bearer ${MARKER}` } },
    };
    old.mcp.add([remote], 2);
    old.checkpoint();
    old.close();
    // What this test looks for is really there before the start.
    expect(filesHoldingMarker(dataDir)).not.toEqual([]);

    const { host } = await start(dataDir);
    expect(filesHoldingMarker(dataDir)).toEqual([]);
    expect(host.store.settings.get('packs.secrets')).toBeUndefined();
    expect(host.packs.config().smtp?.password).toBe(MARKER);
    const servers = (await host.invoke('mcp.list', {})).servers;
    expect(servers.find((s) => s.name === 'local')).toMatchObject({
      status: 'running',
      transport: { envKeys: ['DESCRIPTION_FILE', 'API_KEY'] },
    });
    expect(servers.find((s) => s.name === 'remote')?.transport).toMatchObject({ headerKeys: ['Authorization'] });
    expect(JSON.stringify(host.store.mcp.list())).not.toContain(MARKER);
    expect(logs.join('\n')).not.toContain(MARKER);
  });

  it('reads secrets whose key file is gone as not set, with a notice, and starts anyway', async () => {
    const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-secrets-lost-')));
    const dataDir = join(work, 'data');
    const first = await start(dataDir);
    await first.host.invoke('packs.setSettings', { smtp: SMTP, smtpPassword: MARKER });
    await first.host.invoke('mcp.add', { server: markedStdioServer(work) });
    await first.host.dispose();
    rmSync(join(dataDir, 'secret.key'));

    const { host } = await start(dataDir);
    expect((await host.invoke('packs.settings', {})).smtpPasswordSet).toBe(false);
    expect(host.packs.config().smtp?.password).toBeNull();
    const { notices } = await host.invoke('app.info', {});
    expect(notices).toEqual(
      expect.arrayContaining([
        { code: 'SECRET_STORE_ERROR', message: expect.stringMatching(/^The SMTP password could not be decrypted/) },
        {
          code: 'SECRET_STORE_ERROR',
          message: expect.stringContaining('The environment variable API_KEY of the MCP server "local" could not'),
        },
      ]),
    );
    expect(JSON.stringify(notices)).not.toContain(MARKER);
    // A new password is sealed with a new key.
    expect((await host.invoke('packs.setSettings', { smtpPassword: 'fresh' })).smtpPasswordSet).toBe(true);
    expect(host.packs.config().smtp?.password).toBe('fresh');
  });
});
