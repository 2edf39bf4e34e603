import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../store/store.js';
import { runCli } from '../testing/cliProcess.js';
import { EVERYTHING_ENTRY, stdioConfig } from '../tools/mcp/mcpTestServers.js';
import type { ToolCallJson } from './toolsCommand.js';

describe('homebody tools with an MCP server enabled', () => {
  it('lists its tools and gates a call to one, after the server has started', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hb-mcp-cli-'));
    const store = openStore(dataDir);
    store.mcp.add([stdioConfig('everything', EVERYTHING_ENTRY, ['stdio'])], 1);
    store.mcp.setEnabled('everything', true);
    store.close();

    const listed = await runCli(dataDir, 'tools', 'list', '--json');
    expect(listed.code).toBe(0);
    const tools = JSON.parse(listed.stdout) as Array<{ name: string; risk: string }>;
    expect(tools).toContainEqual(expect.objectContaining({ name: 'mcp_everything_echo', risk: 'read' }));

    // A read asks first, and no one can be asked on the command line: found, gated, not run.
    const called = await runCli(dataDir, 'tools', 'call', 'mcp_everything_echo', '{"message": "hi"}', '--json');
    expect(JSON.parse(called.stdout) as ToolCallJson).toMatchObject({ status: 'needs-permission' });
  });
});
