import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../src-shared/contract/index.js';
import { openStore } from '../store/store.js';
import { runCli } from '../testing/cliProcess.js';
import {
  stdioConfig,
  writeBannerServer,
  writeScriptedServer,
  writeSilentServer,
} from '../testing/tools/mcpTestServers.js';
import { commandFingerprint, commandToConfirm } from '../tools/mcp/commandConfirmation.js';

/** A data folder whose store has these servers enabled, their commands confirmed in the app. */
function dataFolderWith(...servers: McpServerConfig[]): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'hb-policy-mcp-'));
  const store = openStore(dataDir);
  store.mcp.add(servers, 1);
  for (const server of servers) {
    store.mcp.setEnabled(server.name, true);
    store.mcp.confirmCommand(server.name, commandFingerprint(commandToConfirm(server)!));
  }
  store.close();
  return dataDir;
}

describe('homebody policy with MCP servers enabled', () => {
  it('sets, shows and imports the mode of an MCP tool once its server has listed it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hb-policy-mcp-servers-'));
    const description = join(dir, 'description.txt');
    writeFileSync(description, 'Greets someone by name.');
    const dataDir = dataFolderWith(
      stdioConfig('scripted', writeScriptedServer(dir), [], { DESCRIPTION_FILE: description }),
    );

    const set = await runCli(dataDir, 'policy', 'set', 'mcp_scripted_shred', 'off');
    expect(set.stderr).toBe('');
    expect(set).toMatchObject({ code: 0, stdout: 'mcp_scripted_shred: off\n' });

    const shown = await runCli(dataDir, 'policy', 'show');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/mcp_scripted_shred\s+irreversible\s+off/);
    // The mode in effect, the default for a write: ask.
    expect(shown.stdout).toMatch(/mcp_scripted_greet\s+write\s+ask {2}\(default\)/);

    const file = join(dir, 'policy.json');
    const exported = JSON.parse((await runCli(dataDir, 'policy', 'export', '--wait', '0')).stdout) as {
      tools: Record<string, string>;
    };
    writeFileSync(file, JSON.stringify({ ...exported, tools: { ...exported.tools, mcp_scripted_greet: 'off' } }));
    const imported = await runCli(dataDir, 'policy', 'import', file);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({
      tools: { mcp_scripted_shred: 'off', mcp_scripted_greet: 'off' },
    });
  });

  it('names the server still starting when the wait ends, and changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hb-policy-mcp-silent-'));
    const dataDir = dataFolderWith(stdioConfig('silent', writeSilentServer(dir)));
    const set = await runCli(dataDir, 'policy', 'set', 'mcp_silent_echo', 'off', '--wait', '1');
    expect(set.code).toBe(1);
    expect(set.stderr).toBe(
      'homebody: There is no tool named mcp_silent_echo yet. The MCP server "silent" was still starting after 1 s, so its tools are not known yet. ' +
        'Try again once it runs (homebody tools list shows its tools), or wait longer with --wait SECONDS.\nNothing was changed.\n',
    );
    const shown = await runCli(dataDir, 'policy', 'show', '--wait', '1');
    expect(shown.code).toBe(0);
    expect(shown.stderr).toContain('The MCP server "silent" was still starting after 1 s');
    const exported = await runCli(dataDir, 'policy', 'export', '--wait', '0');
    expect(JSON.parse(exported.stdout)).toMatchObject({ tools: {} });
  });

  it('says why a server that failed has no tools: the error it printed, not its banner', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hb-policy-mcp-failed-'));
    const dataDir = dataFolderWith(stdioConfig('weather', writeBannerServer(dir), [], { MODE: 'crash-at-start' }));
    const set = await runCli(dataDir, 'policy', 'set', 'mcp_weather_lookup', 'off');
    expect(set.code).toBe(1);
    expect(set.stderr).toBe(
      'homebody: There is no tool named mcp_weather_lookup yet. The MCP server "weather" is not running: ' +
        'The MCP server "weather" stopped: Error: WEATHER_API_KEY is not set (exit code 1). It was starting. Restart it in Settings.\nNothing was changed.\n',
    );
    // A tool of no server is the policy's own refusal, as before.
    const other = await runCli(dataDir, 'policy', 'set', 'no_such_tool', 'off');
    expect(other).toMatchObject({ code: 1, stderr: 'homebody: There is no tool named no_such_tool.\n' });
  });
});
