import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../store/store.js';
import { runCli } from '../testing/cliProcess.js';
import { commandFingerprint, commandToConfirm } from '../tools/mcp/commandConfirmation.js';
import { EVERYTHING_ENTRY, stdioConfig, writeMarkingServer } from '../testing/tools/mcpTestServers.js';
import type { ToolCallJson } from './toolsCommand.js';

describe('homebody tools with an MCP server enabled', () => {
  it('lists its tools and gates a call to one, after the server has started', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hb-mcp-cli-'));
    const store = openStore(dataDir);
    const everything = stdioConfig('everything', EVERYTHING_ENTRY, ['stdio']);
    store.mcp.add([everything], 1);
    store.mcp.setEnabled('everything', true);
    // Enabled in the app, which showed its command and the user confirmed it.
    store.mcp.confirmCommand('everything', commandFingerprint(commandToConfirm(everything)!));
    store.close();

    const listed = await runCli(dataDir, 'tools', 'list', '--json');
    expect(listed.code).toBe(0);
    const tools = JSON.parse(listed.stdout) as Array<{ name: string; risk: string; alwaysAsk?: boolean }>;
    // Its annotations are claims the user has not trusted: the "read-only" echo is a write that asks every time.
    expect(tools).toContainEqual(
      expect.objectContaining({ name: 'mcp_everything_echo', risk: 'write', alwaysAsk: true }),
    );

    // No one can be asked on the command line: found, gated, not run.
    const called = await runCli(dataDir, 'tools', 'call', 'mcp_everything_echo', '{"message": "hi"}', '--json');
    expect(JSON.parse(called.stdout) as ToolCallJson).toMatchObject({ status: 'needs-permission' });
  });

  it('never runs the command of a server enabled in the store but never confirmed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hb-mcp-cli-unconfirmed-'));
    const marker = join(dataDir, 'ran.txt');
    const description = join(dataDir, 'description.txt');
    writeFileSync(description, 'Greets someone by name.');
    const store = openStore(dataDir);
    store.mcp.add(
      [stdioConfig('marked', writeMarkingServer(dataDir), [], { MARKER_FILE: marker, DESCRIPTION_FILE: description })],
      1,
    );
    store.mcp.setEnabled('marked', true);
    store.close();

    const listed = await runCli(dataDir, 'tools', 'list', '--json');
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as Array<{ name: string }>).map((t) => t.name)).not.toContain('mcp_marked_greet');
    const called = await runCli(dataDir, 'tools', 'call', 'mcp_marked_greet', '{"name": "Ada"}', '--json');
    expect(JSON.parse(called.stdout) as ToolCallJson).toMatchObject({ status: 'failed' });
    expect(existsSync(marker)).toBe(false);
  });
});
