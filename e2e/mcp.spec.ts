import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, E2E_MODEL, REPO_ROOT, TSX } from './fixtures/paths.js';
import { expect, sendMessage, test } from './fixtures/homebody.js';

/** @modelcontextprotocol/server-everything, a real MCP server over stdio (a devDependency). */
const EVERYTHING = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const PROMPT = 'echo back the input string hello from MCP';

/**
 * A new user brings the MCP servers of another app: imports its mcp.json, enables one, sees its tools, and a task
 * calls one of them through the permission prompt. The generated model is pushed to make that call (--script).
 */
test('an imported MCP server, once enabled, lends its tools to a task, asked like any other', async ({ homebody }) => {
  test.skip(homebody.shell === 'electron', 'scripted calls are a browser-mode (serve) test option');
  // A model load, a server start and a reply on a shared 2-core machine.
  test.setTimeout(300_000);
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-e2e-mcp-')));
  const dataDir = join(work, 'data');
  // Tools are offered once a folder is granted.
  execFileSync(TSX, [CLI, 'policy', 'grant', work, '--data-dir', dataDir], { cwd: REPO_ROOT, stdio: 'ignore' });
  const script = join(work, 'script.json');
  writeFileSync(
    script,
    JSON.stringify({ [PROMPT]: [{ name: 'mcp_everything_echo', params: '{"message": "hello from MCP"}' }] }),
  );
  const { page } = await homebody.launch({ model: E2E_MODEL, dataDir, script, maxTokens: 128 });

  await page.getByTestId('nav-settings').click();
  const section = page.getByTestId('mcp-section');
  await expect(section).toContainText('No MCP servers yet.');

  // A malformed file is refused with the entry named, and nothing is added.
  await section.getByTestId('mcp-import-text').fill('{"mcpServers": {"broken": {"args": ["x"]}}}');
  await section.getByTestId('mcp-import-button').click();
  await expect(section.getByTestId('mcp-error')).toContainText('mcpServers["broken"] needs either "command"');
  await expect(section.getByTestId('mcp-server')).toHaveCount(0);

  const mcpJson = {
    mcpServers: {
      everything: {
        command: process.execPath,
        args: [EVERYTHING, 'stdio'],
        env: { EVERYTHING_TOKEN: 'sk-e2e-secret' },
      },
    },
  };
  await section.getByTestId('mcp-import-file').setInputFiles({
    name: 'mcp.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(mcpJson)),
  });
  await expect(section.getByTestId('mcp-imported')).toBeVisible();
  const server = section.locator('[data-testid="mcp-server"][data-name="everything"]');
  await expect(server).toHaveAttribute('data-status', 'stopped');
  // The secret's name is shown, never its value.
  await expect(server).toContainText('EVERYTHING_TOKEN=•••');
  await expect(page.locator('body')).not.toContainText('sk-e2e-secret');
  await expect(server.getByTestId('mcp-tool')).toHaveCount(0);

  await server.getByTestId('mcp-enabled').check();
  await expect(server).toHaveAttribute('data-status', 'running');
  const echo = server.locator('[data-testid="mcp-tool"][data-tool="mcp_everything_echo"]');
  await expect(echo).toContainText('Echoes back the input string');
  await expect(echo.locator('.risk-badge')).toHaveText(/read/i);
  // The policy table lists it too, with a mode like any tool.
  await expect(page.locator('[data-testid="tool-row"][data-tool="mcp_everything_echo"]')).toBeVisible();

  await page.getByTestId('nav-chat').click();
  await sendMessage(page, PROMPT);
  await expect(page.getByTestId('permission-prompt')).toBeVisible();
  const card = page.locator('[data-testid="toolcall-card"][data-tool="mcp_everything_echo"]').last();
  await expect(card).toContainText('everything');
  await page.getByTestId('prompt-allow-once').click();
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(card).toContainText('Echo: hello from MCP');

  // Restart from Settings: it runs again, its tools still there.
  await page.getByTestId('nav-settings').click();
  await server.getByTestId('mcp-restart').click();
  await expect(server).toHaveAttribute('data-status', 'running');
  await expect(echo).toBeVisible();
});
